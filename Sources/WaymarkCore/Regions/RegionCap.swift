/// A cap on the sphere of unit normals that holds every point a region's query must consider: a center
/// (as the unit vector of its geodetic latitude and longitude) and an angle.
///
/// Along any path on the ellipsoid the normal turns by at most the path's length over the smallest radius
/// of curvature, a (1 - e²) = 6,335,439 m (the meridian's, at the equator); so two points s metres apart
/// have normals at most s / 6,335,439 m radians apart, and a cap of that angle around a region's center
/// holds every point within s metres of it, whatever the latitude. The cap test compares the chord
/// between the normals (never longer than the angle) with the angle: one subtraction, three products.
struct RegionCap: Hashable, Sendable {
    var x: Double
    var y: Double
    var z: Double
    /// Radians.
    var angle: Double

    /// a (1 - e²), metres: no geodesic turns the normal faster than one radian per this length.
    static let smallestRadiusOfCurvature = WGS84.equatorialRadius * (1 - WGS84.flattening * (2 - WGS84.flattening))

    init(x: Double, y: Double, z: Double, angle: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.angle = angle
    }

    /// The cap of the points within `distance` metres of `center`.
    init(around center: Coordinate, distance: Double) {
        (x, y, z) = Self.normal(center)
        angle = Self.angle(distance)
    }

    /// The angle between the normals of two points `distance` metres apart, at most.
    static func angle(_ distance: Double) -> Double { distance / smallestRadiusOfCurvature }

    /// The unit vector of a geodetic latitude and longitude: the ellipsoid's normal there.
    static func normal(_ coordinate: Coordinate) -> (x: Double, y: Double, z: Double) {
        let (sinLatitude, cosLatitude) = Degrees.sincos(coordinate.latitude)
        let (sinLongitude, cosLongitude) = Degrees.sincos(coordinate.longitude)
        return (cosLatitude * cosLongitude, cosLatitude * sinLongitude, sinLatitude)
    }

    /// Whether a point with the unit normal `normal` may lie within the cap widened by `margin` radians.
    @inline(__always)
    func admits(_ normal: (x: Double, y: Double, z: Double), widenedBy margin: Double) -> Bool {
        let dx = normal.x - x
        let dy = normal.y - y
        let dz = normal.z - z
        let reach = angle + margin
        return dx * dx + dy * dy + dz * dz <= reach * reach
    }
}
