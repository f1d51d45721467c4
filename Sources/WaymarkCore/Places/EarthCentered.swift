import Glibc

/// A point on the WGS84 ellipsoid in earth-centred, earth-fixed coordinates, metres.
///
/// The straight line between two points on the ellipsoid is never longer than the geodesic between them, so
/// the chord is a rigorous lower bound of the geodesic distance: what the gazetteer's search prunes with.
struct EarthCentered: Hashable, Sendable {
    var x: Double
    var y: Double
    var z: Double

    /// The point of the ellipsoid (height 0) at `coordinate`.
    init(_ coordinate: Coordinate) {
        let latitude = Degrees.sincos(coordinate.latitude)
        let longitude = Degrees.sincos(coordinate.longitude)
        let primeVertical =
            WGS84.equatorialRadius
            / (1 - Self.eccentricitySquared * latitude.sin * latitude.sin)
            .squareRoot()
        x = primeVertical * latitude.cos * longitude.cos
        y = primeVertical * latitude.cos * longitude.sin
        z = primeVertical * (1 - Self.eccentricitySquared) * latitude.sin
    }

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The coordinate along `axis`: 0 is x, 1 y, 2 z.
    subscript(axis: Int) -> Double { axis == 0 ? x : axis == 1 ? y : z }

    /// The square of the chord to `other`, metres².
    func squaredChord(to other: EarthCentered) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return dx * dx + dy * dy + dz * dz
    }

    /// e² = f (2 - f).
    static let eccentricitySquared = WGS84.flattening * (2 - WGS84.flattening)
}
