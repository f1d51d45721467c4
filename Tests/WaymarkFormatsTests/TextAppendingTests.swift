import Testing

@testable import WaymarkFormats

@Suite("Appending literals and decimals to a byte buffer")
struct TextAppendingTests {
    @Test(
        "an unsigned decimal has its digits, zero-padded to the width asked for, never cut",
        arguments: [
            (UInt64(0), 1, "0"), (0, 3, "000"), (7, 2, "07"), (42, 1, "42"), (12_345, 2, "12345"),
            (1_000_000_000, 9, "1000000000"), (999_999_999, 9, "999999999"), (5, 20, "00000000000000000005"),
            (UInt64.max, 1, "18446744073709551615"), (UInt64.max, 20, "18446744073709551615"),
        ]
    )
    func unsignedDecimal(value: UInt64, minimumDigits: Int, text: String) {
        var buffer = Array("x=".utf8)
        buffer.append(decimal: value, minimumDigits: minimumDigits)
        #expect(String(decoding: buffer, as: UTF8.self) == "x=" + text)
        #expect(text == String(repeating: "0", count: max(0, minimumDigits - "\(value)".count)) + "\(value)")
    }

    @Test(
        "a signed decimal is written as Swift writes it, the extremes included",
        arguments: [Int64.min, -9_007_199_254_740_993, -1, 0, 1, 1_000_000_000_000_000, Int64.max]
    )
    func signedDecimal(value: Int64) {
        var buffer: [UInt8] = []
        buffer.append(decimal: value)
        #expect(String(decoding: buffer, as: UTF8.self) == String(value))
    }

    @Test("a literal's UTF-8 goes in whole: ASCII, one scalar beyond it, and text around a quote")
    func literals() {
        var buffer: [UInt8] = []
        buffer.append(literal: "<trkpt lat=\"")
        buffer.append(literal: "\u{FFFD}")
        buffer.append(literal: #"" lon=""#)
        buffer.append(literal: "")
        #expect(String(decoding: buffer, as: UTF8.self) == "<trkpt lat=\"\u{FFFD}\" lon=\"")
    }
}
