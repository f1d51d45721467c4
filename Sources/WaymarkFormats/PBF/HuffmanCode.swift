/// A canonical Huffman code: a table of the first ``fastBits`` bits for the short codes, and counts per length
/// for the long ones (as zlib's puff.c decodes).
struct HuffmanCode {
    static let fastBits = 9
    /// Indexed by the next ``fastBits`` bits (first bit lowest): symbol << 4 | length, or 0 for a longer code.
    private var fast: [UInt16]
    /// How many codes of each length 0...15.
    private var counts: [Int]
    /// The symbols in canonical order.
    private var symbols: [Int]

    init(_ lengths: [Int]) throws(InflateError) {
        counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[length] += 1 }
        // An over-subscribed code is damaged data; an incomplete one is allowed (a single distance code).
        var left = 1
        for length in 1...15 {
            left = left << 1 - counts[length]
            guard left >= 0 else { throw InflateError("an over-subscribed Huffman code") }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
        fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
        var code = 0
        var index = 0
        for length in 1...15 {
            for _ in 0..<counts[length] {
                if length <= Self.fastBits {
                    // Codes are sent most significant bit first: reverse them to index by the bits as read.
                    var reversed = 0
                    for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
                    var slot = reversed
                    while slot < 1 << Self.fastBits {
                        fast[slot] = UInt16(symbols[index] << 4 | length)
                        slot += 1 << length
                    }
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
    }

    /// The next symbol from `bits`.
    @inline(__always)
    func decode(_ bits: inout BitReader) throws(InflateError) -> Int {
        let (peeked, available) = bits.peek(Self.fastBits)
        let entry = Int(fast[peeked])
        if entry != 0, entry & 15 <= available {
            bits.skip(entry & 15)
            return entry >> 4
        }
        return try slowDecode(&bits)
    }

    private func slowDecode(_ bits: inout BitReader) throws(InflateError) -> Int {
        var code = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            code |= try bits.take(1)
            let count = counts[length]
            if code - count < first { return symbols[index + (code - first)] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw InflateError("a Huffman code that the block's table does not hold")
    }
}
