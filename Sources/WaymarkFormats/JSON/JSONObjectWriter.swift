/// Appends one JSON object, and a newline, to a caller's byte buffer, member by member: events, places, the
/// status file, MQTT payloads. Keys are literals; absent members are left out.
public struct JSONObjectWriter {
    private var buffer: [UInt8] = []
    private var isFirst = true

    /// Writes one object at the end of `output`. The buffer is swapped in and out, never copied: a copy
    /// per event would make encoding quadratic in what the caller has buffered.
    public static func write(into output: inout [UInt8], _ body: (inout JSONObjectWriter) -> Void) {
        var writer = JSONObjectWriter()
        swap(&writer.buffer, &output)
        writer.buffer.append(UInt8(ascii: "{"))
        body(&writer)
        writer.buffer.append(UInt8(ascii: "}"))
        writer.buffer.append(UInt8(ascii: "\n"))
        swap(&writer.buffer, &output)
    }

    public mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        appendQuoted(value)
    }

    public mutating func boolean(_ key: StaticString, _ value: Bool) {
        self.key(key)
        if value { buffer.append(literal: "true") } else { buffer.append(literal: "false") }
    }

    public mutating func null(_ key: StaticString) {
        self.key(key)
        buffer.append(literal: "null")
    }

    public mutating func integer(_ key: StaticString, _ value: Int64) {
        self.key(key)
        buffer.append(decimal: value)
    }

    /// A member whose key is known only now (an event type, a sink's name), quoted as JSON requires.
    public mutating func integer(named key: String, _ value: Int64) {
        if !isFirst { buffer.append(UInt8(ascii: ",")) }
        isFirst = false
        appendQuoted(key)
        buffer.append(UInt8(ascii: ":"))
        buffer.append(decimal: value)
    }

    /// Writes the member only for a finite value: unknown fields are absent.
    public mutating func number(_ key: StaticString, _ value: Double?) {
        guard let value, value.isFinite else { return }
        self.key(key)
        if value == value.rounded(), abs(value) < 1e15 {
            buffer.append(decimal: Int64(value))
        } else {
            buffer.append(contentsOf: value.description.utf8)
        }
    }

    /// An array of strings; written even when empty.
    public mutating func strings(_ key: StaticString, _ values: [String]) {
        self.key(key)
        buffer.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            appendQuoted(value)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// A nested object, whose members `body` writes.
    public mutating func object(_ key: StaticString, _ body: (inout JSONObjectWriter) -> Void) {
        self.key(key)
        nested(body)
    }

    /// An array of objects, one per element, whose members `body` writes; written even when empty.
    public mutating func objects<Elements: Sequence>(
        _ key: StaticString,
        _ elements: Elements,
        _ body: (inout JSONObjectWriter, Elements.Element) -> Void
    ) {
        self.key(key)
        buffer.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            nested { body(&$0, element) }
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// A member whose value `appendValue` writes as JSON text itself: a timestamp (`WaymarkCore` writes
    /// `timestamp(_:_:)` with it), a number with a fixed count of decimals. The text must be one JSON value.
    public mutating func member(_ key: StaticString, appending appendValue: (inout [UInt8]) -> Void) {
        self.key(key)
        appendValue(&buffer)
    }

    /// `value` rounded to `places` decimals (half away from zero), for a number written with ``number(_:_:)``.
    public static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// An object written by a writer of its own into this one's buffer, swapped in and out.
    private mutating func nested(_ body: (inout JSONObjectWriter) -> Void) {
        var nested = JSONObjectWriter()
        swap(&nested.buffer, &buffer)
        nested.buffer.append(UInt8(ascii: "{"))
        body(&nested)
        nested.buffer.append(UInt8(ascii: "}"))
        swap(&nested.buffer, &buffer)
    }

    private mutating func key(_ key: StaticString) {
        if !isFirst { buffer.append(UInt8(ascii: ",")) }
        isFirst = false
        buffer.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
    }

    private mutating func appendQuoted(_ value: String) { JSONText.appendQuoted(value, to: &buffer) }
}
