/// A ranged beacon as last heard (Core Location's `CLBeacon`): its smoothed signal, the distance estimated from
/// it and the proximity class.
public struct RangedBeacon: Hashable, Sendable {
    public var beacon: BeaconID
    /// The region it is ranged for: the first by id of the regions that match it and range.
    public var regionID: String
    /// The smoothed RSSI (the median of the sightings in ``BeaconSettings/smoothingWindow``), dBm; 0 when unknown,
    /// as Core Location does.
    public var rssi: Int
    /// The estimated distance in metres, to 0.01 m; -1 when unknown, as Core Location does.
    public var accuracy: Double
    public var proximity: BeaconProximity
    /// The measured power of its last frame: the RSSI at 1 m, dBm.
    public var measuredPower: Int
    /// When it was last heard.
    public var lastHeard: MonotonicInstant

    public init(
        beacon: BeaconID,
        regionID: String,
        rssi: Int,
        accuracy: Double,
        proximity: BeaconProximity,
        measuredPower: Int,
        lastHeard: MonotonicInstant
    ) {
        self.beacon = beacon
        self.regionID = regionID
        self.rssi = rssi
        self.accuracy = accuracy
        self.proximity = proximity
        self.measuredPower = measuredPower
        self.lastHeard = lastHeard
    }
}
