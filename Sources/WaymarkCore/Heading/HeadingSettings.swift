/// `[heading]`: Core Location's heading service for a vehicle (`CLHeading`, `headingFilter`).
public struct HeadingSettings: Hashable, Sendable {
    /// Which readings a heading comes from.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// The attitude sensor while its readings are fresh, else the course over ground.
        case auto
        /// Only gpsd's ATT reports: a heading sensor, a dual-antenna receiver, a gyro compass.
        case attitude
        /// Only the course over ground that the receiver measured, while moving above ``minSpeed``.
        case course
    }

    /// Whether `heading` events are emitted at all.
    public var enabled: Bool
    public var source: Source
    /// Degrees the heading must turn from the last `heading` event before the next; 0 delivers every
    /// reading (Core Location's `headingFilter`, `kCLHeadingFilterNone`).
    public var filter: Double
    /// A reading older than this no longer gives a heading: the source is stale.
    public var maxAge: Duration
    /// The receiver-measured speed, metres per second, below which the course is not a heading.
    public var minSpeed: Double
    /// The span of readings averaged (on the circle) into each heading; zero averages nothing.
    public var smoothing: Duration

    public init(
        enabled: Bool = false,
        source: Source = .auto,
        filter: Double = 1,
        maxAge: Duration = .seconds(5),
        minSpeed: Double = 2,
        smoothing: Duration = .zero
    ) {
        self.enabled = enabled
        self.source = source
        self.filter = filter
        self.maxAge = maxAge
        self.minSpeed = minSpeed
        self.smoothing = smoothing
    }
}
