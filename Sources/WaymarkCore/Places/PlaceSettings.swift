/// How positions are named (`[places]`): how far a populated place may be, and how near a site.
public struct PlaceSettings: Hashable, Sendable {
    /// Farther than this (metres) from every populated place, a position has no place: at sea, in a desert.
    public var maxDistance: Double
    /// Within this many metres of a site's boundary, a position is named after the site (`200 m from Depot North`).
    public var siteRadius: Double

    public init(maxDistance: Double = 50_000, siteRadius: Double = 500) {
        self.maxDistance = maxDistance
        self.siteRadius = siteRadius
    }
}
