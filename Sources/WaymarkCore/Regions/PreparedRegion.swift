/// A region checked and prepared once for ``signedDistance(to:)``, the query a region monitor makes for
/// every fix near it.
///
/// **Circles** are exact on the ellipsoid: the geodesic distance to the center (Karney's algorithm, see
/// ``Geodesic``) less the radius, so a circle across the antimeridian or around a pole needs nothing
/// special.
///
/// **Polygons** have geodesic edges, like the circles: an edge is the shortest path between its ends on
/// WGS84, so a polygon across the antimeridian needs no splitting, and a polygon around a pole works (it
/// is an ordinary point of the projection below). The edges are computed as straight lines in the gnomonic
/// projection of Gauss's conformal sphere centered on the polygon's reference point (``center``), where a
/// geodesic is straight to within 0.02 mm at 50 km from the center, 0.3 mm at 100 km, 1.3 cm at 250 km and
/// 19 cm at ``maximumPolygonSize``, 500 km (the fourth power of the size). That plane keeps point-in-polygon
/// an exact even-odd count and costs one projection per query; the distance to the nearest edge is read
/// in the plane's metric at the point, exact there, so that it errs by the bow above plus h² ρ / R² for a
/// point h metres from an edge of a polygon of size ρ (R the earth's radius): for a polygon up to 100 km
/// from its center, 0.3 mm within 100 m of an edge, 3 mm at 1 km, 25 cm at 10 km. Planar lines in
/// longitude and latitude (RFC 7946's reading of GeoJSON) would bow up to 230 m away from the geodesic on
/// a 100 km east-west edge at 50° N; straight lines in an azimuthal equidistant projection or the tangent
/// plane about the center, 0.4 or 0.6 m at 50 km from it and 3 or 5 m at 100 km.
///
/// It keeps what monitoring needs: the region's id, name and notification flags, and the prepared
/// geometry; not the polygons' coordinates, which a caller that needs them keeps in the ``Region``.
///
/// Pure and immutable: safe to share between threads.
public struct PreparedRegion: Sendable {
    /// The region's id.
    public let id: String
    public let name: String?
    public let notifyOnEntry: Bool
    public let notifyOnExit: Bool
    /// The region file's `speed_limit` in tenths of a km/h, 0 for none: two bytes in the padding after the flags,
    /// so a region still takes 72 bytes in the index.
    private let speedLimitTenths: UInt16
    /// The circle's center, or the polygon's reference point: the normalized mean of the unit vectors of
    /// its outer rings' vertices, the point of tangency of its projection.
    public let center: Coordinate
    /// Every point of the region and of its boundary lies within `size` metres (geodesic) of ``center``:
    /// the circle's radius, or the largest distance from the reference point to a polygon's vertex. What a
    /// `max_radius` limit applies to.
    public let size: Double
    /// The polygons' geometry; nil for a circle.
    let polygons: PolygonGeometry?

    /// The largest polygon supported, as a distance from its reference point to its farthest vertex: 500 km,
    /// where the edges are straight in the projection to within 19 cm.
    public static let maximumPolygonSize = 500_000.0

    /// Checks the shape (``RegionShape/validate()``) and prepares it: a circle as it is, a polygon
    /// projected (about 0.15 µs per position).
    ///
    /// - Throws: ``RegionGeometryError`` for a shape that cannot be monitored; its message says what is
    ///   wrong, where, and what is allowed: a ring that crosses itself names the two edges and where they
    ///   cross. Rings that only touch, holes outside their ring and overlapping polygons are not detected
    ///   (they give the even-odd rule's answer).
    public init(_ region: Region) throws(RegionGeometryError) {
        try region.shape.validate()
        switch region.shape {
        case .circle(let center, let radius):
            self.center = center
            self.size = radius
            self.polygons = nil
        case .polygons(let polygons):
            let geometry = try PolygonGeometry(polygons, maximumSize: Self.maximumPolygonSize)
            self.center = geometry.frame.reference
            self.size = geometry.size
            self.polygons = geometry
        }
        self.id = region.id
        self.name = region.name
        self.notifyOnEntry = region.notifyOnEntry
        self.notifyOnExit = region.notifyOnExit
        self.speedLimitTenths = region.speedLimitKmh.map { UInt16(min(max(($0 * 10).rounded(), 1), 65_535)) } ?? 0
    }

    /// km/h, the region file's `speed_limit` to a tenth; nil: none.
    public var speedLimitKmh: Double? { speedLimitTenths == 0 ? nil : Double(speedLimitTenths) / 10 }

    /// Whether the region is a circle (else one or more polygons).
    public var isCircle: Bool { polygons == nil }

    /// Metres from `coordinate` to the region's boundary: negative inside, positive outside, 0 on it (a
    /// point on the boundary is inside).
    ///
    /// NaN for a coordinate out of range (a latitude beyond ±90° or a value not finite). For a polygon, a
    /// point more than 60° of arc from its center gets a lower bound of its distance instead (the distance
    /// to the center less ``size``): still positive, and no monitor asks for it.
    public func signedDistance(to coordinate: Coordinate) -> Double {
        if let polygons { return polygons.signedDistance(to: coordinate) }
        return Geodesic.distance(from: center, to: coordinate) - size
    }
}
