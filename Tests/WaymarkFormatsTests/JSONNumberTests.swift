import Testing
import WaymarkTestSupport

@testable import WaymarkFormats

@Suite("JSONReader numbers: exactly the Double nearest to the decimal")
struct JSONNumberTests {
    @Test(
        "numbers convert exactly as Double(_:) converts their text",
        arguments: [
            "0", "-0", "0.1", "0.30000000000000004", "1e23", "8.98846567431158e307", "1.7976931348623157e308",
            "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9e-324", "5e-324", "2e-324", "1e-400",
            "9007199254740992", "9007199254740993", "9007199254740993.0", "123456789012345678901234567890",
            "0.000001", "1E+2", "1e-7", "12.0975", "49.0134", "-179.99999999999997", "1000000000000000000000000",
            "1e22", "1e-22", "1.5e-23", "0.0000000000000000000000000000001", "1e400", "-1e400",
            "179.76931348623157e306", "0e999", "100e-2", "89.99999999999999", "1.00000000000000011102230246251565",
        ]
    )
    func numbers(text: String) throws {
        let expected = try #require(Double(text))
        var reader = try JSONReader(Array(text.utf8))
        let value = try reader.readNumber()
        #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) != \(expected)")
    }

    @Test("random decimal numbers convert exactly as Double(_:) converts them")
    func randomNumbers() throws {
        var random = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<20_000 {
            let text = Self.decimalLiteral(using: &random)
            let expected = try #require(Double(text), "\(text)")
            var reader = try JSONReader(Array(text.utf8))
            let value = try reader.readNumber()
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) != \(expected)")
            try reader.finish()
        }
    }

    @Test("readNumberText gives the number as written")
    func numberText() throws {
        var reader = try JSONReader(Array("[-12.50e03, 17, 0.1]".utf8))
        try reader.beginArray()
        var texts: [String] = []
        while try reader.nextElement() != nil { texts.append(try reader.readNumberText()) }
        #expect(texts == ["-12.50e03", "17", "0.1"])
    }

    @Test("the table of powers of ten holds the binary expansions of 10^n, truncated to 128 bits")
    func powersOfTen() {
        // 10^0 and 10^1 are exact; 10^-1 = 0.1 is 0xCCCC… repeating; 10^43 needs 143 bits, all of them
        // (10^43 = 0xE596B7B0_C643C719_6D9CCD05_D0000000 × 2^15), so its 128 bits are exact too.
        let known: [(Int, UInt64, UInt64)] = [
            (0, 0x8000_0000_0000_0000, 0),
            (1, 0xA000_0000_0000_0000, 0),
            (-1, 0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCC),
            (-7, 0xD6BF_94D5_E57A_42BC, 0x3D32_9076_0469_1B4C),
            (43, 0xE596_B7B0_C643_C719, 0x6D9C_CD05_D000_0000),
            (64, 0xC278_1F49_FFCF_A6D5, 0x3CBF_6B71_C76B_25FB),
        ]
        for (exponent, high, low) in known {
            let power = EiselLemire.powersOfTen[exponent - EiselLemire.exponents.lowerBound]
            #expect(power.high == high && power.low == low, "10^\(exponent)")
        }
        // Each is the one before times ten, renormalised. Computed from the truncated top 64 bits, the product
        // can only fall short, by less than 10/8 before its own truncation: by 0, 1 or 2. Not across 10^0 = 2^0,
        // where ten times 0.1's rounded-down bits falls just below the power of two (and 10^0 is checked above).
        for exponent in EiselLemire.exponents.dropFirst() where exponent != 0 {
            let previous = EiselLemire.powersOfTen[exponent - 1 - EiselLemire.exponents.lowerBound].high
            let current = EiselLemire.powersOfTen[exponent - EiselLemire.exponents.lowerBound].high
            let (high, low) = previous.multipliedFullWidth(by: 10)
            let shift = high.leadingZeroBitCount
            let product = high << shift | low >> (64 - shift)
            #expect(current >= product && current - product <= 2, "10^\(exponent)")
        }
    }

    @Test("Eisel–Lemire decides nearly every 19-digit number, and always as Double(_:) does")
    func eiselLemire() throws {
        var random = SplitMix64(seed: 0xE15E_1000)
        var decided = 0
        let trials = 20_000
        for _ in 0..<trials {
            let significand = UInt64.random(in: 1...9_999_999_999_999_999_999, using: &random)
            let exponent = Int.random(in: EiselLemire.exponents, using: &random)
            let negative = Bool.random(using: &random)
            guard let value = EiselLemire.double(significand: significand, exponent: exponent, negative: negative)
            else { continue }
            decided += 1
            let expected = try #require(Double("\(negative ? "-" : "")\(significand)e\(exponent)"))
            #expect(value.bitPattern == expected.bitPattern, "\(significand)e\(exponent)")
        }
        #expect(decided > trials * 99 / 100)
        #expect(EiselLemire.double(significand: 1, exponent: 65, negative: false) == nil, "outside the table")
        #expect(EiselLemire.double(significand: 0, exponent: 500, negative: true)?.bitPattern == (-0.0).bitPattern)
    }
}

extension JSONNumberTests {
    /// A JSON number with 1 to 25 significant digits, often with a fraction, sometimes an exponent from -340 to
    /// 340: the fast path's cases, its edges, and those beyond it.
    static func decimalLiteral(using random: inout SplitMix64) -> String {
        let digitCount = Int.random(in: 1...25, using: &random)
        var digits = String(Int.random(in: 1...9, using: &random))
        for _ in 1..<digitCount { digits.append(String(Int.random(in: 0...9, using: &random))) }
        var text = Bool.random(using: &random) ? "-" : ""
        let point = Int.random(in: 0...digitCount, using: &random)
        if point == 0 {
            text += "0." + String(repeating: "0", count: Int.random(in: 0...5, using: &random)) + digits
        } else if point == digitCount {
            text += digits
        } else {
            text += digits.prefix(point) + "." + digits.dropFirst(point)
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: text += "e\(Int.random(in: -30...30, using: &random))"
        case 1: text += "E+\(Int.random(in: 0...340, using: &random))"
        case 2: text += "e-\(Int.random(in: 0...340, using: &random))"
        default: break
        }
        return text
    }
}
