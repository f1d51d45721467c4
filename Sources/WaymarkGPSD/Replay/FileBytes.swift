import Glibc

/// Whole-file reads with POSIX calls (no Foundation in the agent's binary).
public enum FileBytes {
    /// Why a file could not be read: `cannot open: No such file or directory`.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String

        public var description: String { message }
    }

    public static func read(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(message: "cannot open: \(errorText())") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw Failure(message: "cannot read: \(errorText())")
            }
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
