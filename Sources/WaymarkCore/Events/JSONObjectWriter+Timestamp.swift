import WaymarkFormats

extension JSONObjectWriter {
    /// A member whose value is `value` in ISO 8601 UTC with milliseconds, quoted: `"time":"2026-03-01T10:00:00.000Z"`.
    public mutating func timestamp(_ key: StaticString, _ value: Timestamp) {
        member(key) { buffer in
            buffer.append(UInt8(ascii: "\""))
            value.appendISO8601(to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
    }
}
