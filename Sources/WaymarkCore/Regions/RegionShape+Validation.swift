extension RegionShape {
    /// The number of polygon vertices, each ring's closing position (the repeat of its first) not counted;
    /// 0 for a circle. What a `max_vertices` limit applies to.
    public var vertexCount: Int {
        switch self {
        case .circle: 0
        case .polygons(let polygons):
            polygons.reduce(0) { total, rings in rings.reduce(total) { $0 + max($1.count - 1, 0) } }
        }
    }

    /// Checks what can be checked without projecting: finite coordinates, latitudes within ±90° and
    /// longitudes within ±180°, a finite radius above 0, at least one polygon, every polygon with an outer
    /// ring, every ring with at least 4 positions and closed. Throws the first problem.
    ///
    /// Not checked here: self-intersecting rings (``PreparedRegion/init(_:)`` finds those in its projection,
    /// where the edges are straight), holes outside their outer ring, overlapping polygons, the orientation of
    /// the rings (the even-odd rule makes it irrelevant). ``PreparedRegion/init(_:)`` runs this and then
    /// checks the size.
    public func validate() throws(RegionGeometryError) {
        switch self {
        case .circle(let center, let radius):
            try Self.validate(center, at: [], named: "center")
            guard radius.isFinite, radius > 0 else {
                throw RegionGeometryError(
                    code: .invalidRadius,
                    message: "radius \(radius): must be a finite number of metres above 0"
                )
            }
        case .polygons(let polygons):
            guard !polygons.isEmpty else {
                throw RegionGeometryError(code: .emptyShape, message: "no polygon: a shape needs at least one")
            }
            for (polygonIndex, rings) in polygons.enumerated() {
                guard !rings.isEmpty else {
                    throw RegionGeometryError(
                        code: .emptyShape,
                        path: [polygonIndex],
                        message: "\(RegionGeometryError.place([polygonIndex])): no ring: a polygon needs its outer ring"
                    )
                }
                for (ringIndex, ring) in rings.enumerated() {
                    try Self.validate(ring, at: [polygonIndex, ringIndex])
                }
            }
        }
    }

    private static func validate(_ ring: [Coordinate], at path: [Int]) throws(RegionGeometryError) {
        for (index, position) in ring.enumerated() where problem(with: position) != nil {
            try validate(position, at: path + [index], named: RegionGeometryError.place(path + [index]))
        }
        guard ring.count >= 4 else {
            throw RegionGeometryError(
                code: .malformedRing,
                path: path,
                message: "\(RegionGeometryError.place(path)): \(ring.count) positions: "
                    + "a ring needs at least 4, the first repeated as the last"
            )
        }
        guard let first = ring.first, let last = ring.last, first == last else {
            throw RegionGeometryError(
                code: .malformedRing,
                path: path,
                message: "\(RegionGeometryError.place(path)): not closed: the last position "
                    + "\(geoJSON(ring[ring.count - 1])) must repeat the first \(geoJSON(ring[0]))"
            )
        }
    }

    private static func validate(
        _ coordinate: Coordinate,
        at path: [Int],
        named name: String
    ) throws(RegionGeometryError) {
        if let problem = problem(with: coordinate) {
            throw RegionGeometryError(code: .invalidCoordinate, path: path, message: "\(name): \(problem)")
        }
    }

    /// What is wrong with `coordinate`, or nil.
    private static func problem(with coordinate: Coordinate) -> String? {
        let latitude = coordinate.latitude
        let longitude = coordinate.longitude
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            return "latitude \(latitude): must be within -90 ... 90 degrees"
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            return "longitude \(longitude): must be within -180 ... 180 degrees"
        }
        return nil
    }

    /// `[longitude, latitude]`, the order of a GeoJSON position.
    static func geoJSON(_ coordinate: Coordinate) -> String { "[\(coordinate.longitude), \(coordinate.latitude)]" }
}
