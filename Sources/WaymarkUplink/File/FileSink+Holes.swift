import WaymarkSystem

extension FileSink {
    /// Cuts the file at `path` off at the start of the first line after `committed` that holds a zero byte, and
    /// returns a sentence instead, cutting nothing, when a zero lies in a line at or before it.
    ///
    /// A power cut that kept a later part of an append and lost an earlier one leaves a hole that reads as zeros,
    /// with whole-looking lines after it: none of them was synced, and the last of them would pass for the last
    /// line written, so the lines in the hole would never be written again. A line of the logs never holds a zero
    /// byte. The lines after `committed` (the sink's cursor in the spool) are all looked at, however many a
    /// delivery appended: the spool hands them again, so they can be cut. A line at or before it is never cut:
    /// the spool may have dropped it since, and a zero there is older damage (an SD card's), not a cut's.
    ///
    /// - Returns: nil, or what is wrong with a line that was left as it is.
    static func cutAtHole(_ path: String, after committed: UInt64) throws(SystemError) -> String? {
        guard let size = Files.size(path), size > 0 else { return nil }
        let newline = UInt8(ascii: "\n")
        var window = 4096
        while true {
            let tail = try Files.tail(path, count: window)
            let wholeFile = Int64(tail.count) == size
            // Lines from the end back: the first is whole only if the window holds the start of the file.
            var firstZero: Int?
            var end = tail.endIndex
            var reachedCommitted = false
            while end > tail.startIndex {
                let newlineBefore = tail[..<end].dropLast().lastIndex(of: newline)
                guard newlineBefore != nil || wholeFile else { break }
                let start = newlineBefore.map { $0 + 1 } ?? tail.startIndex
                let line = tail[start..<end]
                if let zero = line.firstIndex(of: 0) {
                    let seq = Self.seq(in: line[..<zero])
                    if seq > 0 && seq <= committed {
                        return "\(path): zero bytes at byte \(Int64(zero) + size - Int64(tail.count)), in the line of "
                            + "seq \(seq), which the spool counts as delivered (up to \(committed)); the file is "
                            + "left as it is: check the storage for damage"
                    }
                    firstZero = start
                } else if Self.seq(in: line) <= committed {
                    reachedCommitted = true
                    break
                }
                end = start
            }
            guard reachedCommitted || wholeFile else {
                window *= 4
                continue
            }
            if let firstZero { try Files.truncate(path, to: size - Int64(tail.count - firstZero)) }
            return nil
        }
    }
}
