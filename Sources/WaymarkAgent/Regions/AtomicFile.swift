import Glibc

/// Replaces a file's contents so that a power cut leaves either the old file or the new one, never a part:
/// write a temporary file beside it, fsync it, rename it over the old one, fsync the directory.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot create \(temporary): \(errorText())") }
        let written = bytes.withUnsafeBytes { FileDescriptorOutput.writeAll($0, to: descriptor) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written, synced else {
            let reason = errorText()
            unlink(temporary)
            throw Failure(description: "cannot write \(temporary): \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw Failure(description: "cannot rename \(temporary) to \(path): \(reason)")
        }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let directoryDescriptor = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
