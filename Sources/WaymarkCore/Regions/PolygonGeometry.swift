/// A GeoJSON Polygon or MultiPolygon prepared for signed distances: every position projected once into the
/// ``ConformalGnomonic`` plane of the shape's reference point, where its geodesic edges are straight.
///
/// Inside is decided by the even-odd rule per polygon (outer ring and holes together, so the orientation
/// of the rings does not matter) and is the union over the polygons; the distance is the one to the
/// nearest edge of any ring, read in the metric of the plane at the point.
final class PolygonGeometry: Sendable {
    let frame: ConformalGnomonic
    /// x and y of every position, interleaved: ring after ring, polygon after polygon, each ring closed.
    let points: [Double]
    /// For each ring, the index (in positions) one past its last position.
    let ringEnds: [Int32]
    /// For each polygon, the index (in rings) one past its last ring.
    let polygonEnds: [Int32]
    /// The largest geodesic distance from the reference to a position, metres.
    let size: Double

    /// Beyond 60° from the reference on the conformal sphere the plane is not used: such a point is
    /// thousands of kilometres outside, and gets the lower bound of its distance from the reference less
    /// ``size``.
    static let farCosine = 0.5

    /// Prepares validated polygons (see ``RegionShape/validate()``); throws ``RegionGeometryError/Code/tooLarge``
    /// when a position lies more than `maximumSize` metres from the reference.
    init(_ polygons: [[[Coordinate]]], maximumSize: Double) throws(RegionGeometryError) {
        let reference = try Self.reference(of: polygons, maximumSize: maximumSize)
        let frame = ConformalGnomonic(reference: reference)
        var points: [Double] = []
        var ringEnds: [Int32] = []
        var polygonEnds: [Int32] = []
        points.reserveCapacity(2 * polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } })
        var largestSquare = 0.0
        for rings in polygons {
            for ring in rings {
                for position in ring {
                    let point = frame.project(position)
                    guard point.cosAngle > Self.farCosine else { throw Self.tooLarge(maximumSize, reference) }
                    points.append(point.x)
                    points.append(point.y)
                    largestSquare = max(largestSquare, point.x * point.x + point.y * point.y)
                }
                ringEnds.append(Int32(points.count / 2))
            }
            polygonEnds.append(Int32(ringEnds.count))
        }
        // The plane's radius grows with the geodesic distance (tan of the angle on a sphere whose scale is
        // 1 to within 10⁻⁶ here): the farthest positions are among those within 0.1 % of the largest radius.
        var size = 0.0
        var index = 0
        for rings in polygons {
            for ring in rings {
                for position in ring {
                    let x = points[2 * index]
                    let y = points[2 * index + 1]
                    if x * x + y * y >= largestSquare * 0.998 {
                        size = max(size, Geodesic.distance(from: reference, to: position))
                    }
                    index += 1
                }
            }
        }
        guard size <= maximumSize else { throw Self.tooLarge(maximumSize, reference, size: size) }
        var ringStart = 0
        var ringIndex = 0
        for (polygonIndex, rings) in polygons.enumerated() {
            for (index, ring) in rings.enumerated() {
                let ringEnd = Int(ringEnds[ringIndex])
                if let crossing = RingCrossing.first(in: points, positions: ringStart..<ringEnd) {
                    throw crossing.error(ring, at: [polygonIndex, index])
                }
                ringStart = ringEnd
                ringIndex += 1
            }
        }
        self.frame = frame
        self.points = points
        self.ringEnds = ringEnds
        self.polygonEnds = polygonEnds
        self.size = size
    }

    /// The normalized mean of the outer rings' vertices as unit vectors (their closing positions left out).
    private static func reference(
        of polygons: [[[Coordinate]]],
        maximumSize: Double
    ) throws(RegionGeometryError) -> Coordinate {
        var sum = (x: 0.0, y: 0.0, z: 0.0)
        var count = 0
        for rings in polygons {
            for position in rings[0].dropLast() {
                let (sinLatitude, cosLatitude) = Degrees.sincos(position.latitude)
                let (sinLongitude, cosLongitude) = Degrees.sincos(position.longitude)
                sum.x += cosLatitude * cosLongitude
                sum.y += cosLatitude * sinLongitude
                sum.z += sinLatitude
                count += 1
            }
        }
        let horizontal = (sum.x * sum.x + sum.y * sum.y).squareRoot()
        // Vertices within 500 km of a point have a mean vector longer than 0.99; far shorter means they
        // are spread over the globe, and the mean is no center.
        guard (horizontal * horizontal + sum.z * sum.z).squareRoot() > 0.9 * Double(count) else {
            throw RegionGeometryError(
                code: .tooLarge,
                message: "the polygons spread over a large part of the globe: their vertices must lie within "
                    + "\(kilometres(maximumSize)) of their center"
            )
        }
        return Coordinate(latitude: Degrees.atan2(sum.z, horizontal), longitude: Degrees.atan2(sum.y, sum.x))
    }

    private static func tooLarge(
        _ maximumSize: Double,
        _ reference: Coordinate,
        size: Double? = nil
    ) -> RegionGeometryError {
        let reach = size.map { "reach \(kilometres($0))" } ?? "reach more than 60° of arc"
        let rounded = Coordinate(
            latitude: (reference.latitude * 1e6).rounded() / 1e6,
            longitude: (reference.longitude * 1e6).rounded() / 1e6
        )
        return RegionGeometryError(
            code: .tooLarge,
            message: "the polygons \(reach) from their center \(RegionShape.geoJSON(rounded)): "
                + "at most \(kilometres(maximumSize)) is supported"
        )
    }

    private static func kilometres(_ metres: Double) -> String {
        let tenths = (metres / 100).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10) km"
    }

    /// Metres from `coordinate` to the nearest edge, negative inside, 0 on a vertex; NaN for a coordinate
    /// out of range.
    func signedDistance(to coordinate: Coordinate) -> Double {
        guard coordinate.latitude.isFinite, abs(coordinate.latitude) <= 90, coordinate.longitude.isFinite else {
            return .nan
        }
        let query = frame.project(coordinate)
        guard query.cosAngle > Self.farCosine else {
            return Geodesic.distance(from: frame.reference, to: coordinate) - size
        }
        let metric = frame.metric(atX: query.x, y: query.y)
        var nearestSquare = Double.infinity
        var inside = false
        points.withUnsafeBufferPointer { points in
            ringEnds.withUnsafeBufferPointer { ringEnds in
                var ring = 0
                var start = 0
                for polygonEnd in polygonEnds {
                    var odd = false
                    while ring < Int(polygonEnd) {
                        let end = Int(ringEnds[ring])
                        // Positions relative to the query point, in metres of its tangent plane.
                        var dy = points[2 * start + 1] - query.y
                        var ax = metric.xx * (points[2 * start] - query.x) + metric.xy * dy
                        var ay = metric.yy * dy
                        for index in (start + 1)..<end {
                            dy = points[2 * index + 1] - query.y
                            let bx = metric.xx * (points[2 * index] - query.x) + metric.xy * dy
                            let by = metric.yy * dy
                            // Even-odd: the edge crosses the positive x axis (half-open in y).
                            if (ay > 0) != (by > 0), (ax * by - bx * ay > 0) == (by > ay) { odd.toggle() }
                            // The nearest point of the edge, unless its bounding box is farther than the best.
                            let gapX = max(min(ax, bx), -max(ax, bx), 0)
                            let gapY = max(min(ay, by), -max(ay, by), 0)
                            if gapX * gapX + gapY * gapY < nearestSquare {
                                nearestSquare = min(nearestSquare, Self.squaredDistanceFromOrigin(ax, ay, bx, by))
                            }
                            ax = bx
                            ay = by
                        }
                        start = end
                        ring += 1
                    }
                    if odd { inside = true }
                }
            }
        }
        let distance = nearestSquare.squareRoot()
        return inside ? 0 - distance : distance
    }

    /// The squared distance from (0, 0) to the segment from (`ax`, `ay`) to (`bx`, `by`).
    @inline(__always)
    private static func squaredDistanceFromOrigin(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let ex = bx - ax
        let ey = by - ay
        let length = ex * ex + ey * ey
        let t = length > 0 ? min(max(-(ax * ex + ay * ey) / length, 0), 1) : 0
        let x = ax + t * ex
        let y = ay + t * ey
        return x * x + y * y
    }
}
