/// One output event: the single schema behind stdout, the log files, the spool and the sinks
/// (docs/events.md, "Events").
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
        case region(RegionEvent)
        case regionState(RegionStateReport)
        case pause(PauseReport)
        case resume(ResumeReport)
        case trip(TripSummary)
        case deferredFinished(DeferralReport)
        case status(Status)
        case error(ErrorReport)
        /// A health alarm ended; its `error` event (code ``Alarm/Kind/code``) said when it started.
        case alarmCleared(AlarmClearance)
        /// A beacon region entered or exited (`type` `region`).
        case beaconRegion(BeaconRegionEvent)
        /// A ranged beacon appeared, changed proximity, was lost, or is still heard (`type` `beacon`).
        case beacon(BeaconRanger.Report)
        /// A fleet command run or refused (`type` `command`).
        case command(CommandReport)
        /// The board started or stopped advertising itself as an iBeacon (`type` `beacon_advertising`).
        case beaconAdvertising(AdvertisingReport)
        /// Harsh acceleration, braking or cornering, or an overspeed's start or end (`type` `driving`).
        case driving(DrivingReport)
    }

    /// The `type` field of the event.
    public var type: String { eventType.rawValue }

    /// The event's `type`.
    public var eventType: EventType {
        switch kind {
        case .location: .location
        case .heading: .heading
        case .region, .beaconRegion: .region
        case .regionState: .regionState
        case .pause: .pause
        case .resume: .resume
        case .trip: .trip
        case .deferredFinished: .deferredFinished
        case .status: .status
        case .error: .error
        case .alarmCleared: .alarmCleared
        case .beacon: .beacon
        case .command: .command
        case .beaconAdvertising: .beaconAdvertising
        case .driving: .driving
        }
    }
}

/// Every value of an event's `type` (docs/events.md, "Events").
public enum EventType: String, CaseIterable, Sendable {
    case location, heading, region
    case regionState = "region_state"
    case pause, resume, trip
    case deferredFinished = "deferred_finished"
    case status, error
    case alarmCleared = "alarm_cleared"
    case beacon
    case command
    case beaconAdvertising = "beacon_advertising"
    case driving
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
    /// What the error is about, when it is about one thing: a region's id for `region_monitoring_failure`.
    public var subject: String?

    public init(code: ErrorCode, message: String, subject: String? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
    }
}

/// An `alarm_cleared` event: the health alarm raised by the `error` event of the same `code` (and `id`) ended.
public struct AlarmClearance: Hashable, Sendable {
    public var code: ErrorCode
    /// The sink or directory it was about, as the raising event's `id`.
    public var subject: String?
    /// Why it ended, for a person.
    public var message: String
    /// How long it was open.
    public var duration: Duration

    public init(code: ErrorCode, subject: String?, message: String, duration: Duration) {
        self.code = code
        self.subject = subject
        self.message = message
        self.duration = duration
    }
}

/// A `region` event: the vehicle entered or left a monitored region.
public struct RegionEvent: Hashable, Sendable {
    public enum Crossing: String, Hashable, Sendable {
        case enter
        case exit
    }

    public var id: String
    public var crossing: Crossing
    /// Where the first fix of the new state was (the event's `time` is that fix's GPS time).
    public var position: Coordinate
    /// GPS time of the fix that confirmed the change, after the dwell.
    public var confirmed: Timestamp
    /// The crossing happened while the agent was not running: found at the first fix after a start.
    public var offline: Bool

    public init(id: String, crossing: Crossing, position: Coordinate, confirmed: Timestamp, offline: Bool = false) {
        self.id = id
        self.crossing = crossing
        self.position = position
        self.confirmed = confirmed
        self.offline = offline
    }
}

/// A `region_state` event: a region's state as first determined (at a start, or when it was added).
public struct RegionStateReport: Hashable, Sendable {
    public var id: String
    public var state: RegionState

    public init(id: String, state: RegionState) {
        self.id = id
        self.state = state
    }
}

/// The machine-readable code of an `error` event (docs/events.md, "Events"). Codes are open: later parts add
/// theirs.
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
    /// A heading source sends data that is no heading (raw sensor units).
    public static let headingFailure = ErrorCode("heading_failure")
    /// A region cannot be monitored (malformed, over a limit); the others are (`CLError.regionMonitoringFailure`).
    public static let regionMonitoringFailure = ErrorCode("region_monitoring_failure")
    /// The spool's database could not be opened: it was moved aside and a fresh one started.
    public static let spoolCorrupt = ErrorCode("spool_corrupt")
    /// The spool cannot be written (a full disk, a read-only state directory): events are kept in memory.
    public static let spoolUnavailable = ErrorCode("spool_unavailable")
    /// The spool reached `[spool] max_bytes` and dropped events to make room.
    public static let spoolFull = ErrorCode("spool_full")
    /// A sink could not deliver; it retries from its cursor.
    public static let sinkFailure = ErrorCode("sink_failure")
    /// `[agent] runtime_dir` or `[metrics] textfile` cannot be written: `waymark status` or the metrics are
    /// stale; tracking goes on.
    public static let operationsOutput = ErrorCode("operations_output")
}
