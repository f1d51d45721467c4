/// Decompresses zlib streams (RFC 1950 around RFC 1951's DEFLATE): what an OSM PBF file's blobs hold.
///
/// Written here rather than linked so that `WaymarkFormats` stays free of C libraries and the builder of the
/// address file is one binary with no optional library to load. Canonical Huffman decoding with a 9-bit
/// first-level table; about 60 MB/s of output in a release build, enough for a country's extract.
public enum Inflate {
    /// The bytes `stream` (a whole zlib stream) stands for.
    ///
    /// - Parameter expectedSize: the size the container states (PBF's `raw_size`); the output must match it.
    /// - Throws: ``InflateError`` for a header, a block or a checksum that does not hold, or a size that differs.
    public static func zlib(_ stream: ArraySlice<UInt8>, expectedSize: Int) throws(InflateError) -> [UInt8] {
        guard stream.count >= 6 else { throw InflateError("a zlib stream of \(stream.count) bytes is too short") }
        let cmf = stream[stream.startIndex]
        let flags = stream[stream.startIndex + 1]
        guard cmf & 0x0F == 8, (UInt16(cmf) << 8 | UInt16(flags)) % 31 == 0, flags & 0x20 == 0 else {
            throw InflateError("not a zlib stream of DEFLATE data (header \(cmf) \(flags))")
        }
        var output: [UInt8] = []
        output.reserveCapacity(expectedSize)
        var bits = BitReader(stream[(stream.startIndex + 2)...])
        try inflate(&bits, into: &output, limit: expectedSize)
        let end = bits.alignedIndex
        guard end + 4 <= stream.endIndex else { throw InflateError("the zlib stream ends before its checksum") }
        let stored = stream[end..<end + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == adler32(output) else { throw InflateError("the zlib stream's Adler-32 does not match") }
        guard output.count == expectedSize else {
            throw InflateError("\(output.count) bytes inflated where \(expectedSize) were stated")
        }
        return output
    }

    /// The DEFLATE blocks from `bits` appended to `output`, which may not grow past `limit`.
    static func inflate(_ bits: inout BitReader, into output: inout [UInt8], limit: Int) throws(InflateError) {
        var last = false
        while !last {
            last = try bits.take(1) == 1
            switch try bits.take(2) {
            case 0: try stored(&bits, into: &output, limit: limit)
            case 1: try codes(&bits, HuffmanTables.fixed, into: &output, limit: limit)
            case 2: try codes(&bits, try HuffmanTables.dynamic(&bits), into: &output, limit: limit)
            default: throw InflateError("a DEFLATE block of the reserved type 3")
            }
        }
    }

    private static func stored(_ bits: inout BitReader, into output: inout [UInt8], limit: Int) throws(InflateError) {
        let start = bits.alignedIndex
        let bytes = bits.bytes
        guard start + 4 <= bytes.endIndex else { throw InflateError("a stored block ends in its header") }
        let length = Int(bytes[start]) | Int(bytes[start + 1]) << 8
        let complement = Int(bytes[start + 2]) | Int(bytes[start + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw InflateError("a stored block's length is damaged") }
        guard start + 4 + length <= bytes.endIndex else { throw InflateError("a stored block is cut short") }
        guard output.count + length <= limit else { throw InflateError("more bytes than the \(limit) stated") }
        output += bytes[(start + 4)..<(start + 4 + length)]
        bits = BitReader(bytes[(start + 4 + length)...])
    }

    private static func codes(
        _ bits: inout BitReader,
        _ tables: HuffmanTables,
        into output: inout [UInt8],
        limit: Int
    ) throws(InflateError) {
        while true {
            let symbol = try tables.literals.decode(&bits)
            if symbol < 256 {
                guard output.count < limit else { throw InflateError("more bytes than the \(limit) stated") }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < 29 else { throw InflateError("the length code \(symbol) does not exist") }
            let length = lengthBase[lengthIndex] + (try bits.take(lengthExtra[lengthIndex]))
            let distanceIndex = try tables.distances.decode(&bits)
            guard distanceIndex < 30 else { throw InflateError("the distance code \(distanceIndex) does not exist") }
            let distance = distanceBase[distanceIndex] + (try bits.take(distanceExtra[distanceIndex]))
            guard distance <= output.count else { throw InflateError("a distance reaches before the output's start") }
            guard output.count + length <= limit else { throw InflateError("more bytes than the \(limit) stated") }
            var from = output.count - distance
            for _ in 0..<length {
                output.append(output[from])
                from += 1
            }
        }
    }

    /// Adler-32 of `bytes` (RFC 1950).
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 bytes is the most that cannot overflow before the modulo (RFC 1950's NMAX).
            let end = min(index + 5552, bytes.count)
            while index < end {
                a += UInt32(bytes[index])
                b += a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
}
