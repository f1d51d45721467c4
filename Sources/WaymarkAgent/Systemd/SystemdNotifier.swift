import Glibc
import Synchronization

/// The service manager's notification socket (`sd_notify(3)`): systemd passes its address in `$NOTIFY_SOCKET`
/// to a `Type=notify` service, which sends it datagrams of newline-separated `KEY=value` assignments.
///
/// The protocol is written here rather than taken from libsystemd: it is one `sendto` of a documented, stable
/// format, and linking libsystemd would map it and its own dependencies (compression, crypto) into the agent
/// for that one call.
public final class SystemdNotifier: Sendable {
    private let descriptor: Int32
    /// `sockaddr_un` bytes and their length.
    private let address: [UInt8]
    /// Whether `READY=1` was sent: a reload before it must not say `READY=1` for a start not yet done.
    private let ready = Atomic(false)
    /// `$WATCHDOG_USEC` when it is meant for this process: how often systemd expects `WATCHDOG=1` at the latest.
    public let watchdogTimeout: Duration?

    /// The notifier `environment` names (the process's by default), or nil when the agent does not run as a
    /// `Type=notify` service (no `$NOTIFY_SOCKET`) or the address cannot be used (``unusableSocket(_:)`` says
    /// why).
    public static func fromEnvironment(
        _ environment: (String) -> String? = SystemdNotifier.processEnvironment
    ) -> SystemdNotifier? {
        guard let path = environment("NOTIFY_SOCKET"), let address = socketAddress(path) else { return nil }
        var watchdog: Duration?
        if let text = environment("WATCHDOG_USEC"), let microseconds = Int64(text), microseconds > 0 {
            // systemd sets WATCHDOG_PID when the variable may reach other processes; it is meant for that pid only.
            // A WATCHDOG_PID that names no pid is not ours either, as sd_watchdog_enabled(3) reads it.
            let pid = environment("WATCHDOG_PID")
            if pid == nil || pid.flatMap({ Int32($0) }) == getpid() { watchdog = .microseconds(microseconds) }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        return SystemdNotifier(descriptor: descriptor, address: address, watchdogTimeout: watchdog)
    }

    private init(descriptor: Int32, address: [UInt8], watchdogTimeout: Duration?) {
        self.descriptor = descriptor
        self.address = address
        self.watchdogTimeout = watchdogTimeout
    }

    deinit { close(descriptor) }

    /// Sends one datagram of `assignments` (`READY=1`, `STATUS=…`); false when it could not be sent. A service
    /// manager that went away is no reason to stop tracking, so callers go on either way.
    @discardableResult
    public func send(_ assignments: [String]) -> Bool {
        guard !assignments.isEmpty else { return true }
        if assignments.contains("READY=1") { ready.store(true, ordering: .relaxed) }
        let message = Array(assignments.joined(separator: "\n").utf8)
        let sent = message.withUnsafeBytes { bytes in
            address.withUnsafeBytes { raw in
                raw.withMemoryRebound(to: sockaddr.self) { socketAddress in
                    sendto(
                        descriptor,
                        bytes.baseAddress,
                        bytes.count,
                        Int32(MSG_NOSIGNAL),
                        socketAddress.baseAddress,
                        socklen_t(raw.count)
                    )
                }
            }
        }
        return sent == message.count
    }

    /// Why `$NOTIFY_SOCKET` cannot be used, when it is set and ``fromEnvironment(_:)`` gives nil: systemd would
    /// wait for a `READY=1` that never comes, and the log must say so.
    public static func unusableSocket(
        _ environment: (String) -> String? = SystemdNotifier.processEnvironment
    )
        -> String?
    {
        guard let path = environment("NOTIFY_SOCKET") else { return nil }
        guard socketAddress(path) != nil else {
            return "NOTIFY_SOCKET=\(path) is not a path or an abstract socket name of at most 107 bytes"
        }
        return nil
    }

    /// Sends `assignments` once the start said `READY=1`, and nothing before (a reload's `RELOADING=1` and
    /// `READY=1` while the agent still starts).
    public func sendOnceReady(_ assignments: [String]) {
        if ready.load(ordering: .relaxed) { send(assignments) }
    }

    public static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `sockaddr_un` for a path, or for an abstract name written `@name`; nil for anything else or too long.
    static func socketAddress(_ text: String) -> [UInt8]? {
        var path = Array(text.utf8)
        guard let first = path.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@") else { return nil }
        if first == UInt8(ascii: "@") { path[0] = 0 }
        var address = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs its terminating zero; an abstract name is exactly its bytes.
        guard path.count < capacity || (first == UInt8(ascii: "@") && path.count <= capacity) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length =
            MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (first == UInt8(ascii: "/") ? 1 : 0)
        return withUnsafeBytes(of: &address) { Array($0.prefix(length)) }
    }
}
