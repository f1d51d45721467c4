import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@Suite("Geodesics on WGS84 against GeographicLib")
struct GeodesyTests {
    /// The largest difference allowed for a distance of `s12` metres: 1 mm, and 1e-9 of the distance
    /// plus 1 nm (the rounding of the coordinates themselves, so that coincident points give 0 within it).
    static func distanceTolerance(_ s12: Double) -> Double { min(0.001, 1e-9 * s12 + 1e-9) }

    /// The largest difference allowed between azimuths, degrees: issue 3's 1e-6° for every pair, the
    /// sub-metre ones included (measured worst: 4.3e-7°, on a 3 cm line).
    static func azimuthTolerance(_ s12: Double) -> Double { 1e-6 }

    /// The difference between two azimuths on the circle, degrees, 0 ... 180.
    static func azimuthDifference(_ a: Double, _ b: Double) -> Double { abs((a - b).remainder(dividingBy: 360)) }

    /// Every generated pair compared with GeographicLib (run as a Python process): the distance and both
    /// azimuths, for every pair, coincident points and poles included.
    @Test func agreesWithGeographicLibOnEveryPair() throws {
        let pairs = GeodesyPairs.all()
        #expect(pairs.count >= 400)
        let expected = try GeodesyOracle.inverse(pairs)
        var worst = (distance: 0.0, relative: 0.0, azimuth: 0.0, azimuthBeyondOneMetre: 0.0)
        for (pair, oracle) in zip(pairs, expected) {
            let ours = Geodesic.inverse(from: pair.start, to: pair.end)
            let error = abs(ours.distance - oracle.distance)
            #expect(error <= Self.distanceTolerance(oracle.distance), "\(pair): \(ours.distance) vs \(oracle.distance)")
            // Both implement the same series to order 6: a wrong coefficient shows here long before 1 mm.
            #expect(error <= 1e-6, "\(pair): \(ours.distance) vs \(oracle.distance)")
            #expect(Geodesic.distance(from: pair.start, to: pair.end) == ours.distance, "\(pair)")
            let azimuthError = max(
                Self.azimuthDifference(ours.initialAzimuth, oracle.initialAzimuth),
                Self.azimuthDifference(ours.finalAzimuth, oracle.finalAzimuth)
            )
            #expect(
                azimuthError <= Self.azimuthTolerance(oracle.distance),
                "\(pair): azimuths \(ours.initialAzimuth), \(ours.finalAzimuth) vs \(oracle.initialAzimuth), \(oracle.finalAzimuth)"
            )
            worst.distance = max(worst.distance, error)
            worst.azimuth = max(worst.azimuth, azimuthError)
            if oracle.distance >= 1 {
                worst.relative = max(worst.relative, error / oracle.distance)
                worst.azimuthBeyondOneMetre = max(worst.azimuthBeyondOneMetre, azimuthError)
            }
        }
        print(
            "geodesy: \(pairs.count) pairs against GeographicLib: largest distance difference \(worst.distance) m, "
                + "relative \(worst.relative) (lines of 1 m and more), azimuth \(worst.azimuth)° "
                + "(\(worst.azimuthBeyondOneMetre)° for lines of 1 m and more)"
        )
    }

    struct Known: Sendable, CustomTestStringConvertible {
        var name: String
        var start: Coordinate
        var end: Coordinate
        var distance: Double
        var initialAzimuth: Double
        var finalAzimuth: Double
        var testDescription: String { name }

        init(
            _ name: String,
            from start: (Double, Double),
            to end: (Double, Double),
            _ distance: Double,
            azimuths: (Double, Double)
        ) {
            self.name = name
            self.start = Coordinate(latitude: start.0, longitude: start.1)
            self.end = Coordinate(latitude: end.0, longitude: end.1)
            self.distance = distance
            (initialAzimuth, finalAzimuth) = azimuths
        }
    }

    /// Values printed by GeographicLib 2.1 (`Geodesic.WGS84.Inverse`); the first two are the examples of
    /// its documentation (JFK to LHR, 5551.759 km; Wellington to Salamanca, 19959.679 km), the quarter
    /// of the equator is a π / 2 exactly.
    static let known: [Known] = [
        Known(
            "JFK to LHR",
            from: (40.6, -73.8),
            to: (51.6, -0.5),
            5_551_759.400_318_678_5,
            azimuths: (51.198_882_845_579_83, 107.821_776_735_514_26)
        ),
        Known(
            "Wellington to Salamanca",
            from: (-41.32, 174.81),
            to: (40.96, -5.5),
            19_959_679.267_353_82,
            azimuths: (161.067_669_986_160_15, 18.825_195_123_247_063)
        ),
        Known("a quarter of the equator", from: (0, 0), to: (0, 90), 6_378_137 * Double.pi / 2, azimuths: (90, 90)),
        Known("equator to north pole", from: (0, 0), to: (90, 0), 10_001_965.729_312_724, azimuths: (0, 0)),
        Known(
            "antipodes on the equator: over a pole",
            from: (0, 0),
            to: (0, 180),
            20_003_931.458_625_447,
            azimuths: (0, 180)
        ),
        Known("pole to pole", from: (90, 0), to: (-90, 0), 20_003_931.458_625_447, azimuths: (180, 180)),
        Known(
            "equator, beyond (1 - f) 180°: off the equator",
            from: (0, 0),
            to: (0, 179.5),
            19_980_861.908_890_963,
            azimuths: (55.966_495_140_158_635, 124.033_504_859_841_37)
        ),
        Known(
            "nearly antipodal: the astroid",
            from: (-30, 0),
            to: (29.9, 179.8),
            19_989_832.827_609_53,
            azimuths: (161.890_524_736_326_97, 18.090_737_245_739_5)
        ),
        Known("1.1 m due north", from: (48.99, 12.1), to: (48.990_01, 12.1), 1.112_095_443_514_580_5, azimuths: (0, 0)),
        Known("the same point as 180 and -180", from: (10, 180), to: (10, -180), 0, azimuths: (-180, -180)),
    ]

    @Test(arguments: known)
    func knownValues(_ row: Known) {
        let result = Geodesic.inverse(from: row.start, to: row.end)
        #expect(abs(result.distance - row.distance) <= 1e-6, "distance \(result.distance)")
        #expect(
            Self.azimuthDifference(result.initialAzimuth, row.initialAzimuth) <= 1e-9,
            "azi1 \(result.initialAzimuth)"
        )
        #expect(Self.azimuthDifference(result.finalAzimuth, row.finalAzimuth) <= 1e-9, "azi2 \(result.finalAzimuth)")
        #expect(Geodesic.distance(from: row.start, to: row.end) == result.distance)
    }

    @Test func reversingThePairKeepsTheDistanceAndTurnsTheAzimuths() {
        var generator = SplitMix64(seed: 17)
        for _ in 0..<200 {
            let start = GeodesyPairs.point(using: &generator)
            let end = GeodesyPairs.point(using: &generator)
            let forward = Geodesic.inverse(from: start, to: end)
            let back = Geodesic.inverse(from: end, to: start)
            #expect(abs(forward.distance - back.distance) <= 1e-8, "\(start) → \(end)")
            #expect(Self.azimuthDifference(forward.initialAzimuth, back.finalAzimuth + 180) <= 1e-9)
            #expect(Self.azimuthDifference(forward.finalAzimuth, back.initialAzimuth + 180) <= 1e-9)
        }
    }

    /// Inputs out of range: never a trap, a NaN distance and NaN azimuths.
    @Test(arguments: [
        (91.0, 0.0), (-90.000_000_1, 0.0), (.nan, 0.0), (.infinity, 0.0), (0.0, .nan), (0.0, .infinity),
        (0.0, -.infinity), (-.infinity, .nan),
    ])
    func outOfRangeGivesNaN(latitude: Double, longitude: Double) {
        let bad = Coordinate(latitude: latitude, longitude: longitude)
        let good = Coordinate(latitude: 48.99, longitude: 12.1)
        for (start, end) in [(bad, good), (good, bad), (bad, bad)] {
            let result = Geodesic.inverse(from: start, to: end)
            #expect(result.distance.isNaN)
            #expect(result.initialAzimuth.isNaN)
            #expect(result.finalAzimuth.isNaN)
            #expect(Geodesic.distance(from: start, to: end).isNaN)
        }
    }

    @Test func theLimitsThemselvesAreInRange() {
        let north = Geodesic.distance(
            from: Coordinate(latitude: 90, longitude: 0),
            to: Coordinate(latitude: 0, longitude: 0)
        )
        #expect(abs(north - 10_001_965.729_312_724) <= 1e-6)
        // Any finite longitude is reduced modulo 360, however large.
        let far = Coordinate(latitude: 0, longitude: 1e15)
        let reduced = Coordinate(latitude: 0, longitude: 1e15.remainder(dividingBy: 360))
        #expect(
            Geodesic.distance(from: far, to: Coordinate(latitude: 1, longitude: 0))
                == Geodesic.distance(from: reduced, to: Coordinate(latitude: 1, longitude: 0))
        )
        #expect(Geodesic.distance(from: Coordinate(latitude: 0, longitude: .greatestFiniteMagnitude), to: far).isFinite)
    }
}
