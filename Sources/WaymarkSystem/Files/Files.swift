import Glibc

/// The file system calls the agent makes, with POSIX calls (no Foundation in the agent): directories, sizes and
/// removal here; reading (``contents(_:)``, ``tail(_:count:)``) and writing (``write(_:to:path:)``) beside it.
/// A failure is a ``SystemError`` that names the file.
public enum Files {
    /// Creates `directory` and its parents as needed.
    public static func makeDirectory(_ directory: String) throws(SystemError) {
        var partial = ""
        for part in directory.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, 0o755) != 0 && errno != EEXIST { throw SystemError(call: "create", path: partial) }
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

    /// Cuts the file at `path` to `length` bytes.
    public static func truncate(_ path: String, to length: Int64) throws(SystemError) {
        guard Glibc.truncate(path, off_t(length)) == 0 else { throw SystemError(call: "truncate", path: path) }
    }

    /// Makes a file's creation, rename or removal in its directory durable.
    public static func syncDirectory(of path: String) {
        let descriptor = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The directory that holds `path`: "." for a name without a slash, "/" for one at the root.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
