import WaymarkSystem

extension FileSink {
    /// Cuts the file at `path` off at the start of the first line that holds a zero byte, again until none is
    /// left in its tail.
    ///
    /// A power cut that kept a later part of an append and lost an earlier one leaves a hole that reads as zeros,
    /// with whole-looking lines after it: none of them was synced, and the last of them would pass for the last
    /// line written, so the lines in the hole would never be written again. A line of the logs never holds a zero
    /// byte. Reads the last 4 KB, more while the zeros reach back to the start of what was read.
    static func cutAtHole(_ path: String) throws(SystemError) {
        let newline = UInt8(ascii: "\n")
        var window = 4096
        while let size = Files.size(path), size > 0 {
            let tail = try Files.tail(path, count: window)
            guard let zero = tail.firstIndex(of: 0) else { return }
            let lineStart = tail[..<zero].lastIndex(of: newline).map { $0 + 1 } ?? tail.startIndex
            if lineStart == tail.startIndex && Int64(tail.count) < size {
                window *= 4
                continue
            }
            try Files.truncate(path, to: size - Int64(tail.count - lineStart))
        }
    }
}
