/// What a location source (a live gpsd connection, or a replay) tells the core.
public enum SourceEvent: Hashable, Sendable {
    /// Connected to gpsd and watching; `server` is `host:port`, `release` gpsd's version when known.
    case connected(server: String, release: String?)
    /// gpsd could not be reached, or the connection was lost; the source retries after `retryIn`.
    case unavailable(server: String, reason: String, retryIn: Duration?)
    /// A receiver is attached and reporting.
    case deviceActive(path: String)
    /// The receiver went away (`DEVICE … "activated":0`), or gpsd reports no device at all (`path` nil).
    case deviceGone(path: String?)
    /// One epoch's location: the most complete TPV of that epoch.
    case location(Location)
    /// An epoch (or a report outside any epoch) without a usable fix.
    case noFix(mode: FixMode, time: Timestamp?)
    case attitude(Attitude)
    case sky(SkyReport)
    /// gpsd itself reported an error (its ERROR message).
    case gpsdError(message: String)
    /// Input that was read and not used, with the reason; counted, never fatal.
    case rejected(Rejection)
    /// The consumer fell behind and the source dropped `count` updates.
    case dropped(count: Int)
}

/// Why a piece of input did not become an event.
public struct Rejection: Hashable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }

    /// A line that is neither JSON gpsd could have written nor an NMEA echo.
    public static let unparsable = Rejection("unparsable")
    /// A JSON message of a class Waymark does not use.
    public static let ignoredClass = Rejection("ignored_class")
    /// A TPV with a position but no time, and no timed report of the same epoch followed; a GPX point without
    /// `time`.
    public static let noTime = Rejection("no_time")
    /// A TPV superseded by a more complete report of the same epoch.
    public static let duplicateEpoch = Rejection("duplicate_epoch")
    /// Latitude or longitude outside their ranges; a GPX point without `lat` or `lon`, or with one that is not
    /// a number.
    public static let invalidPosition = Rejection("invalid_position")
    /// A GPX point whose `time` is not an ISO 8601 date-time.
    public static let badTime = Rejection("bad_time")
    /// A GPX point whose `fix` is `none`.
    public static let noFix = Rejection("no_fix")
    /// A GPX point whose `fix` is not `none`, `2d`, `3d`, `dgps` or `pps`.
    public static let badFix = Rejection("bad_fix")
    /// A GPX point whose `ele`, `hdop`, `vdop`, `speed` or `course` is not a number, or out of range.
    public static let badValue = Rejection("bad_value")
    /// A GPX point outside its container: a `trkpt` that is not in a `trkseg`, a `rtept` not in a `rte`.
    public static let misplacedPoint = Rejection("misplaced_point")
}

/// A ``SourceEvent`` with the clocks of its arrival.
public struct SourceUpdate: Hashable, Sendable {
    public var event: SourceEvent
    /// Monotonic time of arrival (simulated in replay).
    public var monotonic: MonotonicInstant
    /// Best knowledge of wall-clock time at arrival: the system time live, the capture's time in replay.
    public var wallClock: Timestamp
    /// The system time the agent received the data; live sources only.
    public var received: Timestamp?
    /// Whether the system clock was known to be synchronized (by NTP or another time source) at arrival;
    /// replay's simulated clock never is.
    public var wallClockSynchronized: Bool

    public init(
        _ event: SourceEvent,
        monotonic: MonotonicInstant,
        wallClock: Timestamp,
        received: Timestamp? = nil,
        wallClockSynchronized: Bool = false
    ) {
        self.event = event
        self.monotonic = monotonic
        self.wallClock = wallClock
        self.received = received
        self.wallClockSynchronized = wallClockSynchronized
    }
}

extension SourceEvent {
    /// Whether the event reports what the receiver measured (a fix, an epoch without one, attitude,
    /// satellites): what gpsd sends only to a client that watches.
    public var isReceiverData: Bool {
        switch self {
        case .location, .noFix, .attitude, .sky: true
        case .connected, .unavailable, .deviceActive, .deviceGone, .gpsdError, .rejected, .dropped: false
        }
    }
}
