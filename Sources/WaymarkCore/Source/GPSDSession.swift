/// The decisions of a live gpsd connection's thread: when to send `WATCH`, how long to wait for gpsd, when a
/// batch of updates is handed over, when a peer is not gpsd, when the system clock is read again, and how long
/// to wait before reconnecting.
///
/// Pure: the thread does the I/O (connect, read, poll, sleep) and tells the session what happened, with `now`
/// (monotonic); each input returns what to do next. One session serves the thread's whole life, across its
/// connections.
public struct GPSDSession: Sendable {
    public struct Configuration: Hashable, Sendable {
        public var reconnectMinimum: Duration
        public var reconnectMaximum: Duration
        /// Once a batch has started, how long to wait for more messages: gpsd sends an epoch as a burst of
        /// messages, and one hand-over per burst costs a fraction of one per message. Zero hands a batch over as
        /// soon as nothing more is waiting (a consumer on the reading thread costs no wake-up, a wait would).
        public var coalescing: Duration

        public init(
            reconnectMinimum: Duration = .seconds(1),
            reconnectMaximum: Duration = .seconds(30),
            coalescing: Duration = .milliseconds(2)
        ) {
            self.reconnectMinimum = reconnectMinimum
            self.reconnectMaximum = reconnectMaximum
            self.coalescing = coalescing
        }
    }

    /// Lines that are not gpsd's JSON, before any that is, after which the peer is taken for something else.
    static let foreignLineLimit = 8
    /// Most updates handed over at once while gpsd keeps sending.
    static let batchLimit = 256
    /// How old a batch may get while gpsd keeps sending.
    static let batchAgeLimit: Duration = .milliseconds(20)
    /// How often, at most, whether the system clock is synchronized is read again.
    static let clockCheckInterval: Duration = .seconds(1)
    /// After the watch is stopped, how long messages already sent are still read (gpsd's reply, the epoch in
    /// flight) before the thread sleeps.
    static let unwatchDrain: Duration = .milliseconds(250)
    /// While not watching, how often the thread looks whether gpsd closed the connection.
    static let unwatchedCheckInterval: Duration = .seconds(30)

    /// A `WATCH` to send, or none.
    public enum WatchAction: Hashable, Sendable {
        case none
        /// `WATCH_ENABLE` (true) or `WATCH_DISABLE` (false).
        case send(Bool)
    }

    /// How to look for input from gpsd.
    public struct Poll: Hashable, Sendable {
        /// Ask libgps first, without waiting, whether it holds a line already read from the socket; then report
        /// the answer with ``GPSDSession/peeked(lineWaiting:)``.
        public var peekFirst: Bool
        /// How long to wait for bytes on the socket when libgps holds no line: zero does not wait, nil waits
        /// without limit (until gpsd sends, or the owner changes something).
        public var timeout: Duration?

        public init(peekFirst: Bool, timeout: Duration?) {
            self.peekFirst = peekFirst
            self.timeout = timeout
        }
    }

    public enum WaitAction: Hashable, Sendable {
        /// Look for input; when there is none, report it as nothing to read (flush the pending epoch and hand the
        /// batch over).
        case poll(Poll)
        /// Nothing is expected (the watch is off, nothing is pending): sleep until asked to watch again, at most
        /// `duration`; when that passes with no request, `then` looks whether gpsd closed the connection.
        case sleep(Duration, then: Poll)
    }

    /// What a complete line read from the peer is.
    public enum Line: Hashable, Sendable {
        /// Not gpsd's JSON (nor an NMEA echo).
        case foreign
        /// A line of gpsd's protocol; `release` is gpsd's version when the line is its `VERSION`.
        case gpsd(release: String?)
    }

    public enum LineAction: Hashable, Sendable {
        /// A foreign line before any of gpsd's: counted, not handled.
        case skip
        /// The first line of gpsd's protocol: emit `connected` (with gpsd's `release`), then handle the line.
        case announce(release: String?)
        /// Map the line to events.
        case handle
        /// The peer is not gpsd: close the connection for `reason`.
        case close(reason: String)
    }

    /// How a read from the connection failed.
    public enum ReadFailure: Hashable, Sendable {
        /// The peer closed the connection.
        case closed
        /// The system's error, as a sentence.
        case error(String)
    }

    public enum UpdateAction: Hashable, Sendable {
        case append
        /// Read whether the system clock is synchronized, then append the update with the answer.
        case checkClockAndAppend
    }

    public enum BatchAction: Hashable, Sendable {
        case keep
        case handOver
    }

    /// What one connection has seen.
    private struct Connection {
        /// Whether a line of gpsd's protocol arrived (and `connected` was emitted).
        var announced = false
        var foreignLines = 0
        var watching: Bool
        /// While not watching, until when messages already sent are still read.
        var drainUntil = MonotonicInstant.zero
        /// Whether libgps held no line when last asked, with no read since: it holds none now either.
        var drained = false
    }

    private enum State {
        /// No connection: before the first, between two, or after a new configuration.
        case disconnected
        case connected(Connection)
    }

    /// The updates appended since the last hand-over.
    private struct Batch {
        var count: Int
        var started: MonotonicInstant
    }

    private var configuration: Configuration
    private var state = State.disconnected
    private var backoff: Backoff
    private var batch: Batch?
    private var clockCheckedAt: MonotonicInstant?

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        backoff = Backoff(minimum: configuration.reconnectMinimum, maximum: configuration.reconnectMaximum)
    }

    /// A new configuration: the next connection uses it, and the backoff starts again from its minimum.
    public mutating func reconfigure(_ new: Configuration) {
        configuration = new
        backoff = Backoff(minimum: new.reconnectMinimum, maximum: new.reconnectMaximum)
        state = .disconnected
    }

    // MARK: Connecting

    /// The connection opened; `watching` is whether the owner wants the receiver watched.
    public mutating func opened(watching: Bool) -> WatchAction {
        state = .connected(Connection(watching: watching))
        return watching ? .send(true) : .none
    }

    /// The connection closed, or could not be opened: returns how long to wait before the next attempt, each
    /// attempt longer (up to ``Configuration/reconnectMaximum``) until a peer speaks gpsd's protocol.
    public mutating func closed(using generator: inout some RandomNumberGenerator) -> Duration {
        state = .disconnected
        return backoff.nextDelay(using: &generator)
    }

    // MARK: Watching

    /// The owner asked to watch the receiver (true) or to stop the watch (false) at `now`.
    public mutating func watchRequested(_ on: Bool, at now: MonotonicInstant) -> WatchAction {
        modifyConnection { connection in
            guard on != connection.watching else { return .none }
            connection.watching = on
            if !on { connection.drainUntil = now + Self.unwatchDrain }
            return .send(on)
        }
    }

    // MARK: Reading

    /// How to wait for gpsd at `now`: until gpsd sends or a change comes, but with updates pending only briefly
    /// for the rest of the burst, and until `epochDeadline` (the pending epoch's) at the latest.
    public func nextWait(at now: MonotonicInstant, epochDeadline: MonotonicInstant?) -> WaitAction {
        guard case .connected(let connection) = state else { preconditionFailure("waiting for gpsd unconnected") }
        var wait: Duration?
        func atMost(_ limit: Duration) { wait = max(.zero, min(wait ?? limit, limit)) }
        if let epochDeadline { atMost(epochDeadline - now) }
        if let batch {
            atMost(configuration.coalescing)
            atMost(Self.batchAgeLimit - (now - batch.started))
        }
        if !connection.watching {
            if now < connection.drainUntil {
                atMost(connection.drainUntil - now)
            } else if batch == nil && epochDeadline == nil {
                return .sleep(Self.unwatchedCheckInterval, then: Poll(peekFirst: true, timeout: .zero))
            }
        }
        // With nothing read since libgps last held no line, the wait alone looks at the socket.
        return .poll(Poll(peekFirst: !connection.drained || wait == .zero, timeout: wait))
    }

    /// libgps was asked, without waiting, whether it holds a line: `lineWaiting` is its answer.
    public mutating func peeked(lineWaiting: Bool) {
        modifyConnection { $0.drained = !lineWaiting }
    }

    /// Only part of a line arrived at `now`: returns how long to wait for more bytes (nil: no limit), so that a
    /// stalled peer neither holds the thread nor makes it spin, and the pending epoch is still emitted on time.
    public mutating func partialLineRead(at now: MonotonicInstant, epochDeadline: MonotonicInstant?) -> Duration? {
        modifyConnection { $0.drained = false }
        return epochDeadline.map { max(.zero, $0 - now) }
    }

    /// A complete line was read. Only gpsd's own protocol makes a connection: a web server on the port is not
    /// gpsd.
    public mutating func lineRead(_ line: Line) -> LineAction {
        let action = modifyConnection { connection -> LineAction in
            connection.drained = false
            guard !connection.announced else { return .handle }
            switch line {
            case .foreign:
                connection.foreignLines += 1
                guard connection.foreignLines >= Self.foreignLineLimit else { return .skip }
                return .close(reason: Self.notGPSD(connection.foreignLines))
            case .gpsd(let release):
                connection.announced = true
                return .announce(release: release)
            }
        }
        if case .announce = action { backoff.reset() }
        return action
    }

    /// Reading failed: returns why the connection ends.
    public func readFailed(_ failure: ReadFailure) -> String {
        guard case .connected(let connection) = state else { preconditionFailure("a read failed unconnected") }
        if !connection.announced && (connection.foreignLines > 0 || failure == .closed) {
            return Self.notGPSD(connection.foreignLines)
        }
        switch failure {
        case .closed: return "gpsd closed the connection"
        case .error(let text): return text
        }
    }

    private static func notGPSD(_ lines: Int) -> String {
        lines == 0
            ? "the server closed the connection before speaking gpsd's protocol; check host and port"
            : "the server does not speak gpsd's protocol (\(lines) lines that are not gpsd JSON); check host and port"
    }

    // MARK: Batching

    /// An update is added to the batch at `now`.
    public mutating func updateAdded(at now: MonotonicInstant) -> UpdateAction {
        if var current = batch {
            current.count += 1
            batch = current
        } else {
            batch = Batch(count: 1, started: now)
        }
        if let clockCheckedAt, now - clockCheckedAt < Self.clockCheckInterval { return .append }
        clockCheckedAt = now
        return .checkClockAndAppend
    }

    /// A line's updates were added, at `now`: whether the batch is handed over while gpsd keeps sending.
    public func lineHandled(at now: MonotonicInstant) -> BatchAction {
        guard let batch, batch.count >= Self.batchLimit || now - batch.started >= Self.batchAgeLimit else {
            return .keep
        }
        return .handOver
    }

    /// The batch was handed to the consumer.
    public mutating func handedOver() { batch = nil }

    private mutating func modifyConnection<T>(_ body: (inout Connection) -> T) -> T {
        guard case .connected(var connection) = state else { preconditionFailure("no connection to gpsd") }
        defer { state = .connected(connection) }
        return body(&connection)
    }
}
