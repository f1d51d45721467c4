/// The two codes of a DEFLATE block: literals and lengths, and distances.
struct HuffmanTables {
    var literals: HuffmanCode
    var distances: HuffmanCode

    /// The fixed codes of block type 1 (RFC 1951, 3.2.6).
    static let fixed: HuffmanTables = {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        // Neither can fail: these are the standard's complete codes.
        let literals = try! HuffmanCode(lengths)
        let distances = try! HuffmanCode([Int](repeating: 5, count: 30))
        return HuffmanTables(literals: literals, distances: distances)
    }()

    /// The codes a dynamic block (type 2) describes at its start (RFC 1951, 3.2.7).
    static func dynamic(_ bits: inout BitReader) throws(InflateError) -> HuffmanTables {
        let literalCount = try bits.take(5) + 257
        let distanceCount = try bits.take(5) + 1
        let codeLengthCount = try bits.take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw InflateError("a dynamic block declares \(literalCount) literal and \(distanceCount) distance codes")
        }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for position in 0..<codeLengthCount { codeLengths[order[position]] = try bits.take(3) }
        let lengthCode = try HuffmanCode(codeLengths)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try lengthCode.decode(&bits)
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw InflateError("a repeat with no length before it") }
                lengths += repeatElement(previous, count: 3 + (try bits.take(2)))
            case 17:
                lengths += repeatElement(0, count: 3 + (try bits.take(3)))
            default:
                lengths += repeatElement(0, count: 11 + (try bits.take(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] > 0 else {
            throw InflateError("a dynamic block's code lengths overrun or lack the end-of-block code")
        }
        return HuffmanTables(
            literals: try HuffmanCode(Array(lengths[0..<literalCount])),
            distances: try HuffmanCode(Array(lengths[literalCount...]))
        )
    }
}

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
