import WaymarkCore

extension EventLine {
    /// The place object `key` holds (a trip's `start_place`, a pause's `place`); nil when absent.
    public func place(_ key: String) -> Place? {
        guard let name = string(key + ".name"), let distance = number(key + ".distance") else { return nil }
        return Place(
            name: name,
            site: string(key + ".site"),
            country: string(key + ".country"),
            geonameID: number(key + ".geonameid").flatMap { UInt32(exactly: $0) },
            admin1: string(key + ".admin1"),
            timezone: string(key + ".timezone"),
            distance: distance,
            bearing: number(key + ".bearing"),
            address: address(key + ".address")
        )
    }

    /// The street address object `key` holds (a place's `address`); nil when absent, so that a place named by
    /// its address is described by it again (`Kaivokatu 1, 00100 Helsinki`), not as a populated place.
    func address(_ key: String) -> PostalAddress? {
        guard let street = string(key + ".street"), let distance = number(key + ".distance") else { return nil }
        return PostalAddress(
            houseNumber: string(key + ".house_number"),
            street: street,
            postcode: string(key + ".postcode"),
            city: string(key + ".city"),
            country: string(key + ".country"),
            distance: distance
        )
    }

    /// A trip's `start_place` and `end_place` names, `Regensburg → Kelheim` (`?` for one without); nil when the
    /// trip names neither.
    public var route: String? {
        let start = place("start_place")
        let end = place("end_place")
        guard start != nil || end != nil else { return nil }
        return "\(start?.name ?? "?") → \(end?.name ?? "?")"
    }
}
