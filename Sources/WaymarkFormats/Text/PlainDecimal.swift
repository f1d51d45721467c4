/// A finite number as a plain decimal: rounded to 9 decimals (0.1 mm in latitude), trailing zeros dropped,
/// never an exponent, never `-0`; valid as `xsd:decimal`, as a JSON number and in a CSV cell.
public struct PlainDecimal: Sendable {
    private let negative: Bool
    /// The digits before the point; nil for a magnitude of 1e15 or more, written from ``large``.
    private let whole: UInt64?
    /// Billionths.
    private let fraction: UInt64
    private let large: Double

    /// Precondition: `value` is finite.
    public init(_ value: Double) {
        precondition(value.isFinite, "PlainDecimal of \(value)")
        let magnitude = abs(value)
        large = value
        guard magnitude < 1e15 else {
            negative = value < 0
            whole = nil
            fraction = 0
            return
        }
        var whole = magnitude.rounded(.towardZero)
        // Exact: subtracting the integer part drops leading bits only.
        var billionths = ((magnitude - whole) * 1e9).rounded()
        if billionths >= 1e9 {
            whole += 1
            billionths -= 1e9
        }
        self.whole = UInt64(whole)
        self.fraction = UInt64(billionths)
        self.negative = value < 0 && (whole != 0 || billionths != 0)
    }

    /// Whether it is written as the whole number `value` (0 or more).
    public func isWhole(_ value: UInt64) -> Bool { !negative && whole == value && fraction == 0 }

    public func append(to buffer: inout [UInt8]) {
        guard let whole else {
            Self.appendExpanded(large, to: &buffer)
            return
        }
        if negative { buffer.append(UInt8(ascii: "-")) }
        buffer.append(decimal: whole)
        guard fraction != 0 else { return }
        buffer.append(UInt8(ascii: "."))
        var digits = 9
        var rest = fraction
        while rest % 10 == 0 {
            rest /= 10
            digits -= 1
        }
        buffer.append(decimal: rest, minimumDigits: digits)
    }

    /// A magnitude of 1e15 or more, whose shortest text may have an exponent: `1.5e+20` as `150000000000000000000`.
    private static func appendExpanded(_ value: Double, to buffer: inout [UInt8]) {
        var text = Array(value.description.utf8)
        if text.starts(with: [UInt8(ascii: "-")]) {
            buffer.append(UInt8(ascii: "-"))
            text.removeFirst()
        }
        guard let e = text.firstIndex(of: UInt8(ascii: "e")) else {
            let plain = text.suffix(2).elementsEqual(".0".utf8) ? text.dropLast(2) : text[...]
            buffer.append(contentsOf: plain)
            return
        }
        let exponent = Int(String(decoding: text[(e + 1)...], as: UTF8.self)) ?? 0
        let digits = text[..<e].filter { $0 != UInt8(ascii: ".") }
        // The mantissa has one digit before its point; the point moves `exponent` places right.
        let point = 1 + exponent
        if point >= digits.count {
            buffer.append(contentsOf: digits)
            buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - digits.count))
        } else {
            buffer.append(contentsOf: digits[..<point])
            buffer.append(UInt8(ascii: "."))
            buffer.append(contentsOf: digits[point...])
        }
    }
}
