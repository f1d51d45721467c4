import WaymarkCore
import WaymarkSystem

extension Agent {
    /// The credit the GeoNames licence (CC BY 4.0) asks of whoever ships its data.
    public static let geoNamesCredit = "Contains data from GeoNames, geonames.org, CC BY 4.0"

    /// The gazetteer file at `path`, mapped read-only and checked.
    ///
    /// - Throws: ``GazetteerError`` naming the file and what is wrong with it.
    public static func openGazetteer(_ path: String) throws(GazetteerError) -> Gazetteer {
        try Gazetteer.open(path: path)
    }

    /// Where `coordinate` is (`waymark geo place`): the sites of `[regions] file` when `configuration` has one
    /// (with `[places] site_radius`), then the nearest address and street of `addresses` (within
    /// `address_radius`, `street_radius`), then the nearest place of `gazetteer`, when there is one, within
    /// `[places] max_distance`.
    ///
    /// - Returns: the answer, and one line per problem with the region file (its sites are then left out).
    public static func place(
        at coordinate: Coordinate,
        gazetteer: Gazetteer?,
        addresses: AddressIndex? = nil,
        configuration: Configuration
    ) -> (PlaceLookup, problems: [String]) {
        var sites: RegionIndex?
        var problems: [String] = []
        if let file = configuration.regions.file {
            switch RegionSource(path: file, settings: configuration.regions).load() {
            case .success(let loaded): sites = loaded.index
            case .failure(let failure): problems = failure.lines + ["\(file) rejected; its sites are left out"]
            }
        }
        let finder = PlaceFinder(
            gazetteer: gazetteer,
            addresses: addresses,
            settings: configuration.places.finder
        )
        return (finder.lookup(coordinate, sites: sites), problems)
    }

    /// Builds the gazetteer file `output` from GeoNames' `cities` and `countries` (TSV, `data/places/`), and
    /// returns the number of places and the file's size. `cities` may be `-` for standard input (so a script can
    /// pipe `gzip -dc`).
    ///
    /// - Throws: ``GazetteerError`` for a source that cannot be read or used, or an output that cannot be written.
    public static func buildGazetteer(
        cities: String,
        countries: String,
        output: String
    ) throws(GazetteerError) -> (places: Int, bytes: Int) {
        func read(_ path: String) throws(GazetteerError) -> [UInt8] {
            do {
                return try Files.contents(path == "-" ? "/dev/stdin" : path)
            } catch {
                throw GazetteerError(
                    code: .unreadable,
                    file: path == "-" ? "standard input" : path,
                    message: error.withoutPath.description
                )
            }
        }
        let citiesName = cities == "-" ? "standard input" : cities
        let file = try GazetteerBuilder.build(
            cities: try read(cities),
            citiesName: citiesName,
            countries: try read(countries),
            countriesName: countries
        )
        let check = try Gazetteer(copying: file, file: output)
        do {
            try AtomicFile.write(file, to: output)
        } catch {
            throw GazetteerError(code: .unreadable, file: output, message: error.description)
        }
        return (check.count, file.count)
    }
}
