/// A street address as OpenStreetMap tags it, Core Location's placemark fields where the data has them:
/// `Kaivokatu 1, 00100 Helsinki`. A street without a house number (`Kaivokatu, Helsinki`) when the nearest
/// thing named is a street.
public struct PostalAddress: Hashable, Sendable {
    /// `addr:housenumber` (CLPlacemark's `subThoroughfare`); nil for a street.
    public var houseNumber: String?
    /// `addr:street` or `addr:place`, or the highway's `name` (`thoroughfare`).
    public var street: String
    /// `addr:postcode` (`postalCode`).
    public var postcode: String?
    /// `addr:city` (`locality`); for a street, the nearest populated place's name.
    public var city: String?
    /// `addr:country`, ISO 3166-1 alpha-2 as tagged (`isoCountryCode`).
    public var country: String?
    /// Metres along the geodesic from the position to the address's point or the street's nearest point.
    public var distance: Double

    public init(
        houseNumber: String? = nil,
        street: String,
        postcode: String? = nil,
        city: String? = nil,
        country: String? = nil,
        distance: Double
    ) {
        self.houseNumber = houseNumber
        self.street = street
        self.postcode = postcode
        self.city = city
        self.country = country
        self.distance = distance
    }

    /// For a person, street then number as across most of OpenStreetMap's Europe: `Kaivokatu 1, 00100 Helsinki`,
    /// `Kaivokatu, Helsinki`.
    public var description: String {
        var line = street
        if let houseNumber { line += " \(houseNumber)" }
        let locality = [postcode, city].compactMap { $0 }.joined(separator: " ")
        return locality.isEmpty ? line : "\(line), \(locality)"
    }
}
