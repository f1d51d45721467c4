import Testing
import WaymarkTestSupport

@testable import WaymarkGPX

@Suite("GPX decimals convert exactly as the standard library does")
struct GPXValueTests {
    private func decimal(_ text: String) -> Double? { GPXValue.decimal(Array(text.utf8)[...]) }

    @Test(
        "numbers as GPX writers print them",
        arguments: [
            "48.137154", "-122.4194", "0", "-0", "0.0", ".5", "5.", "+3", "007.250", "1e3", "1.5E-2", "-2.5e+1",
            "0.1", "0.3", "179.99999999999997", "4503599627370497", "9007199254740993", "123456789012345678901234",
            "1e22", "1e23", "1e-22", "1e-23", "0.000000000000000000000000001", "1e308", "2.2250738585072014e-308",
        ]
    )
    func matchesStandardLibrary(text: String) throws {
        let expected = try #require(Double(text))

        #expect(decimal(text)?.bitPattern == expected.bitPattern)
        #expect(decimal(" \t\(text)\r\n")?.bitPattern == expected.bitPattern)
    }

    @Test("random decimals of 1 to 19 digits, with and without an exponent, convert bit for bit")
    func randomDecimals() {
        var generator = SplitMix64(seed: 0x5EED)
        var mismatches: [String] = []
        for _ in 0..<50_000 {
            let digitCount = Int.random(in: 1...19, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            let point = Int.random(in: 0...digitCount, using: &generator)
            for position in 0..<digitCount {
                if position == point { text += "." }
                text += String(Int.random(in: 0...9, using: &generator))
            }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -30...30, using: &generator))" }
            if decimal(text) != Double(text) { mismatches.append(text) }
        }

        #expect(mismatches == [])
    }

    @Test(
        "anything else is not a number",
        arguments: [
            "", " ", "-", "+", ".", "-.", "e5", "1e", "1e+", "1.2.3", "1,5", "0x10", "nan", "NaN", "inf", "1 2",
            "1e999", "--1",
        ]
    )
    func rejects(text: String) {
        #expect(decimal(text) == nil)
    }
}
