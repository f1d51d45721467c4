import Glibc
import WaymarkSystem

/// A process as `waymark status` recognizes it: its id, and when it started (clock ticks since boot, field 22 of
/// `/proc/PID/stat`), so that a process id taken again by another program after the agent died is not the agent.
public struct ProcessIdentity: Hashable, Sendable {
    public var pid: Int32
    public var startTicks: UInt64?

    public static var current: ProcessIdentity {
        let pid = getpid()
        return ProcessIdentity(pid: pid, startTicks: startTicks(of: pid))
    }

    /// Whether this process still runs: the id is in use, by a process that started when this one did.
    public var isRunning: Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let startTicks else { return true }
        return Self.startTicks(of: pid) == startTicks
    }

    /// Field 22 of `/proc/PID/stat`, after the command name in parentheses (which may hold spaces).
    static func startTicks(of pid: Int32) -> UInt64? {
        guard let bytes = try? Files.contents("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Fields from 3 on follow the name: field 22 is the 20th of them.
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
