/// How positions are named (`[places]`): how far a populated place may be, how near a site, an address and a
/// street.
public struct PlaceSettings: Hashable, Sendable {
    /// Farther than this (metres) from every populated place, a position has no place: at sea, in a desert.
    public var maxDistance: Double
    /// Within this many metres of a site's boundary, a position is named after the site (`200 m from Depot North`).
    public var siteRadius: Double
    /// Within this many metres of an address's point, a position is named by the address.
    public var addressRadius: Double
    /// Within this many metres of a named street (and no address that near), a position is named by the street.
    public var streetRadius: Double

    public init(
        maxDistance: Double = 50_000,
        siteRadius: Double = 500,
        addressRadius: Double = 50,
        streetRadius: Double = 100
    ) {
        self.maxDistance = maxDistance
        self.siteRadius = siteRadius
        self.addressRadius = addressRadius
        self.streetRadius = streetRadius
    }
}
