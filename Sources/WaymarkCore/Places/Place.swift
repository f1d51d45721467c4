/// Where a position is, for a person: an operator's site, or the nearest populated place of the gazetteer
/// with the distance and direction from it (`3.2 km NE of Kelheim, DE`).
public struct Place: Hashable, Sendable {
    /// The site's name (the region's `name`), or the place's.
    public var name: String
    /// The id of the region, when the place is an operator's site.
    public var site: String?
    /// ISO 3166-1 alpha-2 of a gazetteer place; nil for a site.
    public var country: String?
    /// GeoNames' id of a gazetteer place.
    public var geonameID: UInt32?
    /// The first-level division's GeoNames code, of a gazetteer place.
    public var admin1: String?
    /// The IANA time zone of a gazetteer place.
    public var timezone: String?
    /// Metres: from the place to the position along the geodesic; from a site's boundary (0 inside it).
    public var distance: Double
    /// Degrees clockwise from true north, 0 ..< 360, of the geodesic from the place to the position; nil for a
    /// site, and at the place itself.
    public var bearing: Double?
    /// The street address or the street, when the position is near one of the address file's.
    public var address: PostalAddress?

    public init(
        name: String,
        site: String? = nil,
        country: String? = nil,
        geonameID: UInt32? = nil,
        admin1: String? = nil,
        timezone: String? = nil,
        distance: Double,
        bearing: Double? = nil,
        address: PostalAddress? = nil
    ) {
        self.name = name
        self.site = site
        self.country = country
        self.geonameID = geonameID
        self.admin1 = admin1
        self.timezone = timezone
        self.distance = distance
        self.bearing = bearing
        self.address = address
    }

    /// The place of `address`, with the country (unless the address has its own), the admin1 code and the time
    /// zone of the nearest populated place `near`.
    public init(address: PostalAddress, near: Place?) {
        self.init(
            name: address.description(country: address.country ?? near?.country),
            country: address.country ?? near?.country,
            admin1: near?.admin1,
            timezone: near?.timezone,
            distance: address.distance,
            address: address
        )
    }

    /// For a person: `Kaivokatu 1, 00100 Helsinki`, `Kaivokatu, Helsinki`, `at Depot North`, `200 m from Depot North`, `in Kelheim, DE`, `3.2 km NE of Kelheim, DE`.
    public var description: String {
        if let address { return address.description(country: country) }
        if site != nil {
            return distance <= 0 ? "at \(name)" : "\(Self.length(distance)) from \(name)"
        }
        let named = country.map { "\(name), \($0)" } ?? name
        guard distance >= Self.withinPlace, let bearing else { return "in \(named)" }
        return "\(Self.length(distance)) \(Self.compassPoint(bearing)) of \(named)"
    }

    /// Closer than this to a populated place's point (its centre), a position is said to be in it.
    public static let withinPlace = 200.0

    /// `40 m`, `850 m`, `3.2 km`, `18 km`: two significant digits at most, never "0 m".
    static func length(_ metres: Double) -> String {
        if metres < 995 { return "\(max(10, Int((metres / 10).rounded()) * 10)) m" }
        let kilometres = metres / 1000
        if kilometres < 9.95 { return "\((kilometres * 10).rounded() / 10) km" }
        return "\(Int(kilometres.rounded())) km"
    }

    /// N, NE, E, SE, S, SW, W or NW for a bearing in degrees.
    static func compassPoint(_ bearing: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let sector = Int((bearing / 45).rounded()) % 8
        return points[(sector + 8) % 8]
    }
}
