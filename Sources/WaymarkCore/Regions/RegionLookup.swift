/// What the region monitor needs of the monitored regions' geometry: which regions a fix may be in or near,
/// and how far it is from their boundary.
public protocol RegionLookup {
    /// The regions, addressed by their index.
    var regions: [Region] { get }
    /// Appends to `candidates` the indices of every region whose boundary may lie within `margin` metres of
    /// `coordinate` or that may contain it (a superset is fine); every other region is outside by more than
    /// `margin`.
    func candidates(near coordinate: Coordinate, margin: Double, into candidates: inout [Int32])
    /// Metres from `coordinate` to the boundary of region `index`: negative inside, positive outside.
    func signedDistance(ofRegion index: Int, to coordinate: Coordinate) -> Double
}
