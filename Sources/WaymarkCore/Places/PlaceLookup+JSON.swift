import WaymarkFormats

extension PlaceLookup {
    /// `waymark geo place --json`: one object, without a newline.
    ///
    /// A gazetteer place: `geonameid`, `name`, `country`, `admin1`, `timezone`, `distance` (metres, to the
    /// millimetre), `bearing` (degrees from the place to the point, to 1e-6°; absent at the place itself) and
    /// `description` (`3.2 km NE of Kelheim, DE`). A site: `site` (the region's id), `name`, `distance` from
    /// its boundary (0 inside) and `description`. An address or a street: `address` too (``PostalAddress``:
    /// `house_number`, `street`, `postcode`, `city`, `country`, `distance`), with `name` and `description` the
    /// address for a person, and `country`, `admin1` and `timezone` of the nearest populated place. No place: `{"place":null,"reason":…}`.
    public var json: String {
        var buffer: [UInt8] = []
        JSONObjectWriter.write(into: &buffer) { writer in
            switch self {
            case .found(let place):
                if let site = place.site { writer.string("site", site) }
                if let id = place.geonameID { writer.integer("geonameid", Int64(id)) }
                writer.string("name", place.name)
                if let country = place.country { writer.string("country", country) }
                if let admin1 = place.admin1 { writer.string("admin1", admin1) }
                if let timezone = place.timezone { writer.string("timezone", timezone) }
                writer.number("distance", JSONObjectWriter.rounded(place.distance, places: 3))
                writer.number("bearing", place.bearing.map { JSONObjectWriter.rounded($0, places: 6) })
                writer.string("description", place.description)
                writer.address("address", place.address)
            case .tooFar, .none:
                writer.null("place")
                writer.string("reason", reason)
            }
        }
        return String(decoding: buffer.dropLast(), as: UTF8.self)
    }

    /// Why there is no place, for a person; empty when there is one.
    public var reason: String {
        switch self {
        case .found: ""
        case .tooFar(let nearest, let maxDistance):
            "no populated place within \(Place.length(maxDistance)) ([places] max_distance): the nearest, "
                + "\(nearest.name), \(nearest.country ?? "?"), is \(Place.length(nearest.distance)) away"
        case .none: "no gazetteer and no site"
        }
    }
}
