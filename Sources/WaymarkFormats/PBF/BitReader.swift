/// DEFLATE's bits, least significant first, from a slice of bytes.
struct BitReader {
    let bytes: ArraySlice<UInt8>
    private var index: Int
    private var buffer: UInt64 = 0
    private var count = 0

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    /// The index of the first byte not yet consumed, dropping the bits left in the current byte (before a
    /// stored block, and at the end of the stream).
    var alignedIndex: Int { index - count / 8 }

    /// Makes at least `needed` (≤ 56) bits available if the input has them.
    @inline(__always)
    private mutating func fill(_ needed: Int) {
        while count < needed && index < bytes.endIndex {
            buffer |= UInt64(bytes[index]) << UInt64(count)
            index += 1
            count += 8
        }
    }

    /// The next `n` (≤ 24) bits as a number.
    @inline(__always)
    mutating func take(_ n: Int) throws(InflateError) -> Int {
        guard n > 0 else { return 0 }
        fill(n)
        guard count >= n else { throw InflateError("the DEFLATE data ends in the middle of a block") }
        let value = Int(buffer & ((1 << UInt64(n)) - 1))
        buffer >>= UInt64(n)
        count -= n
        return value
    }

    /// Up to `n` bits without consuming them (zeros past the end), and how many are real.
    @inline(__always)
    mutating func peek(_ n: Int) -> (value: Int, available: Int) {
        fill(n)
        return (Int(buffer & ((1 << UInt64(n)) - 1)), count)
    }

    /// Consumes `n` bits that ``peek(_:)`` showed to be there.
    @inline(__always)
    mutating func skip(_ n: Int) {
        buffer >>= UInt64(n)
        count -= n
    }
}
