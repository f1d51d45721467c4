/// A `region` event of a beacon region: a matching beacon was first heard (`enter`), or none was heard for
/// `[beacons] exit_after` (`exit`).
public struct BeaconRegionEvent: Hashable, Sendable {
    public var id: String
    public var crossing: RegionEvent.Crossing
    /// The beacon that entered the region, or the last one heard before the exit; nil for the exit of a region
    /// saved as inside and not heard since the agent started.
    public var beacon: BeaconID?
    /// The last known location when it happened, if any: where the trailer was coupled.
    public var position: Coordinate?

    public init(id: String, crossing: RegionEvent.Crossing, beacon: BeaconID?, position: Coordinate? = nil) {
        self.id = id
        self.crossing = crossing
        self.beacon = beacon
        self.position = position
    }
}
