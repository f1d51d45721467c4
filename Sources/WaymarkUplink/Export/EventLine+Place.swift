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
            bearing: number(key + ".bearing")
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
