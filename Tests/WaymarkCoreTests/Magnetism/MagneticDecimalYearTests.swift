import Testing
import WaymarkCore

/// `Timestamp.decimalYear`, the time input of the magnetic model.
@Suite("Decimal years as NOAA counts them")
struct MagneticDecimalYearTests {
    static let cases: [(time: String, year: Double)] = [
        ("2025-01-01T00:00:00Z", 2025.0),
        ("2025-07-02T12:00:00Z", 2025.5),
        ("2024-07-02T00:00:00Z", 2024.5),
        ("2024-12-31T00:00:00Z", 2024.0 + 365.0 / 366.0),
        ("2025-12-31T00:00:00Z", 2025.0 + 364.0 / 365.0),
        ("2025-12-31T23:59:59.999Z", 2026.0 - 0.001 / 31_536_000.0),
        ("2000-03-01T00:00:00Z", 2000.0 + 60.0 / 366.0),
        ("1900-03-01T00:00:00Z", 1900.0 + 59.0 / 365.0),
        ("1969-12-31T12:00:00Z", 1969.0 + 364.5 / 365.0),
    ]

    @Test("year + the fraction of that year's own length elapsed", arguments: cases)
    func decimalYear(time: String, expected: Double) throws {
        let timestamp = try #require(Timestamp(iso8601: time))
        #expect(abs(timestamp.decimalYear - expected) < 1e-11, "\(timestamp.decimalYear)")
    }

    @Test("the extremes of Timestamp do not trap")
    func extremes() {
        #expect(Timestamp(seconds: .max).decimalYear > 2e11)
        #expect(Timestamp(seconds: .min).decimalYear < -2e11)
    }
}
