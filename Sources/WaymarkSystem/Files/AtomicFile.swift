import Glibc

/// Replaces a file's contents so that a power cut leaves either the old file or the new one, never a part:
/// write a temporary file beside it (its name and `.tmp`), fsync it, rename it over the old one, fsync the
/// directory. For a file rewritten again and again, ``ReplacedFile`` does the same with less.
public enum AtomicFile {
    /// Replaces the contents of the file at `path` with `bytes`.
    ///
    /// - Parameter syncing: false for a file that means nothing after a power cut (a process id): the
    ///   rename alone keeps readers from seeing a part of it while the system runs, without the two syncs.
    /// - Throws: ``SystemError`` naming the temporary file or the rename; the temporary file is removed.
    public static func write(_ bytes: [UInt8], to path: String, syncing: Bool = true) throws(SystemError) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemError(call: "create", path: temporary) }
        do {
            defer { close(descriptor) }
            try Files.write(bytes, to: descriptor, path: temporary)
            if syncing { try Files.sync(descriptor, path: temporary) }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = SystemError(call: "rename \(temporary) to", path: path)
            unlink(temporary)
            throw failure
        }
        if syncing { Files.syncDirectory(of: path) }
    }
}
