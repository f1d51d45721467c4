/// `[deferred]`: Core Location's `allowDeferredLocationUpdates(untilTraveled:timeout:)` for a vehicle. Events
/// are committed to the spool as they happen, but reach the sinks in batches: a window opens at the first
/// event and ends when one of its thresholds is met, or on a pause, a region crossing (when
/// ``endsOnRegion``), shutdown, or deferral being turned off. Every window ends in exactly one
/// `deferred_finished` event, after which its batch goes to the sinks.
///
/// A threshold that is nil is not checked.
public struct DeferralSettings: Hashable, Sendable {
    /// Whether events are deferred at all; false hands every commit to the sinks at once.
    public var enabled: Bool
    /// Metres travelled, the geodesic distance along the delivered locations, that end a window.
    public var untilTraveled: Double?
    /// How long after it opened a window ends, on the monotonic clock.
    public var timeout: Duration?
    /// Events in a window that end it.
    public var maxEvents: Int?
    /// Encoded bytes of the events in a window that end it.
    public var maxBytes: Int?
    /// Whether a `region` event ends the window (`[regions] flush = "immediate"`).
    public var endsOnRegion: Bool

    public init(
        enabled: Bool = true,
        untilTraveled: Double? = 5_000,
        timeout: Duration? = .seconds(300),
        maxEvents: Int? = 1_000,
        maxBytes: Int? = 256 * 1024,
        endsOnRegion: Bool = false
    ) {
        self.enabled = enabled
        self.untilTraveled = untilTraveled
        self.timeout = timeout
        self.maxEvents = maxEvents
        self.maxBytes = maxBytes
        self.endsOnRegion = endsOnRegion
    }
}

/// A `deferred_finished` event: why a deferral window ended, and what it held.
public struct DeferralReport: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// `until_traveled` metres were travelled.
        case traveled
        /// `timeout` passed since the window opened.
        case timeout
        /// `max_events` events were deferred.
        case maxEvents = "max_events"
        /// `max_bytes` bytes were deferred.
        case maxBytes = "max_bytes"
        /// The activity paused.
        case pause
        /// A region was entered or left, and `[regions] flush = "immediate"`.
        case region
        /// The agent stops gracefully (or a replay ended).
        case shutdown
        /// Deferral was turned off: `enabled = false` on a reload, or `waymark defer off`.
        case disabled
        /// The agent started and found events of a window that a crash or power cut left open.
        case restart
    }

    public var reason: Reason
    /// Events in the window, this report's own event not counted.
    public var events: Int
    /// Metres travelled in the window (geodesic, along the delivered locations); nil when unknown.
    public var distance: Double?
    /// From the window's opening to its end, on the monotonic clock; nil when unknown.
    public var duration: Duration?

    public init(reason: Reason, events: Int, distance: Double?, duration: Duration?) {
        self.reason = reason
        self.events = events
        self.distance = distance
        self.duration = duration
    }
}
