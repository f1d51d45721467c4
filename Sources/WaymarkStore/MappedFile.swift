import Glibc
import WaymarkCore

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
    /// - Throws: ``Failure`` with what failed and the system's reason.
    public init(path: String) throws(Failure) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, what: "open") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure(path: path, what: "read") }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(path: path, what: "map", reason: "not a regular file")
        }
        count = Int(status.st_size)
        guard count > 0 else {
            base = nil
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw Failure(path: path, what: "map")
        }
        base = mapped
    }

    /// Why a file cannot be mapped: what failed (`open`, `map`) and the system's reason.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var what: String
        public var reason: String

        init(path: String, what: String, reason: String = String(cString: strerror(errno))) {
            self.path = path
            self.what = what
            self.reason = reason
        }

        public var description: String { "cannot \(what) \(path): \(reason)" }
    }

    /// The file's bytes, valid while this object lives; page-aligned.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    deinit {
        if let base { munmap(base, count) }
    }
}

extension Gazetteer {
    /// Opens the gazetteer file at `path`, mapped read-only.
    ///
    /// - Throws: ``GazetteerError`` naming the file: missing or unreadable, not a gazetteer, another version,
    ///   truncated, or damaged.
    public static func open(path: String) throws(GazetteerError) -> Gazetteer {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw GazetteerError(code: .unreadable, file: path, message: "cannot \(error.what) it: \(error.reason)")
        }
        return try Gazetteer(bytes: file.bytes, owner: file, file: path)
    }
}
