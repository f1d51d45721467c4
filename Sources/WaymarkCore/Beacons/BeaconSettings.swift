/// `[beacons]`: how beacon regions are monitored and their beacons ranged (Core Location's `CLBeaconRegion`
/// monitoring and beacon ranging).
///
/// Every duration counts scanning time only, except ``rangingInterval``: while the agent does not scan (between
/// the scan windows of a duty cycle), no beacon can be heard, so no region exits and no beacon is lost.
public struct BeaconSettings: Hashable, Sendable {
    /// How long no matching beacon may be heard before a region exits, and a ranged beacon is lost (Core Location
    /// waits about 30 s).
    public var exitAfter: Duration
    /// Whether the beacons of a region are ranged when the region does not say (``BeaconRegion/ranging`` nil).
    public var ranging: Bool
    /// The longest time between two `beacon` reports of a beacon still heard whose proximity has not changed,
    /// on the monotonic clock: a report goes with the first sighting after it.
    public var rangingInterval: Duration
    /// The span of sightings whose median RSSI gives the distance; with no sighting in it, the proximity is
    /// unknown. Zero uses the latest sighting alone.
    public var smoothingWindow: Duration
    /// The exponent n of the log-distance path-loss model, d = 10^((measuredPower − rssi) / (10 n)): 2 in free
    /// space, 2.5 to 4 inside buildings and vehicles. It must be more than 0: otherwise no distance is
    /// estimated (accuracy -1, proximity unknown).
    public var pathLossExponent: Double

    public init(
        exitAfter: Duration = .seconds(30),
        ranging: Bool = false,
        rangingInterval: Duration = .seconds(10),
        smoothingWindow: Duration = .seconds(5),
        pathLossExponent: Double = 2.0
    ) {
        self.exitAfter = exitAfter
        self.ranging = ranging
        self.rangingInterval = rangingInterval
        self.smoothingWindow = smoothingWindow
        self.pathLossExponent = pathLossExponent
    }
}
