import Glibc

/// Which file a path names now, and which version of it: replaced (a new inode), rewritten in place or touched
/// (size, modification time). What decides whether a mapped file must be opened again.
public struct FileVersion: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
    }

    /// The version of the file at `path` (following links), or nil when there is none to read.
    public static func of(_ path: String) -> FileVersion? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return .init(
            device: UInt64(status.st_dev),
            inode: UInt64(status.st_ino),
            size: Int64(status.st_size),
            modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        )
    }
}
