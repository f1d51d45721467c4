import Glibc
import WaymarkSystem

/// `state_dir/waymark.pid`: how `waymark defer` finds the running agent.
public struct PIDFile: Sendable {
    public let path: String

    public init(stateDirectory: String) {
        path = stateDirectory.hasSuffix("/") ? stateDirectory + "waymark.pid" : stateDirectory + "/waymark.pid"
    }

    /// Writes this process's id. Not synced: an id names a process of this boot only, so after a power cut the
    /// file is stale whatever it holds, and ``signal(_:)`` checks that its process is a waymark.
    func write() throws(SystemError) {
        try Files.makeDirectory(String(path.dropLast("/waymark.pid".count)))
        try AtomicFile.write(Array("\(getpid())\n".utf8), to: path, syncing: false)
    }

    func remove() {
        guard read() == getpid() else { return }
        Files.remove(path)
    }

    /// The process id in the file; nil when there is none or it holds no number.
    public func read() -> Int32? {
        guard let bytes = try? Files.tail(path, count: 32), !bytes.isEmpty else { return nil }
        return Int32(String(decoding: bytes, as: UTF8.self).trimmingTrailingNewline)
    }

    /// Sends `signal` to the agent of the file.
    ///
    /// - Throws: ``NoRunningAgent``, a sentence for the operator, when there is no running agent to signal.
    public func signal(_ signal: Int32) throws(NoRunningAgent) {
        guard let pid = read() else {
            throw NoRunningAgent(description: "no running agent: \(path) does not exist or holds no process id")
        }
        // A file a crash left behind may name a process id that another program has now.
        if let commandLine = try? Files.contents("/proc/\(pid)/cmdline"), !Self.isWaymark(commandLine) {
            throw NoRunningAgent(
                description: "no running agent: process \(pid) of \(path) is not waymark (a stale file)"
            )
        }
        guard kill(pid, signal) == 0 else {
            let reason = SystemError.reason(errno)
            throw NoRunningAgent(
                description: "no running agent: process \(pid) of \(path) cannot be signalled (\(reason))"
            )
        }
    }

    /// Why ``signal(_:)`` found no agent to signal: `no running agent: /run/waymark/waymark.pid does not exist…`.
    public struct NoRunningAgent: Error, CustomStringConvertible, Sendable {
        public var description: String
    }
}

extension PIDFile {
    /// Whether a `/proc/PID/cmdline` is a `waymark` program's.
    static func isWaymark(_ commandLine: [UInt8]) -> Bool {
        let program = commandLine.split(separator: 0).first ?? []
        let name = program.split(separator: UInt8(ascii: "/")).last ?? program
        return name.starts(with: "waymark".utf8)
    }
}

extension String {
    /// The text without the line breaks that end it (a small file of one line).
    var trimmingTrailingNewline: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
