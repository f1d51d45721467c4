/// What the region monitor needs of the monitored regions' geometry: which regions a fix may be in or near,
/// and how far it is from their boundary. Regions are addressed by slot (``RegionIndex`` is the lookup the
/// agent uses).
public protocol RegionLookup: Sendable {
    /// Every slot in use is below this.
    var slotCount: Int { get }
    /// The slot of the region with `id`, if it is monitored.
    func slot(of id: String) -> Int32?
    /// The id and the notify flags of the region in `slot`; nil for a free slot.
    func regionFlags(at slot: Int32) -> RegionFlags?
    /// Appends the slots of every region whose boundary may lie within `margin` metres of `coordinate` or
    /// that may contain it (a superset is fine); every other region is outside by more than `margin`.
    func candidates(near coordinate: Coordinate, within margin: Double, into slots: inout [Int32])
    /// Metres from `coordinate` to the boundary of the region in `slot`: negative inside, positive outside.
    func signedDistance(ofRegionAt slot: Int32, to coordinate: Coordinate) -> Double
}

/// What the monitor needs to know of a region beyond its geometry.
public struct RegionFlags: Hashable, Sendable {
    public var id: String
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool

    public init(id: String, notifyOnEntry: Bool = true, notifyOnExit: Bool = true) {
        self.id = id
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }
}

extension RegionIndex: RegionLookup {
    public func regionFlags(at slot: Int32) -> RegionFlags? {
        region(at: slot).map { RegionFlags(id: $0.id, notifyOnEntry: $0.notifyOnEntry, notifyOnExit: $0.notifyOnExit) }
    }
}
