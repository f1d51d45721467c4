extension Location {
    /// Where the fix is, for geodesy.
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// The geodesic distance in metres to another fix, on the WGS84 ellipsoid.
    public func distance(to other: Location) -> Double {
        Geodesic.distance(from: coordinate, to: other.coordinate)
    }
}
