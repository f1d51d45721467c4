/// A `driving` event: harsh acceleration, braking or cornering, or the start or end of an overspeed
/// (docs/driving.md). Its event `time` is the GPS time the episode started, or ended for `overspeed_end`.
public struct DrivingReport: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case harshAcceleration = "harsh_acceleration"
        case harshBraking = "harsh_braking"
        case harshCornering = "harsh_cornering"
        case overspeedStart = "overspeed_start"
        case overspeedEnd = "overspeed_end"
    }

    public var kind: Kind
    /// The largest value of the episode: m/s² (a magnitude) for the harsh kinds, m/s for an overspeed.
    public var peak: Double
    /// How long the value stayed over its threshold (harsh kinds), or the speed over the limit (`overspeed_end`);
    /// for `overspeed_start`, how long it had been over when it was confirmed.
    public var duration: Duration
    /// m/s: the speed before the episode (harsh kinds: at the start of its first window), or when it was confirmed
    /// (`overspeed_start`), or when it ended (`overspeed_end`).
    public var speed: Double
    /// m/s: the speed at the end of a harsh episode.
    public var speedAfter: Double?
    /// m/s: the limit in force (overspeed only).
    public var limit: Double?
    /// `left` or `right` (cornering only).
    public var direction: String?
    /// Where the peak was (harsh kinds), where the overspeed started or ended.
    public var position: Coordinate
    /// Why an overspeed ended without the speed falling: `limit_changed`, `shutdown`.
    public var reason: String?

    public init(
        kind: Kind,
        peak: Double,
        duration: Duration,
        speed: Double,
        speedAfter: Double? = nil,
        limit: Double? = nil,
        direction: String? = nil,
        position: Coordinate,
        reason: String? = nil
    ) {
        self.kind = kind
        self.peak = peak
        self.duration = duration
        self.speed = speed
        self.speedAfter = speedAfter
        self.limit = limit
        self.direction = direction
        self.position = position
        self.reason = reason
    }
}
