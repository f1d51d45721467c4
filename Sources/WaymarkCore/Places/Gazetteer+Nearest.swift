extension Gazetteer {
    /// The place nearest `coordinate` by geodesic distance on WGS84 (``Geodesic``), and that distance in metres;
    /// nil for an empty gazetteer or a coordinate out of range (a latitude beyond ±90°, not finite).
    ///
    /// Exact, not approximate: the answer is the place a search of every place by ``Geodesic/distance(from:to:)``
    /// finds (of places at the same distance, the first in the file). The search walks the k-d tree twice
    /// with the chord between earth-centred points, which is never longer than the geodesic: first to the
    /// nearest place by chord, whose geodesic distance bounds the answer; then through every place whose chord
    /// could still beat the best geodesic distance so far, computing the geodesic only for those. Near the
    /// antimeridian and the poles nothing changes: the chords know no longitude.
    ///
    /// About 1 µs in a release build; no allocation.
    public func nearest(to coordinate: Coordinate) -> (index: Int, distance: Double)? {
        guard count > 0, coordinate.latitude.isFinite, coordinate.longitude.isFinite, abs(coordinate.latitude) <= 90
        else { return nil }
        var search = NearestSearch(gazetteer: self, point: coordinate)
        search.nearestByChord(0, count, axis: 0)
        search.best = Geodesic.distance(from: self.coordinate(at: search.bestIndex), to: coordinate)
        search.nearestByGeodesic(0, count, axis: 0)
        return (search.bestIndex, search.best)
    }

    /// How far a chord between stored positions may be from the exact one, and more: each stored axis is a
    /// Float within 0.25 m of the exact value (half a unit in the last place below 2²³ m), so a chord is within
    /// √3 × 0.25 m = 0.43 m of the exact chord.
    static let chordSlack = 1.0
}

/// The state of one ``Gazetteer/nearest(to:)``.
private struct NearestSearch {
    let gazetteer: Gazetteer
    let point: Coordinate
    let query: EarthCentered
    var bestIndex = 0
    var bestSquaredChord = Double.infinity
    /// The best geodesic distance so far, metres.
    var best = Double.infinity

    init(gazetteer: Gazetteer, point: Coordinate) {
        self.gazetteer = gazetteer
        self.point = point
        query = EarthCentered(point)
    }

    /// The place of `lo ..< hi` nearest by stored chord, if nearer than the best so far.
    mutating func nearestByChord(_ lo: Int, _ hi: Int, axis: Int) {
        guard lo < hi else { return }
        let middle = lo + (hi - lo) >> 1
        let position = gazetteer.position(at: middle)
        let squared = query.squaredChord(to: position)
        if squared < bestSquaredChord {
            bestSquaredChord = squared
            bestIndex = middle
        }
        let (offset, near, far, next) = split(lo, middle, hi, at: position, axis: axis)
        nearestByChord(near.lo, near.hi, axis: next)
        if offset * offset < bestSquaredChord { nearestByChord(far.lo, far.hi, axis: next) }
    }

    /// Every place of `lo ..< hi` whose chord could beat ``best``, measured by its geodesic.
    mutating func nearestByGeodesic(_ lo: Int, _ hi: Int, axis: Int) {
        guard lo < hi else { return }
        let middle = lo + (hi - lo) >> 1
        let position = gazetteer.position(at: middle)
        let reach = best + Gazetteer.chordSlack
        if middle != bestIndex, query.squaredChord(to: position) <= reach * reach {
            let distance = Geodesic.distance(from: gazetteer.coordinate(at: middle), to: point)
            if distance < best || (distance == best && middle < bestIndex) {
                best = distance
                bestIndex = middle
            }
        }
        let (offset, near, far, next) = split(lo, middle, hi, at: position, axis: axis)
        nearestByGeodesic(near.lo, near.hi, axis: next)
        if abs(offset) <= best + Gazetteer.chordSlack { nearestByGeodesic(far.lo, far.hi, axis: next) }
    }

    /// The query's offset from the node's place along `axis`, the half of `lo ..< hi` on the query's side and
    /// the other half, and the axis of the next depth.
    @inline(__always)
    private func split(
        _ lo: Int,
        _ middle: Int,
        _ hi: Int,
        at position: EarthCentered,
        axis: Int
    ) -> (offset: Double, near: (lo: Int, hi: Int), far: (lo: Int, hi: Int), next: Int) {
        let offset = query[axis] - position[axis]
        let below = (lo: lo, hi: middle)
        let above = (lo: middle + 1, hi: hi)
        return offset < 0
            ? (offset, below, above, axis == 2 ? 0 : axis + 1) : (offset, above, below, axis == 2 ? 0 : axis + 1)
    }
}
