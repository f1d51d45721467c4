/// The limits on monitored regions (`[regions] max_regions`, `max_radius`, `max_vertices`).
public struct RegionLimits: Hashable, Sendable {
    public var maxRegions: Int
    /// Metres: a circle's radius, a polygon's reach from its reference point (``PreparedRegion/size``).
    public var maxRadius: Double
    /// Positions over all the rings of a polygon region, each ring's closing repeat not counted.
    public var maxVertices: Int

    public init(maxRegions: Int = 100_000, maxRadius: Double = 100_000, maxVertices: Int = 1_000) {
        self.maxRegions = maxRegions
        self.maxRadius = maxRadius
        self.maxVertices = maxVertices
    }
}

/// A region that is not monitored, and why: one `region_monitoring_failure` error each.
public struct RegionRefusal: Hashable, Sendable {
    public var id: String
    public var reason: String

    public init(id: String, reason: String) {
        self.id = id
        self.reason = reason
    }
}

extension RegionIndex {
    /// An index of the regions that are well-formed and within `limits`, in order (a later region with an
    /// id that came before replaces it), and the refusals of the others; the regions beyond
    /// `maxRegions` are refused too.
    public static func monitoring(
        _ regions: [Region],
        within limits: RegionLimits
    ) -> (index: RegionIndex, refusals: [RegionRefusal]) {
        var index = RegionIndex()
        var refusals: [RegionRefusal] = []
        for region in regions {
            if index.slot(of: region.id) == nil, index.count >= limits.maxRegions {
                refusals.append(RegionRefusal(id: region.id, reason: "more than max_regions = \(limits.maxRegions)"))
                continue
            }
            let vertices = region.shape.vertexCount
            if vertices > limits.maxVertices {
                refusals.append(
                    RegionRefusal(
                        id: region.id,
                        reason: "\(vertices) vertices: more than max_vertices = \(limits.maxVertices)"
                    )
                )
                continue
            }
            let prepared: PreparedRegion
            do {
                prepared = try PreparedRegion(region)
            } catch {
                refusals.append(RegionRefusal(id: region.id, reason: error.description))
                continue
            }
            guard prepared.size <= limits.maxRadius else {
                let size = (prepared.size * 10).rounded() / 10
                refusals.append(
                    RegionRefusal(
                        id: region.id,
                        reason: "it reaches \(size) m: more than max_radius = \(limits.maxRadius) m"
                    )
                )
                continue
            }
            _ = index.insert(prepared)
        }
        return (index, refusals)
    }
}
