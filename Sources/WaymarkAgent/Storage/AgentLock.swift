import Glibc

/// `state_dir/waymark.lock`: held with `flock` by the one process that writes the spool there (`waymark run`,
/// `waymark replay --spool`), for as long as it runs, and holding that process's id.
///
/// The kernel releases the lock when the process ends in any way (a crash, `kill -9`, a power cut leaves no
/// lock behind), so a lock that is held always belongs to a live process. A second writer would fight the
/// first over the spool's numbering and lose its events; it is refused at start instead. Commands that only
/// read the spool take no lock.
public final class AgentLock: Sendable {
    /// The lock file's name in the state directory.
    public static let fileName = "waymark.lock"

    public let path: String
    private let descriptor: Int32

    /// Why the lock was not taken: another process holds it.
    public struct Held: Error, CustomStringConvertible, Sendable {
        /// The lock file.
        public var path: String
        /// The process holding it, as it wrote itself into the file; nil when it has not yet.
        public var holder: Int32?

        public var description: String {
            let who = holder.map { "another waymark (pid \($0))" } ?? "another waymark"
            let directory = String(path.dropLast(AgentLock.fileName.count + 1))
            return "\(who) already writes the spool in \(directory) (\(path) is locked): stop it first "
                + "(systemctl stop waymark), or give this one a state_dir of its own ([agent] state_dir in a "
                + "--config file); `waymark spool stats` and `waymark spool export` read the spool beside it, and "
                + "`waymark replay` without --spool writes nothing"
        }
    }

    /// Claims the directories of `configuration` for a process that writes the spool: checks that `state_dir`
    /// (and `log_dir` when the file sink is on) can be created and written (``UnusableDirectory/check(_:)``),
    /// then takes the lock in `state_dir`.
    ///
    /// - Throws: ``UnusableDirectory`` when a directory cannot be used or the lock cannot be taken at all (the
    ///   file cannot be created, the file system has no locks): the agent never runs without it; ``Held``
    ///   when another process holds the lock.
    public static func acquire(for configuration: Configuration) throws -> AgentLock {
        try UnusableDirectory.check(configuration)
        let stateDirectory = configuration.agent.stateDirectory
        let path = stateDirectory.hasSuffix("/") ? stateDirectory + fileName : stateDirectory + "/" + fileName
        func unusable(_ what: String) -> UnusableDirectory {
            UnusableDirectory(
                setting: "[agent] state_dir",
                path: stateDirectory,
                reason: "cannot \(what) \(path): \(String(cString: strerror(errno)))"
            )
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw unusable("open") }
        var locked = flock(descriptor, LOCK_EX | LOCK_NB)
        while locked != 0 && errno == EINTR { locked = flock(descriptor, LOCK_EX | LOCK_NB) }
        guard locked == 0 else {
            let busy = errno == EWOULDBLOCK
            let failure = unusable("lock")
            let holder = busy ? Self.holder(descriptor) : nil
            close(descriptor)
            if busy { throw Held(path: path, holder: holder) }
            throw failure
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return AgentLock(path: path, descriptor: descriptor)
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Releases the lock (closing the file does).
    deinit { close(descriptor) }

    /// The process id the holder wrote into the file.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
    }
}
