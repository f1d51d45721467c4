import Glibc

extension Files {
    /// The whole file at `path`, read until its end (also the files of `/proc`, whose size says 0, and
    /// `/dev/stdin`).
    ///
    /// - Throws: ``SystemError`` naming `path`: `cannot open /x/y: No such file or directory`.
    public static func contents(_ path: String) throws(SystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(call: "open", path: path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = SystemCall.retryingInterrupts {
                chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            guard count >= 0 else { throw SystemError(call: "read", path: path) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// The last `count` bytes of the file at `path` (fewer when it is shorter); empty when there is no file.
    public static func tail(_ path: String, count: Int) throws(SystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return [] }
            throw SystemError(call: "open", path: path)
        }
        defer { close(descriptor) }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else { throw SystemError(call: "seek in", path: path) }
        let start = max(0, end - off_t(count))
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        var offset = 0
        while offset < bytes.count {
            let read = SystemCall.retryingInterrupts {
                bytes.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress! + offset, $0.count - offset, start + off_t(offset))
                }
            }
            guard read > 0 else { throw SystemError(call: "read", path: path) }
            offset += read
        }
        return bytes
    }
}
