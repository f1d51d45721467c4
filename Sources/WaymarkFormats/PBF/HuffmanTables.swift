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
