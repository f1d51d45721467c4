/// Names positions: the operator's sites first (regions with a `name`), then the nearest street address
/// within ``PlaceSettings/addressRadius``, the nearest named street within ``PlaceSettings/streetRadius``,
/// then the nearest populated place of the gazetteer within ``PlaceSettings/maxDistance``. Core Location's
/// reverse geocoding, offline.
///
/// Pure; safe to share between threads.
public struct PlaceFinder: Sendable {
    public var gazetteer: Gazetteer?
    /// OpenStreetMap's addresses and streets (`[places] addresses`), when there is a file.
    public var addresses: AddressIndex?
    public var settings: PlaceSettings

    public init(gazetteer: Gazetteer?, addresses: AddressIndex? = nil, settings: PlaceSettings = .init()) {
        self.gazetteer = gazetteer
        self.addresses = addresses
        self.settings = settings
    }

    /// The place of `coordinate`, or nil when there is none to name.
    public func place(at coordinate: Coordinate, sites: RegionIndex? = nil) -> Place? {
        lookup(coordinate, sites: sites).place
    }

    /// Where `coordinate` is: inside a site ("at Depot North"), within ``PlaceSettings/siteRadius`` of one
    /// ("200 m from Depot North"), else the nearest address ("Kaivokatu 1, 00100 Helsinki") or street
    /// ("Kaivokatu, Helsinki") within their radii, else the nearest populated place, or why there is none.
    public func lookup(_ coordinate: Coordinate, sites: RegionIndex? = nil) -> PlaceLookup {
        let nearest = gazetteer.flatMap { $0.nearest(to: coordinate) }
        if let sites, var site = site(at: coordinate, in: sites) {
            // A site keeps the time zone of the nearest populated place, however far: trip times in local time
            // (`trips list --local`) need one, and most trips start at a depot.
            site.timezone = nearest.flatMap { gazetteer?.entry(at: $0.index).timezone }
            return .found(site)
        }
        let populated = populatedPlace(coordinate, nearest: nearest)
        if let address = address(at: coordinate, near: populated.place) {
            return .found(Place(address: address, near: populated.place ?? populated.nearest))
        }
        return populated.lookup
    }

    /// The nearest address within ``PlaceSettings/addressRadius``, else the nearest street within
    /// ``PlaceSettings/streetRadius``; nil without an address file. A street's city and country are those of the
    /// nearest address on a street of its name (the builder's ``StreetLocalities``), else the populated place
    /// `near`'s name; never its postcode, since one street can run through several.
    func address(at coordinate: Coordinate, near: Place?) -> PostalAddress? {
        guard let addresses else { return nil }
        if let (index, distance) = addresses.nearestAddress(to: coordinate, within: settings.addressRadius) {
            return addresses.address(at: index, distance: distance)
        }
        guard let (piece, distance) = addresses.nearestStreet(to: coordinate, within: settings.streetRadius) else {
            return nil
        }
        let locality = addresses.locality(ofPiece: piece)
        return PostalAddress(
            street: addresses.streetName(ofPiece: piece),
            city: locality.city ?? near?.name,
            country: locality.country,
            distance: distance
        )
    }

    /// The nearest populated place as the answer, and the place itself however far.
    private func populatedPlace(
        _ coordinate: Coordinate,
        nearest: (index: Int, distance: Double)?
    ) -> (lookup: PlaceLookup, place: Place?, nearest: Place?) {
        guard let gazetteer, let (index, distance) = nearest else { return (.none, nil, nil) }
        let entry = gazetteer.entry(at: index)
        let bearing = Geodesic.inverse(from: entry.coordinate, to: coordinate).initialAzimuth
        let place = Place(
            name: entry.name,
            country: entry.country,
            geonameID: entry.geonameID,
            admin1: entry.admin1,
            timezone: entry.timezone,
            distance: distance,
            bearing: distance > 0 ? (bearing < 0 ? bearing + 360 : bearing) : nil
        )
        return distance <= settings.maxDistance
            ? (.found(place), place, place) : (.tooFar(nearest: place, maxDistance: settings.maxDistance), nil, place)
    }

    /// The site `coordinate` is in, or the nearest within the site radius: of the sites it is in, the smallest
    /// (a depot within an industrial estate is the depot); ties by id.
    func site(at coordinate: Coordinate, in sites: RegionIndex) -> Place? {
        var slots: [Int32] = []
        sites.candidates(near: coordinate, within: settings.siteRadius, into: &slots)
        var best: (rank: (Int, Double, String), place: Place)?
        for slot in slots {
            guard let region = sites.region(at: slot), let name = region.name, !name.isEmpty else { continue }
            let distance = sites.signedDistance(ofRegionAt: slot, to: coordinate)
            guard distance.isFinite, distance <= settings.siteRadius else { continue }
            let rank = distance <= 0 ? (0, region.size, region.id) : (1, distance, region.id)
            if let current = best, current.rank <= rank { continue }
            best = (rank, Place(name: name, site: region.id, distance: max(0, distance)))
        }
        return best?.place
    }
}
