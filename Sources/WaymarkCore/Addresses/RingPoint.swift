/// The point a closed ring (a building's outline) stands at: its centroid when that lies inside it, else a
/// point on its surface, so that an address is never placed in a courtyard or beside an L-shaped building.
///
/// Plane geometry in longitude and latitude (1e-7 degree): the centroid is affine-invariant, so it is the same
/// as in any local plane, and the rings are buildings, metres across.
enum RingPoint {
    /// The centroid (the centre of the area, by the shoelace formula) when the ring contains it; else the
    /// middle of the widest stretch inside the ring along the centroid's latitude; the mean of the corners
    /// for a ring without area, or whose centroid falls outside its box (a ring that crosses itself).
    /// `corners` are (longitude, latitude), the first repeated last.
    static func point(inside corners: [(x: Double, y: Double)]) -> (x: Double, y: Double) {
        // Relative to the first corner, so that the products stay small and exact enough.
        let origin = corners[0]
        let ring = corners.map { (x: $0.x - origin.x, y: $0.y - origin.y) }
        var twiceArea = 0.0
        var sumX = 0.0
        var sumY = 0.0
        for index in 0..<(ring.count - 1) {
            let (a, b) = (ring[index], ring[index + 1])
            let cross = a.x * b.y - b.x * a.y
            twiceArea += cross
            sumX += (a.x + b.x) * cross
            sumY += (a.y + b.y) * cross
        }
        let xs = ring.map(\.x)
        let ys = ring.map(\.y)
        let centre = (x: sumX / (3 * twiceArea), y: sumY / (3 * twiceArea))
        guard abs(twiceArea) > 1e-3, (xs.min()!...xs.max()!).contains(centre.x),
            (ys.min()!...ys.max()!).contains(centre.y)
        else {
            let count = Double(ring.count - 1)
            return (xs.dropLast().reduce(0, +) / count + origin.x, ys.dropLast().reduce(0, +) / count + origin.y)
        }
        // Where the ring's edges cross the centroid's latitude (each edge half-open in latitude, so that a
        // corner on the line counts once), in order.
        var crossings: [Double] = []
        for index in 0..<(ring.count - 1) {
            let (a, b) = (ring[index], ring[index + 1])
            guard (a.y > centre.y) != (b.y > centre.y) else { continue }
            crossings.append(a.x + (centre.y - a.y) * (b.x - a.x) / (b.y - a.y))
        }
        crossings.sort()
        // Inside when an odd number of crossings lie east of it.
        let east = crossings.filter { $0 > centre.x }.count
        guard east % 2 == 0, crossings.count >= 2 else { return (centre.x + origin.x, centre.y + origin.y) }
        var best = (width: -1.0, middle: centre.x)
        for pair in stride(from: 0, to: crossings.count - 1, by: 2)
        where crossings[pair + 1] - crossings[pair] > best.width {
            best = (crossings[pair + 1] - crossings[pair], (crossings[pair] + crossings[pair + 1]) / 2)
        }
        return (best.middle + origin.x, centre.y + origin.y)
    }
}
