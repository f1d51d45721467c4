/// Names positions: the operator's sites first (regions with a `name`), then the nearest populated place of
/// the gazetteer within ``PlaceSettings/maxDistance``. Core Location's reverse geocoding, offline.
///
/// Pure; safe to share between threads.
public struct PlaceFinder: Sendable {
    public var gazetteer: Gazetteer?
    public var settings: PlaceSettings

    public init(gazetteer: Gazetteer?, settings: PlaceSettings = .init()) {
        self.gazetteer = gazetteer
        self.settings = settings
    }

    /// The place of `coordinate`, or nil when there is none to name.
    public func place(at coordinate: Coordinate, sites: RegionIndex? = nil) -> Place? {
        lookup(coordinate, sites: sites).place
    }

    /// Where `coordinate` is: inside a site ("at Depot North"), within ``PlaceSettings/siteRadius`` of one
    /// ("200 m from Depot North"), else the nearest populated place, or why there is none.
    public func lookup(_ coordinate: Coordinate, sites: RegionIndex? = nil) -> PlaceLookup {
        let nearest = gazetteer.flatMap { $0.nearest(to: coordinate) }
        if let sites, var site = site(at: coordinate, in: sites) {
            // A site keeps the time zone of the nearest populated place, however far: trip times in local time
            // (`trips list --local`) need one, and most trips start at a depot.
            site.timezone = nearest.flatMap { gazetteer?.entry(at: $0.index).timezone }
            return .found(site)
        }
        guard let gazetteer, let (index, distance) = nearest else { return .none }
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
            ? .found(place) : .tooFar(nearest: place, maxDistance: settings.maxDistance)
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
