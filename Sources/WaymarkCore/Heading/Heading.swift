/// A `heading` event's payload: Core Location's `CLHeading` for a vehicle.
public struct Heading: Hashable, Sendable {
    /// Where a heading came from.
    public enum Source: String, Hashable, Sendable {
        /// gpsd's ATT report: a heading sensor, a dual-antenna receiver, a gyro compass.
        case attitude
        /// The course over ground that the receiver measured while moving.
        case course
    }

    /// Degrees clockwise from magnetic north, 0 ..< 360; nil when it cannot be computed (a true heading
    /// before any position gave the declination).
    public var magnetic: Double?
    /// Degrees clockwise from true north, 0 ..< 360; -1 when it cannot be computed (a magnetic heading before
    /// any position gave the declination), as Core Location's `trueHeading`.
    public var trueHeading: Double
    /// The largest likely error of the heading, degrees; -1 when the heading is invalid (no fresh source,
    /// the magnetic blackout zone), as Core Location's `headingAccuracy`; nil when nothing bounds it.
    public var accuracy: Double?
    public var source: Source
    /// The declination used between true and magnetic (WMM2025, east positive), when a position gave one.
    public var declination: Double?

    public init(
        magnetic: Double?,
        trueHeading: Double,
        accuracy: Double?,
        source: Source,
        declination: Double?
    ) {
        self.magnetic = magnetic
        self.trueHeading = trueHeading
        self.accuracy = accuracy
        self.source = source
        self.declination = declination
    }

    /// Whether the heading is usable: not marked invalid.
    public var isValid: Bool { accuracy.map { $0 >= 0 } ?? true }
}
