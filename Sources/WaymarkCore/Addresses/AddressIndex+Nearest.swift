extension AddressIndex {
    /// The address nearest `coordinate` by geodesic distance on WGS84, within `radius` metres, and that distance;
    /// nil when none is that near, or for a coordinate out of range.
    ///
    /// Exact: the address a search of every address by ``Geodesic/distance(from:to:)`` finds (of addresses at
    /// the same distance, the first in the file). The k-d tree is walked with the chord, never longer than
    /// the geodesic, with the stored positions' rounding allowed for.
    public func nearestAddress(to coordinate: Coordinate, within radius: Double) -> (index: Int, distance: Double)? {
        guard Self.valid(coordinate) else { return nil }
        var search = NearestSearch(.addresses, index: self, point: coordinate, radius: radius)
        return search.run()
    }

    /// The street piece nearest `coordinate` within `radius` metres (the geodesic to its nearest point,
    /// ``StreetPiece/distance(from:to:_:)``), and that distance; nil when none is that near.
    public func nearestStreet(to coordinate: Coordinate, within radius: Double) -> (piece: Int, distance: Double)? {
        guard Self.valid(coordinate) else { return nil }
        var search = NearestSearch(.streets, index: self, point: coordinate, radius: radius)
        return search.run()
    }

    private static func valid(_ coordinate: Coordinate) -> Bool {
        coordinate.latitude.isFinite && coordinate.longitude.isFinite && abs(coordinate.latitude) <= 90
    }

    /// How far a chord between stored (Float) positions may be from the exact one, and more (as the gazetteer's).
    static let chordSlack = Gazetteer.chordSlack
}

/// The state of one ``AddressIndex/nearestAddress(to:within:)`` or ``AddressIndex/nearestStreet(to:within:)``.
/// A street piece is considered when its midpoint's chord is within the best distance so far plus half the
/// longest piece.
private struct NearestSearch: KDTreeRadiusSearch {
    enum Target {
        case addresses
        case streets
    }

    let index: AddressIndex
    let target: Target
    let point: Coordinate
    let query: EarthCentered
    /// The best geodesic distance so far, or the radius.
    var best: Double
    var bestIndex: Int?
    private let positions: Int
    private let extraReach: Double

    init(_ target: Target, index: AddressIndex, point: Coordinate, radius: Double) {
        self.index = index
        self.target = target
        self.point = point
        query = EarthCentered(point)
        best = radius
        positions = target == .addresses ? index.layout.addressPositions : index.layout.piecePositions
        extraReach = AddressIndex.chordSlack + (target == .addresses ? 0 : AddressLayout.maximumPieceLength / 2)
    }

    var count: Int { target == .addresses ? index.addressCount : index.streetPieceCount }

    var reach: Double { best + extraReach }

    func position(at node: Int) -> EarthCentered { index.position(positions + 12 * node) }

    mutating func consider(_ node: Int) {
        let distance: Double
        switch target {
        case .addresses:
            distance = Geodesic.distance(from: index.coordinate(at: node), to: point)
        case .streets:
            let (start, end) = index.pieceEnds(node)
            distance = StreetPiece.distance(from: point, to: start, end)
        }
        if distance < best || (distance == best && (bestIndex ?? Int.max) > node) {
            best = distance
            bestIndex = node
        }
    }

    /// The nearest within the radius, and its distance.
    mutating func run() -> (Int, Double)? {
        walk(0, count, axis: 0)
        return bestIndex.map { ($0, best) }
    }
}
