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

    /// For a person, in the order of the address's own ``country``: ``description(country:)``.
    public var description: String { description(country: country) }

    /// For a person, in the order of `country` (ISO 3166-1 alpha-2; the address's own, else the populated
    /// place's): street then number, postcode then city, as across most of Europe (`Kaivokatu 1, 00100
    /// Helsinki`); the number first in ``numberFirst`` (`1 Rue de Rivoli, 75001 Paris`), and the postcode
    /// after the city in ``postcodeLast`` (`1 Infinite Loop, Cupertino 95014`).
    public func description(country: String?) -> String {
        let code = country?.uppercased() ?? ""
        var line = street
        if let houseNumber {
            line = Self.numberFirst.contains(code) ? "\(houseNumber) \(street)" : "\(street) \(houseNumber)"
        }
        let parts = Self.postcodeLast.contains(code) ? [city, postcode] : [postcode, city]
        let locality = parts.compactMap { $0 }.joined(separator: " ")
        return locality.isEmpty ? line : "\(line), \(locality)"
    }

    /// Countries whose addresses put the house number before the street: the English-speaking ones, France
    /// with its overseas departments (codes of their own), and Luxembourg.
    public static let numberFirst: Set<String> = [
        "US", "GB", "IE", "CA", "AU", "NZ", "FR", "GP", "MQ", "GF", "RE", "YT", "LU",
    ]
    /// Countries whose addresses put the postcode after the city.
    public static let postcodeLast: Set<String> = ["US", "GB", "IE", "CA", "AU", "NZ"]
}
