extension RegionShape {
    /// Metres from `coordinate` to the boundary: negative inside, positive outside, 0 on it (a point on the
    /// boundary is inside). See ``PreparedRegion`` for how circles and polygons are measured.
    ///
    /// A polygon is prepared anew on every call (every position projected); a monitor that asks again and
    /// again holds ``PreparedRegion``s instead. NaN for a shape that does not validate or a coordinate out
    /// of range.
    public func signedDistance(to coordinate: Coordinate) -> Double {
        switch self {
        case .circle(let center, let radius):
            guard (try? validate()) != nil else { return .nan }
            return Geodesic.distance(from: center, to: coordinate) - radius
        case .polygons:
            let prepared = try? PreparedRegion(Region(id: "", shape: self))
            return prepared?.signedDistance(to: coordinate) ?? .nan
        }
    }
}
