import Foundation
import WaymarkCore
import WaymarkTestSupport

/// NOAA's WMM2025 test-value tables, read from `Tests/Fixtures/wmm/` (origin, licence and column layout in
/// its README.md). Both give heights above the WGS84 ellipsoid in km and times as decimal years.
enum MagneticTestValues {
    static let directory = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/wmm")

    /// One row of either table: the inputs, and the published elements as printed.
    struct Row: Sendable, CustomStringConvertible {
        var line: Int
        var year: Double
        var heightKilometres: Double
        var latitude: Double
        var longitude: Double
        var declination: Double
        var inclination: Double
        var horizontalIntensity: Double
        var totalIntensity: Double
        var north: Double
        var east: Double
        var down: Double
        /// nil where the 12-row table prints `NaN` (|latitude| < 55°), and in the 100-row table, which has no
        /// such column.
        var gridVariation: Double?
        var declinationRate: Double
        var inclinationRate: Double
        var horizontalIntensityRate: Double
        var totalIntensityRate: Double
        var northRate: Double
        var eastRate: Double
        var downRate: Double

        var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

        var description: String {
            "line \(line): \(year) \(heightKilometres) km \(latitude) \(longitude)"
        }
    }

    /// `WMM2025_TestValues.txt`, 12 rows: year, height (km), lat, lon, X, Y, Z, H, F, I, D, GV, Ẋ, Ẏ, Ż, Ḣ, Ḟ,
    /// İ, Ḋ, printed to 0.1 nT, 0.1 nT/yr and 0.01°, 0.01°/yr.
    static func report() throws -> [Row] {
        try rows(of: "WMM2025_TestValues.txt", columns: 19).map { line, v in
            Row(
                line: line,
                year: v[0],
                heightKilometres: v[1],
                latitude: v[2],
                longitude: v[3],
                declination: v[10],
                inclination: v[9],
                horizontalIntensity: v[7],
                totalIntensity: v[8],
                north: v[4],
                east: v[5],
                down: v[6],
                gridVariation: v[11].isNaN ? nil : v[11],
                declinationRate: v[18],
                inclinationRate: v[17],
                horizontalIntensityRate: v[15],
                totalIntensityRate: v[16],
                northRate: v[12],
                eastRate: v[13],
                downRate: v[14]
            )
        }
    }

    /// `WMM2025_TestValues_HighPrec.txt`, 100 rows: year, height (km), lat, lon, D, I, H, X, Y, Z, F, Ḋ, İ, Ḣ, Ẋ,
    /// Ẏ, Ż, Ḟ; D and I printed to 0.01°, everything else to 1e-6.
    static func highPrecision() throws -> [Row] {
        try rows(of: "WMM2025_TestValues_HighPrec.txt", columns: 18).map { line, v in
            Row(
                line: line,
                year: v[0],
                heightKilometres: v[1],
                latitude: v[2],
                longitude: v[3],
                declination: v[4],
                inclination: v[5],
                horizontalIntensity: v[6],
                totalIntensity: v[10],
                north: v[7],
                east: v[8],
                down: v[9],
                gridVariation: nil,
                declinationRate: v[11],
                inclinationRate: v[12],
                horizontalIntensityRate: v[13],
                totalIntensityRate: v[17],
                northRate: v[14],
                eastRate: v[15],
                downRate: v[16]
            )
        }
    }

    /// The numbers of every non-empty line of a table, with its line number; throws unless each line has
    /// `columns` numbers (`NaN` counts as one).
    private static func rows(of name: String, columns: Int) throws -> [(Int, [Double])] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return try text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
            index,
            line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard !fields.isEmpty else { return nil }
            let values = fields.compactMap { Double($0) }
            guard values.count == columns, fields.count == columns else {
                throw TestServerError("\(name):\(index + 1): expected \(columns) numbers, found: \(line)")
            }
            return (index + 1, values)
        }
    }
}
