import Glibc

/// A file mapped read-only (`mmap`, `PROT_READ`, `MAP_PRIVATE`): its pages are the page cache's, file-backed,
/// so they never count as the process's anonymous memory and the kernel can drop them under pressure.
///
/// Unmapped when the last reference goes. Immutable; safe to share between threads.
public final class MappedFile: Sendable {
    /// The file's path, for messages.
    public let path: String
    nonisolated(unsafe) private let base: UnsafeMutableRawPointer?
    /// The number of bytes mapped: the file's size when it was opened.
    public let count: Int

    /// Maps the whole of `path`.
    ///
    /// - Throws: ``SystemError`` with what failed (`open`, `map`) and the system's reason.
    public init(path: String) throws(SystemError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(call: "open", path: path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemError(call: "read", path: path) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw SystemError(call: "map", path: path, errno: ENODEV, reason: "not a regular file")
        }
        count = Int(status.st_size)
        guard count > 0 else {
            base = nil
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw SystemError(call: "map", path: path)
        }
        base = mapped
    }

    /// The file's bytes, valid while this object lives; page-aligned.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    deinit {
        if let base { munmap(base, count) }
    }
}
