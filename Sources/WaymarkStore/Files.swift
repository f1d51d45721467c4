import Glibc

/// The file system calls the spool and the sinks make, with POSIX calls (no Foundation in the agent).
public enum Files {
    /// Why a file operation failed: what, on which path, and the system's reason.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String

        public init(description: String) { self.description = description }

        public init(_ what: String, _ path: String) {
            description = "cannot \(what) \(path): \(String(cString: strerror(errno)))"
        }
    }

    /// Creates `directory` and its parents as needed.
    public static func makeDirectory(_ directory: String) throws(Failure) {
        var partial = ""
        for part in directory.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, 0o755) != 0 && errno != EEXIST { throw Failure("create", partial) }
        }
    }

    /// The names in `directory` (not `.` and `..`); empty when it does not exist.
    public static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The size of the file at `path`, or nil when there is none.
    public static func size(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// Removes the file at `path`; true when it was removed.
    @discardableResult
    public static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// Opens `path` for appending, creating it.
    public static func openForAppending(_ path: String) throws(Failure) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure("open", path) }
        return descriptor
    }

    /// Writes all of `bytes` to `descriptor`, retrying after EINTR.
    public static func write(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Failure("write", path) }
            offset += written
        }
    }

    /// Makes what was written to `descriptor` durable.
    public static func sync(_ descriptor: Int32, path: String) throws(Failure) {
        guard fsync(descriptor) == 0 else { throw Failure("sync", path) }
    }

    /// The whole file at `path`, read until its end (also the files of `/proc`, whose size says 0).
    public static func contents(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure("open", path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw Failure("read", path)
            }
        }
    }

    /// The last `count` bytes of the file at `path` (fewer when it is shorter); empty when there is no file.
    public static func tail(_ path: String, count: Int) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return [] }
            throw Failure("open", path)
        }
        defer { close(descriptor) }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else { throw Failure("seek in", path) }
        let start = max(0, end - off_t(count))
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        var offset = 0
        while offset < bytes.count {
            let read = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + offset, $0.count - offset, start + off_t(offset))
            }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { throw Failure("read", path) }
            offset += read
        }
        return bytes
    }

    /// Cuts the file at `path` to `length` bytes.
    public static func truncate(_ path: String, to length: Int64) throws(Failure) {
        guard Glibc.truncate(path, off_t(length)) == 0 else { throw Failure("truncate", path) }
    }

    /// Replaces a file's contents so that a power cut leaves either the old file or the new one, never a
    /// part: write a temporary file beside it, fsync it, rename it over the old one, fsync the directory.
    ///
    /// - Parameter syncing: false for a file that means nothing after a power cut (a process id): the
    ///   rename alone keeps readers from seeing a part of it while the system runs, without the two syncs.
    public static func replace(_ path: String, with bytes: [UInt8], syncing: Bool = true) throws(Failure) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure("create", temporary) }
        do {
            defer { close(descriptor) }
            try write(bytes, to: descriptor, path: temporary)
            if syncing { try sync(descriptor, path: temporary) }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = Failure("rename \(temporary) to", path)
            unlink(temporary)
            throw failure
        }
        if syncing { syncDirectory(of: path) }
    }

    /// Makes a file's creation, rename or removal in its directory durable.
    public static func syncDirectory(of path: String) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let descriptor = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
