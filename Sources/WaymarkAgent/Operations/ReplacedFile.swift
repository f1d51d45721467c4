import WaymarkStore

#if canImport(Glibc)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the agent rewrites again and again (the status file, the metrics textfile), each time atomically: a
/// reader sees the old contents or the new, never part of either, and never no file.
///
/// The new contents go into a spare file beside it (its name and `.spare`), which then changes places with it
/// (`renameat2` with `RENAME_EXCHANGE`): the spare name now holds the old contents, and is the next write's
/// spare. The two files keep their inodes, pages and descriptors, and their directory stays open, so a rewrite
/// is a write (and a truncate when shorter) and the exchange of two names in that directory: nothing created,
/// opened, freed or looked up from `/`, which on a tmpfs was most of a rewrite's cost. A reader that opened the
/// file just before an exchange reads the old contents, which stay as they are until the next rewrite (a second
/// later at the soonest).
///
/// Where the exchange is not possible (a file system without it, the file removed by someone else), the spare is
/// renamed over the file, and the next write makes a new spare. A failed write starts again from nothing once
/// (the directory made when it is missing) before it reports the failure.
final class ReplacedFile {
    let path: String
    private let directoryPath: String
    private let name: String
    private let spareName: String
    private let mode: mode_t
    /// The open directory.
    private var directory: Int32 = -1
    /// The open spare, and its length.
    private var spare: (descriptor: Int32, length: Int) = (-1, 0)
    /// The open file at `path`, when this wrote it, and its length.
    private var current: (descriptor: Int32, length: Int) = (-1, 0)

    /// `mode` applies whatever the umask (UMask=0027 in the unit).
    init(path: String, mode: mode_t) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        directoryPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        spareName = name + ".spare"
        self.mode = mode
    }

    deinit { close() }

    /// Replaces the file's contents with `bytes`.
    func write(_ bytes: [UInt8]) throws(Files.Failure) {
        do {
            try replace(with: bytes)
        } catch {
            close()
            try replace(with: bytes)
        }
    }

    /// Closes the descriptors and removes the spare; the file stays. The next write starts again.
    func close() {
        if spare.descriptor >= 0 {
            unlinkat(directory, spareName, 0)
            closeDescriptor(spare.descriptor)
        }
        if current.descriptor >= 0 { closeDescriptor(current.descriptor) }
        if directory >= 0 { closeDescriptor(directory) }
        spare = (-1, 0)
        current = (-1, 0)
        directory = -1
    }

    private func replace(with bytes: [UInt8]) throws(Files.Failure) {
        if spare.descriptor < 0 { spare = (try openSpare(), Int.max) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                pwrite(spare.descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(offset))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Files.Failure("write", "\(directoryPath)/\(spareName)") }
            offset += written
        }
        // Only a shorter text leaves old bytes behind.
        if bytes.count < spare.length {
            guard ftruncate(spare.descriptor, off_t(bytes.count)) == 0 else {
                throw Files.Failure("truncate", "\(directoryPath)/\(spareName)")
            }
        }
        spare.length = bytes.count
        if current.descriptor >= 0 {
            if exchange() {
                swap(&spare, &current)
                return
            }
            closeDescriptor(current.descriptor)
            current = (-1, 0)
        }
        guard renameat(directory, spareName, directory, name) == 0 else {
            throw Files.Failure("rename \(directoryPath)/\(spareName) to", path)
        }
        current = spare
        spare = (-1, 0)
    }

    private func openSpare() throws(Files.Failure) -> Int32 {
        if directory < 0 {
            if Files.size(directoryPath) == nil { try Files.makeDirectory(directoryPath) }
            directory = open(directoryPath, Self.directoryFlags)
            guard directory >= 0 else { throw Files.Failure("open the directory", directoryPath) }
        }
        let descriptor = openat(directory, spareName, O_RDWR | O_CREAT | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Files.Failure("create", "\(directoryPath)/\(spareName)") }
        fchmod(descriptor, mode)
        return descriptor
    }

    private func exchange() -> Bool {
        #if canImport(Glibc)
        waymark_exchange(directory, spareName, name) == 0
        #else
        false
        #endif
    }

    private func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    #if canImport(Glibc)
    /// A descriptor for the `*at` calls only.
    private static let directoryFlags = WAYMARK_O_PATH | O_DIRECTORY | O_CLOEXEC
    #else
    private static let directoryFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
    #endif
}
