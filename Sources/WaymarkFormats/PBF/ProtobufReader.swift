/// The fields of one protocol buffers message, read in order from its bytes (only what OSM PBF uses: varints,
/// 64-bit, length-delimited and 32-bit fields; no groups).
struct ProtobufReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int
    /// The wire type of the field ``next()`` returned last.
    private var wireType = 0

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    /// The number of the next field, or nil at the end of the message; its value must then be read (or
    /// skipped) before the next call.
    mutating func next() throws(PBFError) -> Int? {
        guard index < bytes.endIndex else { return nil }
        let key = try varint()
        wireType = Int(key & 7)
        guard key >> 3 > 0, [0, 1, 2, 5].contains(wireType) else {
            throw PBFError("a protocol buffers field with key \(key): not a field OSM PBF can hold")
        }
        return Int(key >> 3)
    }

    /// A varint value.
    @inline(__always)
    mutating func varint() throws(PBFError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            guard shift < 64 else { break }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw PBFError("a varint runs past its message's end or past 64 bits")
    }

    /// A zigzag-encoded signed varint (`sint32`, `sint64`).
    mutating func signed() throws(PBFError) -> Int64 {
        Self.zigzag(try varint())
    }

    /// The bytes of a length-delimited field.
    mutating func bytesField() throws(PBFError) -> ArraySlice<UInt8> {
        guard wireType == 2 else { throw PBFError("a field of wire type \(wireType) where bytes were expected") }
        let length = try varint()
        guard length <= UInt64(bytes.endIndex - index) else {
            throw PBFError("a field of \(length) bytes runs past its message's end")
        }
        defer { index += Int(length) }
        return bytes[index..<index + Int(length)]
    }

    /// Skips the value of the field ``next()`` returned.
    mutating func skip() throws(PBFError) {
        switch wireType {
        case 0: _ = try varint()
        case 1: try advance(8)
        case 5: try advance(4)
        default: _ = try bytesField()
        }
    }

    /// A packed repeated varint field (or one element of an unpacked one), each element passed through
    /// `transform`, appended to `values`.
    mutating func packed<T>(
        into values: inout [T],
        _ transform: (UInt64) -> T
    ) throws(PBFError) {
        guard wireType == 2 else {
            values.append(transform(try varint()))
            return
        }
        var inner = ProtobufReader(try bytesField())
        while inner.index < inner.bytes.endIndex { values.append(transform(try inner.varint())) }
    }

    private mutating func advance(_ count: Int) throws(PBFError) {
        guard bytes.endIndex - index >= count else { throw PBFError("a fixed-size field runs past its message's end") }
        index += count
    }

    /// Zigzag decoding.
    static func zigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
}
