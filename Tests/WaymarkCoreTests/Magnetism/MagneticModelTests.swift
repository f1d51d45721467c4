import Testing
import WaymarkCore

@Suite("The World Magnetic Model 2025 against NOAA's test values")
struct MagneticModelTests {
    let model = MagneticModel.wmm2025

    /// The largest differences found over a table, element by element, for the report.
    struct Worst: CustomStringConvertible {
        private(set) var differences: [String: (value: Double, row: String)] = [:]

        mutating func record(_ name: String, _ ours: Double, _ published: Double, row: String) -> Double {
            let difference = abs(ours - published)
            if difference >= differences[name]?.value ?? -1 { differences[name] = (difference, row) }
            return difference
        }

        var description: String {
            differences.keys.sorted().map { "\($0) \(differences[$0]!.value) (\(differences[$0]!.row))" }
                .joined(separator: ", ")
        }
    }

    /// Half a unit in the last printed place, plus what a double can hold of a printed number.
    static func printed(_ unit: Double) -> Double { unit / 2 + 1e-9 }

    /// One element of the tables: its name in NOAA's files, ours, and the published value.
    struct Element: Sendable {
        var name: String
        var ours: KeyPath<MagneticField, Double> & Sendable
        var published: KeyPath<MagneticTestValues.Row, Double> & Sendable
        /// An angle (degrees) rather than a field strength (nT).
        var isAngle: Bool
    }

    static let elements: [Element] = [
        Element(name: "X", ours: \.north, published: \.north, isAngle: false),
        Element(name: "Y", ours: \.east, published: \.east, isAngle: false),
        Element(name: "Z", ours: \.down, published: \.down, isAngle: false),
        Element(
            name: "H",
            ours: \.horizontalIntensity,
            published: \.horizontalIntensity,
            isAngle: false
        ),
        Element(name: "F", ours: \.totalIntensity, published: \.totalIntensity, isAngle: false),
        Element(name: "I", ours: \.inclination, published: \.inclination, isAngle: true),
        Element(name: "D", ours: \.declination, published: \.declination, isAngle: true),
        Element(name: "Xdot", ours: \.rates.north, published: \.northRate, isAngle: false),
        Element(name: "Ydot", ours: \.rates.east, published: \.eastRate, isAngle: false),
        Element(name: "Zdot", ours: \.rates.down, published: \.downRate, isAngle: false),
        Element(
            name: "Hdot",
            ours: \.rates.horizontalIntensity,
            published: \.horizontalIntensityRate,
            isAngle: false
        ),
        Element(
            name: "Fdot",
            ours: \.rates.totalIntensity,
            published: \.totalIntensityRate,
            isAngle: false
        ),
        Element(name: "Idot", ours: \.rates.inclination, published: \.inclinationRate, isAngle: true),
        Element(name: "Ddot", ours: \.rates.declination, published: \.declinationRate, isAngle: true),
    ]

    /// Compares every element of `field` with `row`, each within the tolerance `allowed` gives it.
    static func expectMatches(
        _ field: MagneticField,
        _ row: MagneticTestValues.Row,
        within allowed: (Element) -> Double,
        worst: inout Worst
    ) {
        for element in elements {
            let ours = field[keyPath: element.ours]
            let difference = worst.record(element.name, ours, row[keyPath: element.published], row: "\(row)")
            #expect(difference <= allowed(element), "\(row): \(element.name) \(ours)")
        }
    }

    /// The model at a table row's place, height and date; within its validity, as every row is.
    func field(for row: MagneticTestValues.Row) throws -> MagneticField {
        let field = try #require(
            model.field(at: row.coordinate, altitudeHAE: row.heightKilometres * 1_000, year: row.year),
            "\(row)"
        )
        #expect(field.isWithinValidity, "\(row)")
        return field
    }

    @Test("the 12 points of the WMM2025 report, to 0.1 nT, 0.1 nT/yr, 0.01° and 0.01°/yr as printed")
    func reportTable() throws {
        let rows = try MagneticTestValues.report()
        try #require(rows.count == 12)
        var worst = Worst()
        for row in rows {
            let field = try field(for: row)
            let degrees = Self.printed(0.01)
            Self.expectMatches(field, row, within: { $0.isAngle ? degrees : Self.printed(0.1) }, worst: &worst)
            if let published = row.gridVariation {
                let gridVariation = try #require(field.gridVariation, "\(row): no grid variation")
                #expect(
                    worst.record("GV", gridVariation, published, row: "\(row)") <= degrees,
                    "\(row): GV \(gridVariation)"
                )
                #expect(field.rates.gridVariation == field.rates.declination, "\(row)")
            } else {
                #expect(field.gridVariation == nil, "\(row)")
                #expect(field.rates.gridVariation == nil, "\(row)")
            }
        }
        print("WMM2025 report table, largest differences: \(worst)")
    }

    /// NOAA prints X, H and F of this table to 1e-6 nT but three independent implementations (and this one)
    /// reproduce them only to 7.2e-4 nT (Tests/Fixtures/wmm/README.md): they get 1e-3 nT. Y, Z and every
    /// rate agree to 2.2e-6 between those implementations (half the printed unit is 5e-7): they get 2.5e-6.
    @Test("the 100 points of NOAA's high-precision table: D and I to 0.01° as printed, the rest to 1e-6")
    func highPrecisionTable() throws {
        let rows = try MagneticTestValues.highPrecision()
        try #require(rows.count == 100)
        var worst = Worst()
        for row in rows {
            let field = try field(for: row)
            #expect((field.gridVariation != nil) == (abs(row.latitude) >= 55), "\(row)")
            Self.expectMatches(field, row, within: Self.highPrecisionTolerance, worst: &worst)
        }
        print("WMM2025 high-precision table, largest differences: \(worst)")
    }

    static func highPrecisionTolerance(_ element: Element) -> Double {
        switch element.name {
        case "D", "I": printed(0.01)
        case "X", "H", "F": 1e-3
        default: 2.5e-6
        }
    }
}
