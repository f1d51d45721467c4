import CLibGPS
import WaymarkCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loop on a connection's dedicated thread: connect, watch, read, map, reconnect.
struct ConnectionWorker {
    private var configuration: GPSDConnection.Configuration
    private let control: WorkerControl
    private let continuation: AsyncStream<SourceUpdate>.Continuation
    private let data = GPSDData()
    private var backoff: Backoff
    private var random = SystemRandomNumberGenerator()
    private var overflowed = 0
    /// Longest single wait in `gps_waiting`, so a stop request is noticed promptly.
    private static let pollInterval: Duration = .milliseconds(200)
    /// Lines that are not gpsd's JSON, before any that is, after which the peer is taken for something else.
    private static let foreignLineLimit = 8

    init(control: WorkerControl, continuation: AsyncStream<SourceUpdate>.Continuation) {
        self.control = control
        self.continuation = continuation
        configuration = control.currentConfiguration()
        backoff = Backoff(minimum: configuration.reconnectMinimum, maximum: configuration.reconnectMaximum)
    }

    mutating func run() {
        while !control.isStopped {
            if control.hasChanged { adopt(control.currentConfiguration()) }
            let reason: String
            let opened = "\(configuration.port)".withCString { port in
                configuration.host.withCString { host in waymark_open(host, port, data.pointer) }
            }
            if opened == 0 {
                reason = session()
                gps_close(data.pointer)
            } else {
                reason = String(cString: gps_errstr(opened))
            }
            guard !control.isStopped else { return }
            // A new configuration ends the session on purpose: connect with it at once.
            guard !control.hasChanged else { continue }
            let delay = backoff.nextDelay(using: &random)
            emit(.unavailable(server: configuration.server, reason: reason, retryIn: delay))
            if control.sleep(for: delay) == .stopped { return }
        }
    }

    private mutating func adopt(_ new: GPSDConnection.Configuration) {
        configuration = new
        backoff = Backoff(minimum: new.reconnectMinimum, maximum: new.reconnectMaximum)
    }

    /// One connected session; returns why it ended.
    private mutating func session() -> String {
        let device = configuration.device
        let watched =
            device.map { $0.withCString { waymark_watch_enable(data.pointer, $0) } }
            ?? waymark_watch_enable(data.pointer, nil)
        guard watched == 0 else { return "gpsd refused the watch request" }
        var builder = SourceEventBuilder(device: device, epochs: .init(quietPeriod: configuration.epochQuietPeriod))
        var announced = false
        var foreignLines = 0
        defer { for event in builder.finish() { emit(event) } }
        while !control.isStopped && !control.hasChanged {
            let now = SystemClocks.monotonic()
            var wait = Self.pollInterval
            if let deadline = builder.deadline { wait = max(.zero, min(wait, deadline - now)) }
            var failed = false
            let ready = waymark_waiting(data.pointer, Int32(clamping: wait.nanoseconds / 1000), &failed)
            if failed { return "reading from gpsd failed: \(String(cString: strerror(errno)))" }
            guard ready else {
                for event in builder.flush(at: SystemClocks.monotonic()) { emit(event) }
                continue
            }
            let status = waymark_read(data.pointer, data.message.baseAddress, WAYMARK_MESSAGE_CAPACITY)
            guard status >= 0 else {
                if !announced { return notGPSD(foreignLines) }
                return errno == 0 ? "gpsd closed the connection" : String(cString: strerror(errno))
            }
            guard status > 0 else { continue }
            let message = data.decodeLastRead()
            // Only gpsd's own protocol makes a connection: a web server on the port is not gpsd.
            if !announced && message == .unparsable {
                foreignLines += 1
                if foreignLines >= Self.foreignLineLimit { return notGPSD(foreignLines) }
                continue
            }
            if !announced {
                announced = true
                backoff.reset()
                var release: String?
                if case .version(let text) = message { release = text }
                emit(.connected(server: configuration.server, release: release))
            }
            for event in builder.handle(message, at: SystemClocks.monotonic()) { emit(event) }
        }
        return "stopped"
    }

    private func notGPSD(_ lines: Int) -> String {
        lines == 0
            ? "the server closed the connection before speaking gpsd's protocol; check host and port"
            : "the server does not speak gpsd's protocol (\(lines) lines that are not gpsd JSON); check host and port"
    }

    private mutating func emit(_ event: SourceEvent) {
        let wall = SystemClocks.wall()
        let monotonic = SystemClocks.monotonic()
        if overflowed > 0 {
            let notice = SourceUpdate(.dropped(count: overflowed), monotonic: monotonic, wallClock: wall)
            guard case .enqueued = continuation.yield(notice) else {
                overflowed += 1
                return
            }
            overflowed = 0
        }
        let update = SourceUpdate(event, monotonic: monotonic, wallClock: wall, received: wall)
        if case .dropped = continuation.yield(update) { overflowed += 1 }
    }
}
