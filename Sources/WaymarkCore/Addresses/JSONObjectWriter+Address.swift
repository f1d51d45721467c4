import WaymarkFormats

extension JSONObjectWriter {
    /// An address as an object with CLPlacemark's fields that the data has: `house_number`, `street`,
    /// `postcode`, `city`, `country`, and `distance` (metres, to the millimetre).
    mutating func address(_ key: StaticString, _ address: PostalAddress?) {
        guard let address else { return }
        object(key) { writer in
            if let houseNumber = address.houseNumber { writer.string("house_number", houseNumber) }
            writer.string("street", address.street)
            if let postcode = address.postcode { writer.string("postcode", postcode) }
            if let city = address.city { writer.string("city", city) }
            if let country = address.country { writer.string("country", country) }
            writer.number("distance", JSONObjectWriter.rounded(address.distance, places: 3))
        }
    }
}
