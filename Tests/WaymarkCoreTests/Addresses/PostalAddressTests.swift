import Testing
import WaymarkCore

/// An address for a person in its country's order: the number before or after the street, the postcode
/// before or after the city; the country the address's own, else the populated place's.
@Suite struct PostalAddressTests {
    @Test(
        arguments: [
            ("FI", nil, "Kaivokatu 1, 00100 Helsinki"),
            ("DE", nil, "Kaivokatu 1, 00100 Helsinki"),
            (nil, nil, "Kaivokatu 1, 00100 Helsinki"),
            ("US", nil, "1 Kaivokatu, Helsinki 00100"),
            ("us", nil, "1 Kaivokatu, Helsinki 00100"),
            ("GB", nil, "1 Kaivokatu, Helsinki 00100"),
            ("FR", nil, "1 Kaivokatu, 00100 Helsinki"),
            // No addr:country: the populated place's country decides.
            (nil, "US", "1 Kaivokatu, Helsinki 00100"),
            // The address's own country wins over the populated place's (a border).
            ("LI", "CH", "Kaivokatu 1, 00100 Helsinki"),
            ("FR", "CH", "1 Kaivokatu, 00100 Helsinki"),
        ] as [(String?, String?, String)]
    )
    func order(own: String?, near: String?, expected: String) {
        let address = PostalAddress(
            houseNumber: "1",
            street: "Kaivokatu",
            postcode: "00100",
            city: "Helsinki",
            country: own,
            distance: 3
        )
        let place = Place(address: address, near: near.map { Place(name: "X", country: $0, distance: 900) })
        #expect(place.name == expected)
        #expect(place.description == expected)
    }

    @Test func theSeedsExample() {
        let address = PostalAddress(houseNumber: "1", street: "Infinite Loop", city: "Cupertino", distance: 0)
        #expect(address.description(country: "US") == "1 Infinite Loop, Cupertino")
        #expect(
            PostalAddress(street: "Infinite Loop", city: "Cupertino", distance: 0).description(country: "US")
                == "Infinite Loop, Cupertino"
        )
    }
}
