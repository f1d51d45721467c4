/// A `pause` event: location delivery paused by itself (Core Location's `didPause`).
public struct PauseReport: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable {
        /// The vehicle stood still for `pause_after`.
        case stationary
        /// No usable fix for `no_fix_pause_after`.
        case noFix = "no_fix"
    }

    public var reason: Reason
    /// Where the vehicle stands (stationary), or the last usable fix (no fix); nil when there was none.
    public var position: Coordinate?
    /// GPS time since when the vehicle stood still, or of the last usable fix.
    public var since: Timestamp?
    /// The place of ``position`` (`[places]`), named as the event is emitted; nil when there is none.
    public var place: Place?

    public init(reason: Reason, position: Coordinate?, since: Timestamp?, place: Place? = nil) {
        self.reason = reason
        self.position = position
        self.since = since
        self.place = place
    }
}

/// A `resume` event: the vehicle moves again (Core Location's `didResume`).
public struct ResumeReport: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable {
        /// Consecutive fixes outside the stationary radius.
        case displacement
        /// Consecutive fixes with a receiver-measured speed of at least `stationary_speed`.
        case speed
        /// Automatic pausing was turned off (`pauses_automatically = false` on a reload).
        case settings
    }

    public var reason: Reason
    /// The fix that confirmed the movement (the last known position for ``Reason/settings``).
    public var position: Coordinate?
    /// Metres from the paused position to ``position``; nil when either is unknown.
    public var distance: Double?

    public init(reason: Reason, position: Coordinate?, distance: Double?) {
        self.reason = reason
        self.position = position
        self.distance = distance
    }
}

/// A `trip` event: one trip from its start (a resume, or the first movement after start) to its end (a
/// stop of `pause_after`, a loss of fix, or shutdown). Its event `time` is the end.
public struct TripSummary: Hashable, Sendable {
    public enum EndReason: String, Hashable, Sendable {
        case stationary
        case noFix = "no_fix"
        /// The agent stopped (or the replay ended) during the trip.
        case shutdown
        /// The agent was stopped without a shutdown (a power cut, a crash) during the trip: reported at the
        /// next start, as far as it was last saved.
        case interrupted
    }

    public var start: Timestamp
    public var startPosition: Coordinate
    public var end: Timestamp
    public var endPosition: Coordinate
    public var endReason: EndReason
    /// Metres: the geodesic sum over the trip's usable fixes, without the wander of a standing receiver.
    public var distance: Double
    /// Time spent in stops of at least ``ActivitySettings/shortestStop`` (all shorter than `pause_after`).
    public var idleTime: Duration
    public var stops: Int
    /// Receiver-measured speeds, metres per second; nil when the receiver measured none.
    public var maxSpeed: Double?
    public var averageSpeed: Double?
    /// Regions entered during the trip, in order, each once.
    public var regionsEntered: [String]
    /// The places of the start and the end (`[places]`), named as the event is emitted; nil when there is none.
    public var startPlace: Place?
    public var endPlace: Place?
    /// The odometer at the trip's end, metres (``ActivityMonitor/odometer``); nil when not known.
    public var odometer: Double?
    /// The trip's `driving` events by kind, and the worst value of each (m/s² or m/s), as they were emitted; nil
    /// when not known (a trip interrupted by a power cut, as far as it was saved).
    public var driving: DrivingTally?

    public init(
        start: Timestamp,
        startPosition: Coordinate,
        end: Timestamp,
        endPosition: Coordinate,
        endReason: EndReason,
        distance: Double,
        idleTime: Duration,
        stops: Int,
        maxSpeed: Double?,
        averageSpeed: Double?,
        regionsEntered: [String],
        startPlace: Place? = nil,
        endPlace: Place? = nil,
        odometer: Double? = nil
    ) {
        self.start = start
        self.startPosition = startPosition
        self.end = end
        self.endPosition = endPosition
        self.endReason = endReason
        self.distance = distance
        self.idleTime = idleTime
        self.stops = stops
        self.maxSpeed = maxSpeed
        self.averageSpeed = averageSpeed
        self.regionsEntered = regionsEntered
        self.startPlace = startPlace
        self.endPlace = endPlace
        self.odometer = odometer
    }

    public var duration: Duration { end.duration(since: start) }
    public var movingTime: Duration { max(.zero, duration - idleTime) }
}
