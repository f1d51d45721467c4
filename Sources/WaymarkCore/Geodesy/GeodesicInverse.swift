/// The solution of the inverse geodesic problem: the shortest path between two points on WGS84.
///
/// Azimuths are in degrees clockwise from true north, -180 ... 180, as GeographicLib reports `azi1` and
/// `azi2`. Where the points do not define a direction (coincident points, a pole) they follow
/// GeographicLib's conventions: see ``Geodesic/inverse(from:to:)``.
public struct GeodesicInverse: Hashable, Sendable {
    /// Length of the geodesic, metres; NaN when an input is out of range.
    public var distance: Double
    /// Direction of the geodesic at the start point, degrees clockwise from north.
    public var initialAzimuth: Double
    /// Direction of the geodesic at the end point (the forward direction, not the way back), degrees.
    public var finalAzimuth: Double

    public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
        self.distance = distance
        self.initialAzimuth = initialAzimuth
        self.finalAzimuth = finalAzimuth
    }

    /// The answer for inputs out of range: every field NaN.
    public static let undefined = GeodesicInverse(distance: .nan, initialAzimuth: .nan, finalAzimuth: .nan)
}
