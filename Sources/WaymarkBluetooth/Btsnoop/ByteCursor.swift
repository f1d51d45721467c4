/// Reads bytes of a slice one field at a time, never past its end. Positions are the slice's own indices,
/// which for a slice of a whole file are byte offsets in it.
struct ByteCursor {
    let bytes: ArraySlice<UInt8>
    /// Where the next field starts.
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    /// The bytes not read yet.
    var remaining: Int { bytes.endIndex - position }

    /// The next `count` bytes; nil, reading nothing, when fewer are left.
    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func byte() -> UInt8? { take(1)?.first }
}

extension ArraySlice<UInt8> {
    /// The big-endian unsigned integer of the slice's bytes (at most 8).
    var bigEndianValue: UInt64 { reduce(0) { $0 << 8 | UInt64($1) } }
}
