import Glibc

extension Geodesic {
    /// Whether the geodesic distance from `start` to `end` is at least `threshold` metres, decided as
    /// ``distance(from:to:)`` would decide it, at a fraction of the cost for nearby points.
    ///
    /// A location filter compares every fix with a threshold of tens or hundreds of metres. For points
    /// less than 0.1° apart, away from the poles, the plane of the ellipsoid's local radii of curvature at
    /// the mean latitude gives the distance to better than 1e-6 of itself (the tests check it against
    /// Karney's solution); only when that estimate is within ``thresholdMargin`` of the threshold is the
    /// full solution computed.
    public static func isDistance(from start: Coordinate, to end: Coordinate, atLeast threshold: Double) -> Bool {
        if let estimate = localDistance(from: start, to: end) {
            if estimate < threshold * (1 - thresholdMargin) { return false }
            if estimate > threshold * (1 + thresholdMargin) { return true }
        }
        return distance(from: start, to: end) >= threshold
    }

    /// The relative margin around a threshold inside which the local estimate is not trusted: a hundred
    /// times its worst error.
    static let thresholdMargin = 1e-4

    /// The distance in the tangent plane of the mean latitude, scaled by the meridian radius M and the
    /// prime-vertical radius N there; nil outside the region where it is within 1e-6 of the geodesic
    /// (points 0.1° apart or more, a latitude beyond ±80°, inputs out of range).
    static func localDistance(from start: Coordinate, to end: Coordinate) -> Double? {
        let deltaLatitude = end.latitude - start.latitude
        var deltaLongitude = end.longitude - start.longitude
        if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude < -180 { deltaLongitude += 360 }
        guard abs(deltaLatitude) < 0.1, abs(deltaLongitude) < 0.1, abs(start.latitude) <= 80,
            abs(end.latitude) <= 80
        else { return nil }
        let radians = Double.pi / 180
        let latitude = (start.latitude + end.latitude) / 2 * radians
        let sine = sin(latitude)
        let w = 1 - eccentricitySquared * sine * sine
        let primeVertical = WGS84.equatorialRadius / w.squareRoot()
        let meridian = primeVertical * (1 - eccentricitySquared) / w
        let north = meridian * deltaLatitude * radians
        let east = primeVertical * cos(latitude) * deltaLongitude * radians
        return (north * north + east * east).squareRoot()
    }

    /// e² = f (2 - f).
    private static let eccentricitySquared = WGS84.flattening * (2 - WGS84.flattening)
}
