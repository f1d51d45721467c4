import CLinux
import Glibc

/// A file the agent rewrites again and again (the status file, the metrics textfile), each time atomically: a
/// reader that opens it gets the old contents or the new, never part of either, and never no file.
///
/// The new contents go into a spare file beside it (its name and `.spare`), which then changes places with it
/// (`renameat2` with `RENAME_EXCHANGE`): the spare name now holds the old contents, and is the next write's
/// spare. The two files keep their inodes, pages and descriptors, and their directory stays open, so a rewrite
/// is a write (and a truncate when shorter) and the exchange of two names in that directory: nothing created,
/// opened, freed or looked up from `/`, which on a tmpfs was most of a rewrite's cost. A reader that opened the
/// file before an exchange reads the old contents, which stay as they are until the write after it (a status
/// file comes at most once a second, or when `waymark status` asks; the metrics once an interval).
///
/// Only this writer touches its two files: both are locked (`flock`), and before each write the spare name is
/// checked to still hold its spare. A second process writing the same path (two agents sharing a runtime
/// directory) finds the spare locked and writes a temporary file of its own, renamed over the file, each time;
/// a file replaced by someone else (`mv`, an editor) is noticed at the next write, which starts again. Where
/// the exchange is not possible (a file system without it), the spare is renamed over the file instead. A
/// failed write starts again from nothing once (the directory made when it is missing) before it reports.
public final class ReplacedFile {
    /// The file rewritten.
    public let path: String
    private let directoryPath: String
    private let name: String
    private let spareName: String
    private let mode: mode_t
    /// The open directory.
    private var directory: Int32 = -1
    /// The open spare, at `spareName`.
    private var spare: Handle?
    /// The open file at `name`, when this wrote it.
    private var current: Handle?
    /// Another process holds the spare: each write is a temporary file of this process, renamed.
    private var sharing = false

    /// An open file of the two: its descriptor, its length, and which file it is.
    private struct Handle {
        var descriptor: Int32
        var length: Int
        var device: UInt64
        var inode: UInt64
    }

    /// `mode` applies whatever the umask (UMask=0027 in the unit).
    public init(path: String, mode: mode_t) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        directoryPath = Files.directory(of: path)
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        spareName = name + ".spare"
        self.mode = mode
    }

    deinit { close() }

    /// Replaces the file's contents with `bytes`.
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        do {
            try replace(with: bytes)
        } catch {
            close()
            try replace(with: bytes)
        }
    }

    /// Closes the descriptors and removes the spare; the file stays. The next write starts again.
    public func close() {
        if let spare, holds(spareName, spare) { unlinkat(directory, spareName, 0) }
        closeHandles()
        if directory >= 0 { closeDescriptor(directory) }
        directory = -1
        sharing = false
    }

    private func replace(with bytes: [UInt8]) throws(SystemError) {
        try openDirectory()
        if !sharing, spare.map({ !holds(spareName, $0) }) ?? true {
            // First, after a rename, or someone else moved the names: from the spare name as it is now.
            if spare != nil { closeHandles() }
            spare = try openSpare()
            sharing = spare == nil
        }
        guard var written = spare else { return try replaceThroughTemporaryFile(with: bytes) }
        try overwrite(&written, with: bytes)
        if let current {
            if exchange() {
                spare = current
                self.current = written
                return
            }
            closeDescriptor(current.descriptor)
            self.current = nil
        }
        guard renameat(directory, spareName, directory, name) == 0 else {
            throw SystemError(call: "rename \(directoryPath)/\(spareName) to", path: path)
        }
        current = written
        spare = nil
    }

    private func overwrite(_ file: inout Handle, with bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.retryingInterrupts {
                bytes.withUnsafeBytes {
                    pwrite(file.descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(offset))
                }
            }
            guard written > 0 else { throw SystemError(call: "write", path: "\(directoryPath)/\(spareName)") }
            offset += written
        }
        // Only a shorter text leaves old bytes behind.
        if bytes.count < file.length {
            guard ftruncate(file.descriptor, off_t(bytes.count)) == 0 else {
                throw SystemError(call: "truncate", path: "\(directoryPath)/\(spareName)")
            }
        }
        file.length = bytes.count
    }

    /// Another writer's path: a file of this process, written whole and renamed over the file.
    private func replaceThroughTemporaryFile(with bytes: [UInt8]) throws(SystemError) {
        let temporary = "\(name).\(getpid()).tmp"
        let descriptor = openat(directory, temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw SystemError(call: "create", path: "\(directoryPath)/\(temporary)") }
        do {
            defer { closeDescriptor(descriptor) }
            fchmod(descriptor, mode)
            try Files.write(bytes, to: descriptor, path: "\(directoryPath)/\(temporary)")
        } catch {
            unlinkat(directory, temporary, 0)
            throw error
        }
        guard renameat(directory, temporary, directory, name) == 0 else {
            let failure = SystemError(call: "rename \(directoryPath)/\(temporary) to", path: path)
            unlinkat(directory, temporary, 0)
            throw failure
        }
    }

    private func openDirectory() throws(SystemError) {
        guard directory < 0 else { return }
        if Files.size(directoryPath) == nil { try Files.makeDirectory(directoryPath) }
        directory = open(directoryPath, Self.directoryFlags)
        guard directory >= 0 else { throw SystemError(call: "open the directory", path: directoryPath) }
    }

    /// The spare, opened and locked; nil when another process holds it.
    private func openSpare() throws(SystemError) -> Handle? {
        let descriptor = openat(directory, spareName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw SystemError(call: "create", path: "\(directoryPath)/\(spareName)") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = SystemError(call: "lock", path: "\(directoryPath)/\(spareName)")
            closeDescriptor(descriptor)
            if failure.errno == EWOULDBLOCK { return nil }
            throw failure
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            closeDescriptor(descriptor)
            throw SystemError(call: "read the status of", path: "\(directoryPath)/\(spareName)")
        }
        fchmod(descriptor, mode)
        return Handle(
            descriptor: descriptor,
            length: Int(status.st_size),
            device: UInt64(status.st_dev),
            inode: UInt64(status.st_ino)
        )
    }

    /// Whether `name` in the directory is `file`.
    private func holds(_ name: String, _ file: Handle) -> Bool {
        var status = stat()
        return fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && UInt64(status.st_dev) == file.device
            && UInt64(status.st_ino) == file.inode
    }

    private func closeHandles() {
        if let spare { closeDescriptor(spare.descriptor) }
        if let current { closeDescriptor(current.descriptor) }
        spare = nil
        current = nil
    }

    private func exchange() -> Bool {
        waymark_exchange(directory, spareName, name) == 0
    }

    private func closeDescriptor(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// A descriptor for the `*at` calls only.
    private static let directoryFlags = WAYMARK_O_PATH | O_DIRECTORY | O_CLOEXEC
}
