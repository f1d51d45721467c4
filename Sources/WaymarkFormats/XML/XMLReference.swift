/// The references XML defines without a DTD: the five predefined entities (`&lt;` `&gt;` `&amp;` `&apos;`
/// `&quot;`) and character references (`&#39;`, `&#x27;`).
enum XMLReference {
    /// The longest reference read, `;` included; longer ones are invalid (`&#x0010FFFF;` is 12 bytes).
    private static let maximumLength = 32

    /// The character that the reference starting at `start` (an `&`) stands for, and the offset after its `;`.
    ///
    /// Nil when the bytes there are not a reference to a character XML allows; ``problem(in:at:)`` says why.
    static func decode(_ bytes: [UInt8], at start: Int) -> (scalar: Unicode.Scalar, end: Int)? {
        guard let semicolon = semicolon(in: bytes, after: start) else { return nil }
        let body = bytes[(start + 1)..<semicolon]
        let scalar: Unicode.Scalar?
        if body.first == UInt8(ascii: "#") {
            scalar = characterReference(body.dropFirst())
        } else {
            scalar = predefinedEntity(body)
        }
        guard let scalar else { return nil }
        return (scalar, semicolon + 1)
    }

    /// Why the bytes at `start` are not a valid reference, for an error message.
    static func problem(in bytes: [UInt8], at start: Int) -> String {
        guard let semicolon = semicolon(in: bytes, after: start) else {
            return "\"&\" must start a reference such as &amp; &lt; or &#39;; write a literal & as &amp;"
        }
        let written = String(decoding: bytes[start...semicolon], as: UTF8.self)
        if bytes[start + 1] == UInt8(ascii: "#") {
            return "\(written) is not a character XML allows"
        }
        return "unknown entity \(written); XML without a DTD knows only &lt; &gt; &amp; &apos; &quot;"
    }

    /// Appends `bytes[range]` to `buffer` with every reference replaced by the UTF-8 of its character.
    ///
    /// The tokenizer has refused invalid references already; one that slips through is copied as written.
    static func appendDecoded(_ bytes: [UInt8], _ range: Range<Int>, to buffer: inout [UInt8]) {
        var copied = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound {
            guard bytes[index] == UInt8(ascii: "&"), let reference = decode(bytes, at: index),
                reference.end <= range.upperBound
            else {
                index += 1
                continue
            }
            buffer.append(contentsOf: bytes[copied..<index])
            UTF8.encode(reference.scalar) { buffer.append($0) }
            index = reference.end
            copied = index
        }
        buffer.append(contentsOf: bytes[copied..<range.upperBound])
    }

    private static func semicolon(in bytes: [UInt8], after start: Int) -> Int? {
        let limit = min(bytes.count, start + maximumLength)
        var index = start + 1
        while index < limit {
            switch bytes[index] {
            case UInt8(ascii: ";"):
                return index > start + 1 ? index : nil
            case UInt8(ascii: "#"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "a")...UInt8(ascii: "z"):
                index += 1
            default:
                return nil
            }
        }
        return nil
    }

    private static func predefinedEntity(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
        if name.elementsEqual("lt".utf8) { return "<" }
        if name.elementsEqual("gt".utf8) { return ">" }
        if name.elementsEqual("amp".utf8) { return "&" }
        if name.elementsEqual("apos".utf8) { return "'" }
        if name.elementsEqual("quot".utf8) { return "\"" }
        return nil
    }

    /// `39` or `x27` (the part after `&#`), if it names a character XML 1.0 allows.
    private static func characterReference(_ digits: ArraySlice<UInt8>) -> Unicode.Scalar? {
        var digits = digits
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard let digit = digitValue(byte, radix: radix) else { return nil }
            value = value * radix + digit
            guard value <= 0x10_FFFF else { return nil }
        }
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF:
            return Unicode.Scalar(value)
        default:
            return nil
        }
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        let value: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt32(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt32(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        return value < radix ? value : nil
    }
}
