/// How numbers and strings are written as JSON: in region files, and in messages about JSON texts.
public enum JSONText {
    /// Appends `value` as the shortest JSON number that reads back as the same `Double`: `12`, `49.0123`,
    /// `1e-07`; a whole number without `.0`. JSON has no infinities and no NaN: those are written as `null`.
    public static func appendNumber(_ value: Double, to buffer: inout [UInt8]) {
        guard value.isFinite else {
            buffer.append(literal: "null")
            return
        }
        let text = value.description
        buffer.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    public static func number(_ value: Double) -> String {
        var buffer: [UInt8] = []
        appendNumber(value, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Appends `text` in double quotes, escaping what JSON requires: `"`, `\` and control characters.
    public static func appendQuoted(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(byte)
            case UInt8(ascii: "\n"): buffer.append(literal: #"\n"#)
            case UInt8(ascii: "\r"): buffer.append(literal: #"\r"#)
            case UInt8(ascii: "\t"): buffer.append(literal: #"\t"#)
            case 0..<0x20:
                buffer.append(literal: #"\u00"#)
                buffer.append(hexDigits[Int(byte >> 4)])
                buffer.append(hexDigits[Int(byte & 0xF)])
            default:
                buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    public static func quoted(_ text: String) -> String {
        var buffer: [UInt8] = []
        appendQuoted(text, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
