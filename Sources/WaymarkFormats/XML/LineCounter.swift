/// The line numbers of byte offsets, counted on demand.
///
/// Counting moves a cursor from the offset asked about last, so asking in document order costs one pass over the
/// bytes in all. A line ends at LF, CR LF or a lone CR.
struct LineCounter {
    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The 1-based line of the byte at `target` (clamped to the bytes).
    mutating func line(at target: Int) -> Int {
        let target = min(max(target, 0), bytes.count)
        if target >= offset {
            line += lineBreaks(in: offset..<target)
        } else {
            line -= lineBreaks(in: target..<offset)
        }
        offset = target
        return line
    }

    private func lineBreaks(in range: Range<Int>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var count = 0
            for index in range {
                switch buffer[index] {
                case UInt8(ascii: "\n"):
                    count += 1
                case UInt8(ascii: "\r") where index + 1 == buffer.count || buffer[index + 1] != UInt8(ascii: "\n"):
                    count += 1
                default:
                    break
                }
            }
            return count
        }
    }
}
