import Glibc

/// Writing to a file descriptor without Foundation: stdout for `--print`, stderr for the command line, and the
/// files of ``Files`` and ``AtomicFile``.
public enum FileDescriptorOutput {
    /// Writes all of `bytes` to `descriptor`, retrying after EINTR; false when a write failed or wrote
    /// nothing (a closed pipe: the caller decides whether that matters), `errno` then saying why.
    @discardableResult
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.retryingInterrupts { write(descriptor, base + offset, bytes.count - offset) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Writes `text` as UTF-8 to `descriptor`.
    @discardableResult
    public static func writeAll(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }
}
