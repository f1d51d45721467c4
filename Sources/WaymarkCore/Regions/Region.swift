/// A monitored region (Core Location's `CLRegion`): a circle or a polygon with an identifier.
public struct Region: Hashable, Sendable {
    /// Unique among the monitored regions; adding a region with an existing id replaces it.
    public var id: String
    public var name: String?
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    public var shape: RegionShape
    /// The speed limit inside the region, km/h (the region file's `speed_limit`); it wins over `[driving]
    /// overspeed_limit` there. Nil: none.
    public var speedLimitKmh: Double?

    public init(
        id: String,
        name: String? = nil,
        notifyOnEntry: Bool = true,
        notifyOnExit: Bool = true,
        shape: RegionShape,
        speedLimitKmh: Double? = nil
    ) {
        self.id = id
        self.name = name
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.shape = shape
        self.speedLimitKmh = speedLimitKmh
    }
}

/// The area of a region.
public enum RegionShape: Hashable, Sendable {
    /// Every point within `radius` metres (geodesic) of `center`.
    case circle(center: Coordinate, radius: Double)
    /// One or more polygons (a GeoJSON Polygon or MultiPolygon): each polygon is its outer ring followed by
    /// its holes; each ring a closed list of vertices (the first repeated as the last, as GeoJSON has it).
    case polygons([[[Coordinate]]])
}
