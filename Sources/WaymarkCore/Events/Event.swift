/// One output event: the single schema behind stdout, the log files, the spool and the sinks
/// (DESIGN section 4).
public struct Event: Hashable, Sendable {
    /// Per-device sequence number, assigned when the event is emitted (0 until then).
    public var seq: UInt64
    /// GPS time for fix-derived events, else the best wall-clock time known.
    public var time: Timestamp
    /// System time the agent received the data (live only).
    public var received: Timestamp?
    public var kind: Kind

    public init(seq: UInt64 = 0, time: Timestamp, received: Timestamp? = nil, kind: Kind) {
        self.seq = seq
        self.time = time
        self.received = received
        self.kind = kind
    }

    public enum Kind: Hashable, Sendable {
        case location(Location)
        case heading(Heading)
        case status(Status)
        case error(ErrorReport)
    }

    /// The `type` field of the event.
    public var type: String {
        switch kind {
        case .location: "location"
        case .heading: "heading"
        case .status: "status"
        case .error: "error"
        }
    }
}

/// Availability of the location service, reported whenever it changes.
public struct Status: Hashable, Sendable {
    public enum Connection: String, Hashable, Sendable {
        case connected
        case unavailable
    }

    public var gpsd: Connection
    /// The receiver gpsd reports from, if any.
    public var device: String?
    public var fixMode: FixMode
    public var satellitesUsed: Int?
    /// The last known location (Core Location's `location`): the newest fix that passed the location
    /// filter's checks, delivered or not; else the most accurate one held back.
    public var lastKnown: Location?

    public init(
        gpsd: Connection,
        device: String? = nil,
        fixMode: FixMode = .notSeen,
        satellitesUsed: Int? = nil,
        lastKnown: Location? = nil
    ) {
        self.gpsd = gpsd
        self.device = device
        self.fixMode = fixMode
        self.satellitesUsed = satellitesUsed
        self.lastKnown = lastKnown
    }
}

/// An `error` event: a machine code and a sentence for a person.
public struct ErrorReport: Hashable, Sendable {
    public var code: ErrorCode
    public var message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}

/// The machine-readable code of an `error` event (DESIGN section 1). Codes are open: later parts add theirs.
public struct ErrorCode: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// gpsd cannot be reached or the connection was lost (Core Location's `.network`).
    public static let gpsdUnavailable = ErrorCode("gpsd_unavailable")
    /// gpsd runs but has no receiver (Core Location's `locationServicesEnabled == false`).
    public static let noDevice = ErrorCode("no_device")
    /// The receiver has no fix right now; transient, cleared by the next fix (`CLError.locationUnknown`).
    public static let locationUnknown = ErrorCode("location_unknown")
    /// gpsd refused access (Core Location's `.denied`).
    public static let denied = ErrorCode("denied")
    /// gpsd reported an error of its own.
    public static let gpsdError = ErrorCode("gpsd_error")
    /// A heading source sends only data that is no heading (raw sensor units); reported once per streak.
    public static let headingFailure = ErrorCode("heading_failure")
}
