import Glibc
import WaymarkSystem

/// `waymark.lock`, held with `flock` by the one process that writes the spool in `state_dir` (`waymark run`,
/// `waymark replay --spool`), and by the one agent that writes the status file in `runtime_dir` (`waymark run`),
/// for as long as it runs, and holding that process's id (and, in `runtime_dir`, the `state_dir` it belongs to).
///
/// The kernel releases the lock when the process ends in any way (a crash, `kill -9`, a power cut leaves no
/// lock behind), so a lock that is held always belongs to a live process. A second writer would fight the
/// first over the spool's numbering and lose its events, or over the status file, where `waymark status` would
/// describe the other agent; it is refused at start instead. Commands that only read the spool take no lock.
public final class AgentLock: Sendable {
    /// The lock file's name in the state and the runtime directory.
    public static let fileName = "waymark.lock"

    public let path: String
    private let descriptor: Int32
    /// Why this process's id could not be written into a lock it holds (a lock file another user owns, left by
    /// an agent run as root): nil when it was. The lock still holds; what the file says is stale.
    public let unwritten: String?

    /// Why the lock was not taken: another process holds it.
    public struct Held: Error, CustomStringConvertible, Sendable {
        /// The lock file.
        public var path: String
        /// The process holding it, as it wrote itself into the file; nil when it has not yet.
        public var holder: Int32?
        /// For the lock of `runtime_dir`: the `state_dir` of the agent holding it (nil when it did not say);
        /// nil too for the lock of `state_dir`.
        public var holderState: String?
        /// Whether it is the lock of `runtime_dir` (else `state_dir`'s).
        public var isRuntime = false

        public var description: String {
            let directory = String(path.dropLast(AgentLock.fileName.count + 1))
            guard isRuntime else {
                let who = holder.map { "another waymark (pid \($0))" } ?? "another waymark"
                return "\(who) already writes the spool in \(directory) (\(path) is locked): stop it first "
                    + "(systemctl stop waymark), or give this one a state_dir and a runtime_dir of its own ([agent] "
                    + "state_dir and runtime_dir in a --config file); `waymark spool stats` and `waymark spool "
                    + "export` read the spool beside it, and `waymark replay` without --spool writes nothing"
            }
            let about = [holder.map { "pid \($0)" }, holderState.map { "state_dir \($0)" }].compactMap { $0 }
            let who = "another waymark" + (about.isEmpty ? "" : " (\(about.joined(separator: ", ")))")
            return "\(who) already writes its status in \(directory) (\(path) is locked): give this one a "
                + "runtime_dir of its own ([agent] runtime_dir in a --config file), or stop the other first; "
                + "`waymark status` with this configuration would describe the other agent"
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
        let path = file(in: stateDirectory)
        switch take(path, writing: "\(getpid())\n", readOnly: false) {
        case .success(let taken): return AgentLock(path: path, descriptor: taken.descriptor, unwritten: taken.unwritten)
        case .failure(.held(let holder, _)): throw Held(path: path, holder: holder)
        case .failure(.unusable(let reason)):
            throw UnusableDirectory(setting: "[agent] state_dir", path: stateDirectory, reason: reason)
        }
    }

    /// Claims `runtime_dir` for the agent of `configuration` (`waymark run`), after ``acquire(for:)``: takes the
    /// lock there, and writes this process's id and `state_dir` into it, so that two agents never write one
    /// status file.
    ///
    /// - Returns: the lock; or, when the lock file cannot be made or locked and no other agent is seen to hold
    ///   it, why: the agent goes on tracking without it (a status file that cannot be written is reported as it
    ///   is written).
    /// - Throws: ``Held`` when another process holds the lock.
    public static func acquireRuntime(
        _ configuration: Configuration
    ) throws(Held) -> Result<AgentLock, UnusableDirectory> {
        let directory = configuration.agent.runtimeDirectory
        let path = file(in: directory)
        // Best effort: a directory that cannot be made is reported by the status file's writer.
        if access(directory, F_OK) != 0 { try? Files.makeDirectory(directory) }
        let contents = "\(getpid())\n\(canonicalPath(configuration.agent.stateDirectory))\n"
        switch take(path, writing: contents, readOnly: true) {
        case .success(let taken):
            return .success(AgentLock(path: path, descriptor: taken.descriptor, unwritten: taken.unwritten))
        case .failure(.held(let holder, let state)):
            throw Held(path: path, holder: holder, holderState: state, isRuntime: true)
        case .failure(.unusable(let reason)):
            return .failure(UnusableDirectory(setting: "[agent] runtime_dir", path: directory, reason: reason))
        }
    }

    /// The process id and the state directory written in the lock file of `directory`; nil when it cannot be
    /// read or names no process. Whether the lock is still held is not checked.
    static func written(in directory: String) -> (pid: Int32, state: String?)? {
        let descriptor = open(file(in: directory), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let contents = contents(descriptor)
        return contents.pid.map { ($0, contents.state) }
    }

    /// `path` with its symbolic links, `.` and `..` resolved, as the lock and the status file name a state
    /// directory; `path` itself when it cannot be resolved.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private init(path: String, descriptor: Int32, unwritten: String?) {
        self.path = path
        self.descriptor = descriptor
        self.unwritten = unwritten
    }

    /// Releases the lock (closing the file does).
    deinit { close(descriptor) }

    private static func file(in directory: String) -> String {
        directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
    }

    private enum Refusal: Error {
        /// Another process holds the lock; what it wrote into the file.
        case held(Int32?, String?)
        /// The file cannot be made, opened for writing or locked: why.
        case unusable(String)
    }

    /// Locks `path` and writes `contents` into it. A file that this process may only read is still locked to
    /// see whether another holds it, so that the refusal names the other rather than a permission; with
    /// `readOnly`, such a lock is kept, its contents left unwritten (and why said), rather than given up.
    private static func take(
        _ path: String,
        writing contents: String,
        readOnly: Bool
    ) -> Result<(descriptor: Int32, unwritten: String?), Refusal> {
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        let writable = descriptor >= 0
        let openFailure = writable ? 0 : errno
        if openFailure == EACCES { descriptor = open(path, O_RDONLY | O_CLOEXEC) }
        func unusable(_ what: String, _ code: Int32) -> Result<(descriptor: Int32, unwritten: String?), Refusal> {
            .failure(.unusable(SystemError(call: what, path: path, errno: code).description))
        }
        guard descriptor >= 0 else { return unusable("open", openFailure) }
        guard SystemCall.retryingInterrupts({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 else {
            let code = errno
            let holder = self.contents(descriptor)
            close(descriptor)
            return code == EWOULDBLOCK ? .failure(.held(holder.pid, holder.state)) : unusable("lock", code)
        }
        guard writable else {
            guard readOnly else {
                close(descriptor)
                return unusable("open", openFailure)
            }
            return .success((descriptor, SystemError(call: "write", path: path, errno: openFailure).description))
        }
        let bytes = Array(contents.utf8)
        _ = ftruncate(descriptor, 0)
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return .success((descriptor, nil))
    }

    /// The process id and the state directory the holder wrote into the file.
    private static func contents(_ descriptor: Int32) -> (pid: Int32?, state: String?) {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return (nil, nil) }
        let lines = bytes[..<count].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let pid = lines.first.flatMap { Int32(String(decoding: $0, as: UTF8.self)) }
        let state = lines.count > 2 ? String(decoding: lines[1], as: UTF8.self) : nil
        return (pid, state.flatMap { $0.isEmpty ? nil : $0 })
    }
}
