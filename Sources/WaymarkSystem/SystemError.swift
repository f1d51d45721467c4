import Glibc

/// A system call that failed: what was called, on which file, and the system's reason (`errno`).
///
/// Its description is the sentence the agent logs and the command line prints:
/// `cannot open /etc/waymark/regions.geojson: No such file or directory`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was called, in the words of the message: `open`, `create`, `sync`, `rename /a.tmp to`.
    public var call: String
    /// The file the call was made on; nil when the message names it elsewhere or there is none.
    public var path: String?
    /// The system's error number.
    public var errno: Int32
    /// The system's reason (`strerror`): `No such file or directory`.
    public var reason: String

    /// A failure of `call` on `path` with `errno` (by default the calling thread's current one).
    public init(call: String, path: String? = nil, errno: Int32 = Glibc.errno) {
        self.init(call: call, path: path, errno: errno, reason: Self.reason(errno))
    }

    /// A failure whose reason is more precise than the system's words for `errno` (a check before the call:
    /// `not a regular file`).
    public init(call: String, path: String?, errno: Int32, reason: String) {
        self.call = call
        self.path = path
        self.errno = errno
        self.reason = reason
    }

    /// `cannot open /x/y: No such file or directory`; `cannot open: No such file or directory` without a path.
    public var description: String {
        guard let path else { return "cannot \(call): \(reason)" }
        return "cannot \(call) \(path): \(reason)"
    }

    /// The same failure without its path, for a message that names the file first (`x.gpx: cannot open: …`).
    public var withoutPath: SystemError {
        SystemError(call: call, path: nil, errno: errno, reason: reason)
    }

    /// The system's words for `errno` (`strerror`), or `error N` for a number it does not know.
    public static func reason(_ errno: Int32) -> String {
        guard let text = strerror(errno) else { return "error \(errno)" }
        return String(cString: text)
    }
}
