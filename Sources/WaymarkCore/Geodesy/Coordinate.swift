/// A point on the WGS84 ellipsoid: geodetic latitude and longitude in degrees.
public struct Coordinate: Hashable, Sendable {
    /// Degrees north, -90 ... 90.
    public var latitude: Double
    /// Degrees east; any finite value (it is reduced modulo 360).
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
