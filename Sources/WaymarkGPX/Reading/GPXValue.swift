/// The simple values of GPX (decimals, and the whitespace XML Schema allows around any value), read from bytes.
enum GPXValue {
    /// Exact powers of ten: every one up to 10^22 is a `Double` without rounding.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// A number as GPX writers print it: optional sign, digits with an optional fraction, an optional exponent,
    /// whitespace around. Nil for anything else (`NaN`, `INF` and hexadecimal included) and beyond `Double`.
    ///
    /// Coordinates and the like (at most 19 significant digits, a power of ten within ±22) are converted exactly
    /// here, with Clinger's fast path: both operands are exact `Double`s, so the one multiplication or division
    /// rounds correctly. Other numbers go through the standard library.
    static func decimal(_ text: ArraySlice<UInt8>) -> Double? {
        let text = trimmed(text)
        var index = text.startIndex
        var significand: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0

        func isDigit(_ index: Int) -> Bool {
            index < text.endIndex && text[index] >= UInt8(ascii: "0") && text[index] <= UInt8(ascii: "9")
        }
        /// Moves past the digits at `index` into `significand`; how many there were.
        func readDigits() -> Int {
            let start = index
            while isDigit(index) {
                if significand != 0 || text[index] != UInt8(ascii: "0") { significantDigits += 1 }
                if significantDigits <= 19 {
                    significand = significand &* 10 &+ UInt64(text[index] - UInt8(ascii: "0"))
                }
                index += 1
            }
            return index - start
        }
        func readSign() -> Bool {
            guard index < text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") else {
                return false
            }
            defer { index += 1 }
            return text[index] == UInt8(ascii: "-")
        }

        let isNegative = readSign()
        var digits = readDigits()
        if index < text.endIndex, text[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = readDigits()
            digits += fractionDigits
        }
        guard digits > 0 else { return nil }
        var exponent = 0
        if index < text.endIndex, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            let isNegativeExponent = readSign()
            let start = index
            while isDigit(index) {
                exponent = min(exponent * 10 + Int(text[index] - UInt8(ascii: "0")), 100_000)
                index += 1
            }
            guard index > start else { return nil }
            if isNegativeExponent { exponent = -exponent }
        }
        guard index == text.endIndex else { return nil }

        let scale = exponent - fractionDigits
        if significantDigits <= 19, significand <= 1 << 53, abs(scale) <= 22 {
            let magnitude =
                scale < 0
                ? Double(significand) / powersOfTen[-scale]
                : Double(significand) * powersOfTen[scale]
            return isNegative ? -magnitude : magnitude
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// `text` without the XML whitespace (space, tab, CR, LF) around it.
    static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isWhitespace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
        }
        guard let first = text.firstIndex(where: { !isWhitespace($0) }),
            let last = text.lastIndex(where: { !isWhitespace($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }

    /// The trimmed text in quotes, for a message; shortened past 24 bytes.
    static func quoted(_ text: ArraySlice<UInt8>) -> String {
        let text = trimmed(text)
        let shown = String(decoding: text.prefix(24), as: UTF8.self)
        return "\"\(shown)\(text.count > 24 ? "…" : "")\""
    }
}
