import CLibGPS
import Glibc
import WaymarkCore
import WaymarkSystem

/// Where a connection's thread hands its batches of updates.
enum Handover {
    /// A stream, for a consumer on another thread: a burst of messages is awaited (``ConnectionWorker``'s
    /// coalescing) so that it wakes that thread once, and batches wait in the stream's buffer, dropped and
    /// counted when it is full.
    case stream(AsyncStream<[SourceUpdate]>.Continuation)
    /// A function run on the connection's thread as soon as gpsd has nothing more to read: the consumer works
    /// where the messages were read, and no other thread wakes. It holds the reading while it runs: the socket's
    /// buffer (on loopback some 100 to 200 KB, tens of seconds of a 1 Hz receiver) takes what comes meanwhile,
    /// and past it gpsd drops messages for this client. Messages read late are stamped when read.
    case inline(@Sendable ([SourceUpdate]) -> Void)
}

/// The loop on a connection's dedicated thread: connect, watch, read, map, reconnect.
struct ConnectionWorker {
    private var configuration: GPSDConnection.Configuration
    private let control: WorkerControl
    private let handover: Handover
    /// Updates read since the last hand-over: one array per burst of messages, not one element per message,
    /// keeps the hand-overs few.
    private var batch: [SourceUpdate] = []
    private let data = GPSDData()
    private var backoff: Backoff
    private var random = SystemRandomNumberGenerator()
    private var overflowed = 0
    /// Lines that are not gpsd's JSON, before any that is, after which the peer is taken for something else.
    private static let foreignLineLimit = 8
    /// Most updates handed over at once while gpsd keeps sending.
    private static let batchLimit = 256
    /// Once a batch has started, how long to wait for more messages, and how old it may get: gpsd sends an
    /// epoch as a burst of messages, and one hand-over per burst costs a fraction of one per message. Inline,
    /// nothing is awaited: the consumer costs no wake-up, and waiting would cost one.
    private let coalescing: Duration
    private static let batchAgeLimit: Duration = .milliseconds(20)
    private var batchStarted = MonotonicInstant.zero
    /// Whether the system clock is synchronized, read at most once per ``clockCheckInterval``.
    private var clockSynchronized = false
    private var clockCheckedAt: MonotonicInstant?
    private static let clockCheckInterval: Duration = .seconds(1)
    /// After the watch is stopped, how long messages already sent are still read (gpsd's reply, the
    /// epoch in flight) before the thread sleeps.
    private static let unwatchDrain: Duration = .milliseconds(250)
    /// While not watching, how often the thread looks whether gpsd closed the connection.
    private static let unwatchedCheckInterval: Duration = .seconds(30)

    init(control: WorkerControl, handover: Handover) {
        self.control = control
        self.handover = handover
        if case .inline = handover { coalescing = .zero } else { coalescing = .milliseconds(2) }
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
            deliver()
            if control.sleep(for: delay) == .stopped { return }
        }
    }

    private mutating func adopt(_ new: GPSDConnection.Configuration) {
        configuration = new
        backoff = Backoff(minimum: new.reconnectMinimum, maximum: new.reconnectMaximum)
    }

    /// Sends `WATCH_ENABLE | WATCH_JSON` (for the configured device), or `WATCH_DISABLE`; true when sent.
    private func watch(_ on: Bool) -> Bool {
        guard on else { return waymark_watch_disable(data.pointer) == 0 }
        let device = configuration.device
        let sent =
            device.map { $0.withCString { waymark_watch_enable(data.pointer, $0) } }
            ?? waymark_watch_enable(data.pointer, nil)
        return sent == 0
    }

    /// One connected session; returns why it ended.
    ///
    /// While the owner does not want the receiver watched (a paused agent saving power), the watch is
    /// stopped so gpsd can release the receiver, and the thread sleeps until asked to watch again, looking
    /// every ``unwatchedCheckInterval`` whether gpsd closed the connection.
    private mutating func session() -> String {
        let device = configuration.device
        _ = control.takeWatchRequest()
        var watching = control.wantsWatch
        guard !watching || watch(true) else { return "gpsd refused the watch request" }
        guard waymark_set_nonblocking(data.pointer) == 0 else {
            return "cannot configure the connection: \(String(cString: strerror(errno)))"
        }
        var drainUntil = MonotonicInstant.zero
        var builder = SourceEventBuilder(device: device, epochs: .init(quietPeriod: configuration.epochQuietPeriod))
        var announced = false
        var foreignLines = 0
        // Whether libgps held no line when last asked, with no read since: it holds none now either.
        var drained = false
        defer { for event in builder.finish() { emit(event) } }
        while !control.isStopped && !control.hasChanged {
            if let wanted = control.takeWatchRequest(), wanted != watching {
                watching = wanted
                guard watch(wanted) else {
                    return "sending the watch request failed: \(String(cString: strerror(errno)))"
                }
                if !wanted { drainUntil = SystemClocks.monotonic() + Self.unwatchDrain }
            }
            // Until gpsd sends or a change comes, but with updates pending only briefly for the rest of the burst
            // (the batch is handed over once it ends), and the epoch's deadline at the latest.
            let now = SystemClocks.monotonic()
            var wait: Duration?
            func atMost(_ limit: Duration) { wait = max(.zero, min(wait ?? limit, limit)) }
            if let deadline = builder.deadline { atMost(deadline - now) }
            if !batch.isEmpty {
                atMost(coalescing)
                atMost(Self.batchAgeLimit - (now - batchStarted))
            }
            if !watching && now < drainUntil { atMost(drainUntil - now) }
            if !watching && batch.isEmpty && builder.deadline == nil && now >= drainUntil {
                // Nothing expected: sleep until asked to watch, then look at the socket without waiting.
                guard control.sleep(for: Self.unwatchedCheckInterval, wakingOnWatch: true) == .timedOut else {
                    continue
                }
                wait = .zero
            }
            // A line libgps holds, or bytes on the socket, without waiting; else wait for either. With nothing read
            // since libgps last held no line, the wait alone looks at the socket.
            var failed = false
            var ready = false
            if !drained || wait == .zero {
                ready = waymark_waiting(data.pointer, 0, &failed)
                drained = !ready && !failed
            }
            if !ready && !failed && wait != .zero {
                ready = control.waitReadable(data.pointer.pointee.gps_fd, timeout: wait)
            }
            if failed { return "reading from gpsd failed: \(String(cString: strerror(errno)))" }
            guard ready else {
                for event in builder.flush(at: SystemClocks.monotonic()) { emit(event) }
                deliver()
                continue
            }
            let status = waymark_read(data.pointer, data.message.baseAddress, WAYMARK_MESSAGE_CAPACITY)
            drained = false
            guard status >= 0 else {
                let closed = errno == 0
                if !announced && (foreignLines > 0 || closed) { return notGPSD(foreignLines) }
                return closed ? "gpsd closed the connection" : String(cString: strerror(errno))
            }
            guard status > 0 else {
                // Only part of a line so far: hand over what is pending, then wait for more bytes (or a stop, or a
                // reload: a stalled peer does not hold the thread), without spinning.
                for event in builder.flush(at: SystemClocks.monotonic()) { emit(event) }
                deliver()
                let untilDeadline = builder.deadline.map { max(.zero, $0 - SystemClocks.monotonic()) }
                _ = control.waitReadable(data.pointer.pointee.gps_fd, timeout: untilDeadline)
                continue
            }
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
            if batch.count >= Self.batchLimit || SystemClocks.monotonic() - batchStarted >= Self.batchAgeLimit {
                deliver()
            }
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
        if batch.isEmpty { batchStarted = monotonic }
        if clockCheckedAt.map({ monotonic - $0 >= Self.clockCheckInterval }) ?? true {
            clockSynchronized = SystemClocks.wallClockSynchronized()
            clockCheckedAt = monotonic
        }
        batch.append(
            SourceUpdate(
                event,
                monotonic: monotonic,
                wallClock: wall,
                received: wall,
                wallClockSynchronized: clockSynchronized
            )
        )
    }

    /// Hands the pending updates to the consumer.
    private mutating func deliver() {
        guard !batch.isEmpty else { return }
        defer { batch.removeAll(keepingCapacity: true) }
        switch handover {
        case .inline(let consumer): consumer(batch)
        case .stream(let continuation): yield(to: continuation)
        }
    }

    /// When the stream's buffer is full the batch is dropped, and the count of dropped updates goes with the next
    /// batch that fits.
    private mutating func yield(to continuation: AsyncStream<[SourceUpdate]>.Continuation) {
        if overflowed > 0 {
            let wall = SystemClocks.wall()
            batch.insert(
                SourceUpdate(.dropped(count: overflowed), monotonic: SystemClocks.monotonic(), wallClock: wall),
                at: 0
            )
        }
        switch continuation.yield(batch) {
        case .enqueued: overflowed = 0
        case .dropped(let dropped): overflowed += dropped.count - (overflowed > 0 ? 1 : 0)
        case .terminated: break
        @unknown default: break
        }
    }
}
