import Glibc

extension Files {
    /// Opens `path` for appending, creating it.
    public static func openForAppending(_ path: String) throws(SystemError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemError(call: "open", path: path) }
        return descriptor
    }

    /// Writes all of `bytes` to `descriptor`, retrying after EINTR; `path` names it in the error.
    public static func write(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(SystemError) {
        let written = bytes.withUnsafeBytes { FileDescriptorOutput.writeAll($0, to: descriptor) }
        guard written else { throw SystemError(call: "write", path: path) }
    }

    /// Makes what was written to `descriptor` durable.
    public static func sync(_ descriptor: Int32, path: String) throws(SystemError) {
        guard fsync(descriptor) == 0 else { throw SystemError(call: "sync", path: path) }
    }
}
