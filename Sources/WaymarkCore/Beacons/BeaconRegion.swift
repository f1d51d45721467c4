/// A monitored beacon region (Core Location's `CLBeaconRegion`): the vehicle is inside while it hears a beacon
/// that matches `constraint`.
public struct BeaconRegion: Hashable, Sendable {
    /// Unique among all monitored regions, geographic or beacon.
    public var id: String
    public var name: String?
    public var constraint: BeaconConstraint
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// Whether its beacons are ranged (`beacon` events); nil follows `[beacons] ranging`.
    public var ranging: Bool?

    public init(
        id: String,
        name: String? = nil,
        constraint: BeaconConstraint,
        notifyOnEntry: Bool = true,
        notifyOnExit: Bool = true,
        ranging: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.constraint = constraint
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.ranging = ranging
    }
}
