/// Two edges of one ring that cross, in the plane where a polygon's geodesic edges are straight
/// (``PolygonGeometry``): a "bow-tie", whose inside would be a guess.
struct RingCrossing {
    /// The first edge, from position `first` to `first + 1` of the ring (0-based).
    var first: Int
    /// The second edge, from position `second` to `second + 1`.
    var second: Int
    /// Where on the first edge they cross, from 0 at its start to 1 at its end.
    var along: Double

    /// A crossing of two edges of the ring whose positions are `positions` of `points` (x and y interleaved,
    /// the ring closed), or nil. Edges that only touch (a shared position, a vertex on another edge) do not
    /// count. Edges are swept in order of their smallest x, so a ring of n positions costs about n log n
    /// when its edges do not overlap much in x. A ring that passes exactly through one of its own vertices
    /// (every crossing there a touch) is not caught.
    static func first(in points: [Double], positions: Range<Int>) -> RingCrossing? {
        let edgeCount = positions.count - 1
        guard edgeCount >= 3 else { return nil }
        return points.withUnsafeBufferPointer { all in
            let ring = UnsafeBufferPointer(rebasing: all[(2 * positions.lowerBound)..<(2 * positions.upperBound)])
            return withUnsafeTemporaryAllocation(of: (left: Double, edge: Int).self, capacity: edgeCount) { buffer in
                var order = buffer
                for edge in 0..<edgeCount {
                    order[edge] = (min(ring[2 * edge], ring[2 * edge + 2]), edge)
                }
                order.sort { $0.left < $1.left }
                for rank in 0..<edgeCount {
                    let edge = order[rank].edge
                    let right = max(ring[2 * edge], ring[2 * edge + 2])
                    for next in (rank + 1)..<edgeCount {
                        guard order[next].left <= right else { break }
                        let (a, b) = (min(edge, order[next].edge), max(edge, order[next].edge))
                        if let along = crossing(ring, a, b) { return RingCrossing(first: a, second: b, along: along) }
                    }
                }
                return nil
            }
        }
    }

    /// Where edge `a` of `ring` properly crosses edge `b`, as the fraction along `a`; nil when they do not
    /// cross or only touch.
    private static func crossing(_ ring: UnsafeBufferPointer<Double>, _ a: Int, _ b: Int) -> Double? {
        crossing(
            ring[2 * a],
            ring[2 * a + 1],
            ring[2 * a + 2],
            ring[2 * a + 3],
            ring[2 * b],
            ring[2 * b + 1],
            ring[2 * b + 2],
            ring[2 * b + 3]
        )
    }

    /// Where the segment a–b properly crosses c–d, as the fraction along a–b; nil when they do not cross or
    /// only touch.
    private static func crossing(
        _ ax: Double,
        _ ay: Double,
        _ bx: Double,
        _ by: Double,
        _ cx: Double,
        _ cy: Double,
        _ dx: Double,
        _ dy: Double
    ) -> Double? {
        let side1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        let side2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
        let side3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)
        let side4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
        guard side1 * side2 < 0, side3 * side4 < 0 else { return nil }
        return side3 / (side3 - side4)
    }

    /// The error that names the two edges and where they cross, by the ring's own coordinates.
    func error(_ ring: [Coordinate], at path: [Int]) -> RegionGeometryError {
        let start = ring[first]
        let end = ring[first + 1]
        // Near, not exactly at: the point is interpolated in longitude and latitude along the first edge.
        let near = Coordinate(
            latitude: start.latitude + along * (end.latitude - start.latitude),
            longitude: start.longitude + along * (end.longitude - start.longitude)
        )
        return RegionGeometryError(
            code: .selfIntersecting,
            path: path,
            message: "\(RegionGeometryError.place(path)): the edge from position \(first + 1) to \(first + 2) "
                + "crosses the edge from position \(second + 1) to \(second + 2) near "
                + "\(RegionShape.geoJSON(rounded(near))): a ring must not cross itself; reorder its positions"
        )
    }

    /// Seven decimals of a degree: about a centimetre.
    private func rounded(_ coordinate: Coordinate) -> Coordinate {
        Coordinate(
            latitude: (coordinate.latitude * 1e7).rounded() / 1e7,
            longitude: (coordinate.longitude * 1e7).rounded() / 1e7
        )
    }
}
