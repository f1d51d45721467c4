import CLibGPS
import Glibc
import WaymarkClocks
import WaymarkCore
import WaymarkSystem

/// Where a connection's thread hands its batches of updates.
enum Handover {
    /// A stream, for a consumer on another thread: a burst of messages is awaited (``GPSDSession``'s
    /// coalescing) so that it wakes that thread once, and batches wait in the stream's buffer, dropped and
    /// counted when it is full.
    case stream(AsyncStream<[SourceUpdate]>.Continuation)
    /// A function run on the connection's thread as soon as gpsd has nothing more to read: the consumer works
    /// where the messages were read, and no other thread wakes. It holds the reading while it runs: the socket's
    /// buffer (on loopback some 100 to 200 KB, tens of seconds of a 1 Hz receiver) takes what comes meanwhile,
    /// and past it gpsd drops messages for this client. Messages read late are stamped when read.
    case inline(@Sendable ([SourceUpdate]) -> Void)
}

/// The loop on a connection's dedicated thread: connect, watch, read, map, reconnect. It does the I/O; a
/// ``GPSDSession`` decides.
struct ConnectionWorker {
    private var configuration: GPSDConnection.Configuration
    private let control: WorkerControl
    private let handover: Handover
    private var session: GPSDSession
    /// Updates read since the last hand-over: one array per burst of messages, not one element per message,
    /// keeps the hand-overs few.
    private var batch: [SourceUpdate] = []
    private let data = GPSDData()
    private var random = SystemRandomNumberGenerator()
    private var overflowed = 0
    /// Whether the system clock is synchronized, read again when ``session`` says.
    private var clockSynchronized = false

    init(control: WorkerControl, handover: Handover) {
        self.control = control
        self.handover = handover
        configuration = control.currentConfiguration()
        session = GPSDSession(configuration: Self.sessionConfiguration(configuration, handover))
    }

    /// What the session decides with: these settings, and coalescing for a stream only (inline, the consumer
    /// costs no wake-up, and waiting for the rest of a burst would cost one).
    private static func sessionConfiguration(
        _ configuration: GPSDConnection.Configuration,
        _ handover: Handover
    ) -> GPSDSession.Configuration {
        var coalescing = Duration.milliseconds(2)
        if case .inline = handover { coalescing = .zero }
        return .init(
            reconnectMinimum: configuration.reconnectMinimum,
            reconnectMaximum: configuration.reconnectMaximum,
            coalescing: coalescing
        )
    }

    mutating func run() {
        while !control.isStopped {
            if control.hasChanged {
                configuration = control.currentConfiguration()
                session.reconfigure(Self.sessionConfiguration(configuration, handover))
            }
            let reason: String
            let opened = "\(configuration.port)".withCString { port in
                configuration.host.withCString { host in waymark_open(host, port, data.pointer) }
            }
            if opened == 0 {
                reason = readUntilClosed()
                gps_close(data.pointer)
            } else {
                reason = String(cString: gps_errstr(opened))
            }
            guard !control.isStopped else { return }
            // A new configuration ends the session on purpose: connect with it at once.
            guard !control.hasChanged else { continue }
            let delay = session.closed(using: &random)
            emit(.unavailable(server: configuration.server, reason: reason, retryIn: delay))
            deliver()
            if control.sleep(for: delay) == .stopped { return }
        }
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

    /// One connection, read until it ends; returns why it ended.
    ///
    /// While the owner does not want the receiver watched (a paused agent saving power), the watch is
    /// stopped so gpsd can release the receiver, and the thread sleeps until asked to watch again, looking
    /// now and then (as ``GPSDSession`` says) whether gpsd closed the connection.
    private mutating func readUntilClosed() -> String {
        _ = control.takeWatchRequest()
        if case .send(let on) = session.opened(watching: control.wantsWatch), !watch(on) {
            return "gpsd refused the watch request"
        }
        guard waymark_set_nonblocking(data.pointer) == 0 else {
            return "cannot configure the connection: \(SystemError.reason(errno))"
        }
        var builder = SourceEventBuilder(
            device: configuration.device,
            epochs: .init(quietPeriod: configuration.epochQuietPeriod)
        )
        defer { for event in builder.finish() { emit(event) } }
        while !control.isStopped && !control.hasChanged {
            let now = SystemClocks.monotonic()
            if let wanted = control.takeWatchRequest(), case .send(let on) = session.watchRequested(wanted, at: now),
                !watch(on)
            {
                return "sending the watch request failed: \(SystemError.reason(errno))"
            }
            let poll: GPSDSession.Poll
            switch session.nextWait(at: now, epochDeadline: builder.deadline) {
            case .poll(let next):
                poll = next
            case .sleep(let duration, let next):
                guard control.sleep(for: duration, wakingOnWatch: true) == .timedOut else { continue }
                poll = next
            }
            // A line libgps holds, or bytes on the socket, without waiting; else wait for either.
            var failed = false
            var ready = false
            if poll.peekFirst {
                ready = waymark_waiting(data.pointer, 0, &failed)
                if !failed { session.peeked(lineWaiting: ready) }
            }
            if !ready && !failed && poll.timeout != .zero {
                ready = control.waitReadable(data.pointer.pointee.gps_fd, timeout: poll.timeout)
            }
            if failed { return "reading from gpsd failed: \(SystemError.reason(errno))" }
            guard ready else {
                for event in builder.flush(at: SystemClocks.monotonic()) { emit(event) }
                deliver()
                continue
            }
            let status = waymark_read(data.pointer, data.message.baseAddress, WAYMARK_MESSAGE_CAPACITY)
            guard status >= 0 else {
                return session.readFailed(errno == 0 ? .closed : .error(SystemError.reason(errno)))
            }
            guard status > 0 else {
                // Only part of a line so far: hand over what is pending, then wait for more bytes (or a stop, or a
                // reload) until the epoch's deadline.
                for event in builder.flush(at: SystemClocks.monotonic()) { emit(event) }
                deliver()
                let timeout = session.partialLineRead(at: SystemClocks.monotonic(), epochDeadline: builder.deadline)
                _ = control.waitReadable(data.pointer.pointee.gps_fd, timeout: timeout)
                continue
            }
            let message = data.decodeLastRead()
            switch session.lineRead(message.sessionLine) {
            case .skip: continue
            case .close(let reason): return reason
            case .announce(let release): emit(.connected(server: configuration.server, release: release))
            case .handle: break
            }
            for event in builder.handle(message, at: SystemClocks.monotonic()) { emit(event) }
            if session.lineHandled(at: SystemClocks.monotonic()) == .handOver { deliver() }
        }
        return "stopped"
    }

    private mutating func emit(_ event: SourceEvent) {
        let wall = SystemClocks.wall()
        let monotonic = SystemClocks.monotonic()
        if session.updateAdded(at: monotonic) == .checkClockAndAppend {
            clockSynchronized = SystemClocks.wallClockSynchronized()
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
        defer {
            batch.removeAll(keepingCapacity: true)
            session.handedOver()
        }
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

extension GPSDMessage {
    /// What the session makes of the line this message was decoded from.
    fileprivate var sessionLine: GPSDSession.Line {
        switch self {
        case .unparsable: .foreign
        case .version(let release): .gpsd(release: release)
        default: .gpsd(release: nil)
        }
    }
}
