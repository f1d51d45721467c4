/// Appends one JSON object (flat but for arrays of strings and the objects of places), and a newline, to a caller's byte buffer, member by member.
struct JSONObjectWriter {
    private var buffer: [UInt8] = []
    private var isFirst = true

    /// Writes one object at the end of `output`. The buffer is swapped in and out, never copied: a copy
    /// per event would make encoding quadratic in what the caller has buffered.
    static func write(into output: inout [UInt8], _ body: (inout JSONObjectWriter) -> Void) {
        var writer = JSONObjectWriter()
        swap(&writer.buffer, &output)
        writer.buffer.append(UInt8(ascii: "{"))
        body(&writer)
        writer.buffer.append(UInt8(ascii: "}"))
        writer.buffer.append(UInt8(ascii: "\n"))
        swap(&writer.buffer, &output)
    }

    mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        appendQuoted(value)
    }

    mutating func boolean(_ key: StaticString, _ value: Bool) {
        self.key(key)
        buffer.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null(_ key: StaticString) {
        self.key(key)
        buffer.append(contentsOf: "null".utf8)
    }

    mutating func integer(_ key: StaticString, _ value: Int64) {
        self.key(key)
        buffer.append(contentsOf: String(value).utf8)
    }

    /// Writes the member only for a finite value: unknown fields are absent.
    mutating func number(_ key: StaticString, _ value: Double?) {
        guard let value, value.isFinite else { return }
        self.key(key)
        if value == value.rounded(), abs(value) < 1e15 {
            buffer.append(contentsOf: String(Int64(value)).utf8)
        } else {
            buffer.append(contentsOf: value.description.utf8)
        }
    }

    /// An array of strings; written even when empty.
    mutating func strings(_ key: StaticString, _ values: [String]) {
        self.key(key)
        buffer.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            appendQuoted(value)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// A nested object, whose members `body` writes.
    mutating func object(_ key: StaticString, _ body: (inout JSONObjectWriter) -> Void) {
        self.key(key)
        var nested = JSONObjectWriter()
        swap(&nested.buffer, &buffer)
        nested.buffer.append(UInt8(ascii: "{"))
        body(&nested)
        nested.buffer.append(UInt8(ascii: "}"))
        swap(&nested.buffer, &buffer)
    }

    mutating func timestamp(_ key: StaticString, _ value: Timestamp) {
        self.key(key)
        buffer.append(UInt8(ascii: "\""))
        value.appendISO8601(to: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    private mutating func key(_ key: StaticString) {
        if !isFirst { buffer.append(UInt8(ascii: ",")) }
        isFirst = false
        buffer.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
    }

    private mutating func appendQuoted(_ value: String) {
        buffer.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30])
                buffer.append(hex[Int(byte >> 4)])
                buffer.append(hex[Int(byte & 0xF)])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
