import Foundation
import Testing
import WaymarkCore

@Suite("The magnetic field: validity, zones, uncertainty, poles and inputs out of range")
struct MagneticFieldTests {
    let model = MagneticModel.wmm2025
    static let boulder = Coordinate(latitude: 40, longitude: -105)

    @Test("the WMM2025 header: name, epoch, release date, degree 12, valid 2025.0 ..< 2030.0")
    func header() {
        #expect(model.name == "WMM-2025")
        #expect(model.epoch == 2025)
        #expect(model.releaseDate == "11/13/2024")
        #expect(model.maximumDegree == 12)
        #expect(model.validYears == 2025.0..<2030.0)
    }

    @Test(
        "outside 2025.0 ..< 2030.0 and -1 ... 850 km it still answers, not within validity",
        arguments: [
            (2024.999, 0.0, false), (2025.0, 0, true), (2029.999, 0, true), (2030.0, 0, false),
            (2031.5, 0, false), (2019, 0, false), (2027, -1_000, true), (2027, -1_001, false),
            (2027, 850_000, true), (2027, 850_001, false),
        ]
    )
    func validity(year: Double, altitude: Double, valid: Bool) throws {
        let field = try #require(model.field(at: Self.boulder, altitudeHAE: altitude, year: year))
        #expect(field.isWithinValidity == valid)
        #expect(field.declination.isFinite && field.totalIntensity > 10_000)
    }

    @Test("extrapolation is linear in time: the field a year on is the field plus its rate, to rounding")
    func secularVariationIsLinear() throws {
        let now = try #require(model.field(at: Self.boulder, altitudeHAE: 1_600, year: 2031))
        let later = try #require(model.field(at: Self.boulder, altitudeHAE: 1_600, year: 2032))
        #expect(abs(later.north - now.north - now.rates.north) < 1e-9)
        #expect(abs(later.east - now.east - now.rates.east) < 1e-9)
        #expect(abs(later.down - now.down - now.rates.down) < 1e-9)
    }

    @Test(
        "zones by the horizontal intensity: blackout below 2000 nT, caution below 6000 nT",
        arguments: [
            (0.0, MagneticZone.blackout), (1_999.999, .blackout), (2_000, .caution), (5_999.999, .caution),
            (6_000, .normal), (40_000, .normal), (.nan, .blackout),
        ]
    )
    func zoneThresholds(horizontalIntensity: Double, zone: MagneticZone) {
        #expect(MagneticZone(horizontalIntensity: horizontalIntensity) == zone)
    }

    @Test(
        "zones on the earth in 2026: the north magnetic pole, the Arctic, the Southern Ocean, Boulder",
        arguments: [
            // The dip pole of WMM2025 in 2026 is near 85.5° N 136° E: H is tens of nT there.
            (85.5, 136.0, MagneticZone.blackout, 0.0...100),
            (80.0, 100.0, .blackout, 1_000...2_000),
            (78.0, 100.0, .caution, 2_000...3_000),
            (-70.0, 140.0, .caution, 4_000...6_000),
            (40.0, -105.0, .normal, 20_000...21_000),
        ]
    )
    func zonesOnTheEarth(latitude: Double, longitude: Double, zone: MagneticZone, range: ClosedRange<Double>) throws {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        let field = try #require(model.field(at: coordinate, altitudeHAE: 0, year: 2026))
        #expect(field.zone == zone)
        #expect(range.contains(field.horizontalIntensity), "H = \(field.horizontalIntensity)")
        #expect(field.magneticDeclination.zone == zone)
    }

    @Test("declination uncertainty: √(0.26² + (5417 / H)²) degrees")
    func uncertainty() throws {
        #expect(abs(MagneticField.declinationUncertainty(horizontalIntensity: 5_417) - 1.067_6.squareRoot()) < 1e-12)
        #expect(abs(MagneticField.declinationUncertainty(horizontalIntensity: 1e12) - 0.26) < 1e-9)
        #expect(abs(MagneticField.declinationUncertainty(horizontalIntensity: 2_000) - 2.720_950_6) < 1e-7)
        let field = try #require(model.field(at: Self.boulder, altitudeHAE: 0, year: 2026))
        let expected = (0.26 * 0.26 + pow(5_417 / field.horizontalIntensity, 2)).squareRoot()
        #expect(abs(field.declinationUncertainty - expected) < 1e-12)
        #expect((0.36...0.38).contains(field.declinationUncertainty))
        #expect(field.magneticDeclination.uncertainty == field.declinationUncertainty)
        #expect(field.magneticDeclination.degrees == field.declination)
    }

    @Test(
        "inputs out of range give nil, never NaN fields",
        arguments: [
            (Double.nan, 0.0, 0.0, 2026.0), (90.000_001, 0, 0, 2026), (-91, 0, 0, 2026), (.infinity, 0, 0, 2026),
            (0, .nan, 0, 2026), (0, .infinity, 0, 2026), (0, -.infinity, 0, 2026),
            (0, 0, .nan, 2026), (0, 0, .infinity, 2026), (0, 0, -1_000_001, 2026), (0, 0, 1.1e9, 2026),
            (0, 0, 0, .nan), (0, 0, 0, .infinity), (0, 0, 0, 3_025.001), (0, 0, 0, 1_024.999),
        ]
    )
    func outOfRange(latitude: Double, longitude: Double, altitude: Double, year: Double) {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        #expect(model.field(at: coordinate, altitudeHAE: altitude, year: year) == nil)
    }

    @Test(
        "the extremes that are accepted give finite values everywhere",
        arguments: [
            (90.0, 0.0, 0.0, 2026.0), (-90, 1e300, 0, 2026), (0, -720, -1_000_000, 2026), (45, 45, 1e9, 2026),
            (-45, 170, 0, 1_025), (10, 10, 0, 3_025),
        ]
    )
    func extremes(latitude: Double, longitude: Double, altitude: Double, year: Double) throws {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        let field = try #require(model.field(at: coordinate, altitudeHAE: altitude, year: year))
        let rates = field.rates
        let values = [
            field.declination, field.inclination, field.horizontalIntensity, field.totalIntensity, field.north,
            field.east, field.down, rates.declination, rates.inclination, rates.horizontalIntensity,
            rates.totalIntensity, rates.north, rates.east, rates.down, field.declinationUncertainty,
        ]
        let finite = values.allSatisfy { $0.isFinite }
        #expect(finite, "\(field)")
        #expect(field.isWithinValidity == (altitude == 0 && year == 2026))
    }

    @Test("longitudes are periodic: 240° and -120° give the same field")
    func periodicLongitude() throws {
        let east = try #require(model.field(at: .init(latitude: -80, longitude: 240), altitudeHAE: 0, year: 2025))
        let west = try #require(model.field(at: .init(latitude: -80, longitude: -120), altitudeHAE: 0, year: 2025))
        #expect(east == west)
    }

    /// At a pole north has no direction: X, Y and D refer to the meridian of the longitude given, as in
    /// NOAA's software; the grid variation does not depend on it, and everything is the limit of the field
    /// approaching the pole along that meridian.
    @Test(
        "at the geographic poles: grid variation is the same for every longitude, D = GV ± λ",
        arguments: [90.0, -90]
    )
    func geographicPoles(latitude: Double) throws {
        var gridVariations: [Double] = []
        for longitude in [0.0, 45, -120, 180] {
            let pole = Coordinate(latitude: latitude, longitude: longitude)
            let field = try #require(model.field(at: pole, altitudeHAE: 0, year: 2026))
            let gridVariation = try #require(field.gridVariation)
            gridVariations.append(gridVariation)
            let expected = (gridVariation + (latitude > 0 ? longitude : -longitude)).remainder(dividingBy: 360)
            #expect(abs((field.declination - expected).remainder(dividingBy: 360)) < 1e-9)
            let near = Coordinate(
                latitude: latitude - Double(signOf: latitude, magnitudeOf: 1e-6),
                longitude: longitude
            )
            let approach = try #require(model.field(at: near, altitudeHAE: 0, year: 2026))
            #expect(
                abs(approach.declination - field.declination) < 1e-4,
                "\(approach.declination) \(field.declination)"
            )
            #expect(abs(approach.north - field.north) < 0.01 && abs(approach.east - field.east) < 0.01)
            #expect(abs(approach.rates.east - field.rates.east) < 0.001)
        }
        #expect(gridVariations.allSatisfy { abs($0 - gridVariations[0]) < 1e-9 }, "\(gridVariations)")
        // The horizontal intensity at a pole is the same whatever the meridian.
        let h0 = try #require(model.field(at: .init(latitude: latitude, longitude: 0), altitudeHAE: 0, year: 2026))
        let h1 = try #require(model.field(at: .init(latitude: latitude, longitude: 77), altitudeHAE: 0, year: 2026))
        #expect(abs(h0.horizontalIntensity - h1.horizontalIntensity) < 1e-9)
    }

    @Test("grid variation only at |latitude| ≥ 55°, normalised to -180 ... 180, its rate that of D")
    func gridVariation() throws {
        for latitude in [54.999, 0, -54.999] {
            let field = try #require(
                model.field(at: .init(latitude: latitude, longitude: 10), altitudeHAE: 0, year: 2026)
            )
            #expect(field.gridVariation == nil && field.rates.gridVariation == nil)
        }
        for (latitude, longitude) in [(55.0, 170.0), (-55, 170), (70, -170), (-70, -170)] {
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            let field = try #require(model.field(at: coordinate, altitudeHAE: 0, year: 2026))
            let gridVariation = try #require(field.gridVariation)
            let expected = (field.declination - (latitude > 0 ? longitude : -longitude)).remainder(dividingBy: 360)
            #expect(abs(gridVariation - expected) < 1e-12)
            #expect(gridVariation > -180 && gridVariation <= 180)
            #expect(field.rates.gridVariation == field.rates.declination)
        }
    }

    /// A model of one axial dipole has a field known in closed form: at the equator it points north with
    /// -g₁₀ (a/r)³, at the north pole down with -2 g₁₀ (a/r)³, where r is the equatorial and the polar radius
    /// of WGS84 and a = 6371.2 km. That checks the radial scaling and the ellipsoid, independently of NOAA.
    @Test("an axial dipole: the closed-form field at the equator and at the pole")
    func axialDipole() throws {
        let dipole = try MagneticModel(cof: "2025.0 DIPOLE 01/01/2025\n 1 0 -30000 0 10 0\n 1 1 0 0 0 0\n9999\n")
        let equatorial = pow(6_371.2 / 6_378.137, 3)
        let polar = pow(6_371.2 / (6_378.137 * (1 - 1 / 298.257_223_563)), 3)
        let equator = try #require(dipole.field(at: .init(latitude: 0, longitude: 33), altitudeHAE: 0, year: 2026))
        // 2026: g₁₀ = -30000 + 10 nT/yr × 1 yr.
        #expect(abs(equator.north - 29_990 * equatorial) < 1e-8)
        #expect(abs(equator.rates.north - -10 * equatorial) < 1e-10)
        #expect(abs(equator.east) < 1e-9 && abs(equator.down) < 1e-9 && abs(equator.declination) < 1e-12)
        let pole = try #require(dipole.field(at: .init(latitude: 90, longitude: 0), altitudeHAE: 0, year: 2025))
        #expect(abs(pole.down - 60_000 * polar) < 1e-8)
        #expect(abs(pole.rates.down - -20 * polar) < 1e-10)
        #expect(abs(pole.north) < 1e-9 && abs(pole.east) < 1e-9 && pole.zone == .blackout)
        #expect(abs(pole.inclination - 90) < 1e-12)
    }

    @Test("a time gives the field of its decimal year")
    func timeAndYear() throws {
        let time = try #require(Timestamp(iso8601: "2027-03-14T15:09:26Z"))
        #expect(
            model.field(at: Self.boulder, altitudeHAE: 1_650, time: time)
                == model.field(at: Self.boulder, altitudeHAE: 1_650, year: time.decimalYear)
        )
    }
}
