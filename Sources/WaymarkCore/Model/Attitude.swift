/// An ATT report: attitude from a heading sensor, a dual-antenna receiver or a compass.
///
/// gpsd 3.22 sends ATT without a time: it is stamped with the time it was received.
public struct Attitude: Hashable, Sendable {
    /// True heading, degrees, as sent (not validated here: raw compass units exist).
    public var heading: Double?
    /// Magnetic heading, degrees (libgps 3.25+ only).
    public var magneticHeading: Double?
    public var pitch: Double?
    public var roll: Double?

    public init(heading: Double? = nil, magneticHeading: Double? = nil, pitch: Double? = nil, roll: Double? = nil) {
        self.heading = heading
        self.magneticHeading = magneticHeading
        self.pitch = pitch
        self.roll = roll
    }
}

/// A SKY report: the satellites used in the solution and the dilutions of precision.
public struct SkyReport: Hashable, Sendable {
    public var satellitesUsed: Int?
    public var satellitesVisible: Int?
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?

    public init(
        satellitesUsed: Int? = nil,
        satellitesVisible: Int? = nil,
        hdop: Double? = nil,
        vdop: Double? = nil,
        pdop: Double? = nil
    ) {
        self.satellitesUsed = satellitesUsed
        self.satellitesVisible = satellitesVisible
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
    }
}
