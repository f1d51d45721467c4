import ArgumentParser
import WaymarkAgent
import WaymarkCore

extension Waymark.Geo {
    struct Place: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "place",
            abstract: "The place of a point, offline: a site, a street address, a street, or a populated place.",
            discussion: """
                Prints where LAT LON is: "at SITE" or "200 m from SITE" for a region of [regions] file with a \
                name (within [places] site_radius), else, with an address file ([places] addresses, built by \
                waymark places build-addresses), the nearest address within [places] address_radius ("Kaivokatu \
                1, 00100 Helsinki") or named street within street_radius ("Kaivokatu, Helsinki"), else the \
                nearest populated place by geodesic distance on \
                WGS84, with its country, admin1 code and time zone, the distance and the bearing from the place \
                to the point: "3.2 km NE of Kelheim, DE". Farther than [places] max_distance from every place \
                (at sea, in a desert), it says so. --json prints one object: geonameid, name, country, admin1, \
                timezone, distance (metres), bearing (degrees), description, and for an address or street an \
                address object (house_number, street, postcode, city, country, distance); or {"place": null, \
                "reason": ...}. \
                Latitudes are -90 to 90 and longitudes -360 to 360, in decimal degrees; negative values need no \
                quoting. A bad value is reported on stderr, exit 2; a gazetteer that cannot be used, a warning \
                when an address file answers instead, else exit 1. --about reads the configuration only for \
                [places] addresses, and prints what it can even when the configuration is bad. \
                \(Agent.geoNamesCredit).
                """
        )

        @Option(
            name: .long,
            help: "The configuration file (default: \(Agent.defaultConfigurationDescription) if present)."
        )
        var config: String?

        @Option(name: .long, help: "The gazetteer file (default: [places] file).")
        var file: String?

        @Option(name: .long, help: "The address file (default: [places] addresses).")
        var addresses: String?

        @Flag(help: "Print one JSON object.")
        var json = false

        @Flag(help: "Print where the places come from and their licence, and exit.")
        var about = false

        // Negative coordinates look like options to the parser: take every input and check it in validate().
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The point in degrees.", valueName: "lat lon"))
        var coordinates: [String] = []

        /// LAT LON, checked by `validate()`.
        private var point: Waymark.Geo.Checked<Coordinate>?

        private enum CodingKeys: CodingKey {
            case config, file, addresses, json, about, coordinates
        }

        mutating func validate() {
            let coordinates = coordinates
            point = Waymark.Geo.Checked { () throws(Waymark.Geo.CoordinateError) in
                let degrees = try Waymark.Geo.degrees(coordinates, names: ["LAT", "LON"])
                return Coordinate(latitude: degrees[0], longitude: degrees[1])
            }
        }

        func run() throws {
            let loading = { try CommonOptions.parse(config.map { ["--config", $0] } ?? []).loadConfiguration() }
            // --about answers where the data comes from even with a configuration that does not load: it is what
            // a person asks when something is wrong.
            let configuration = about ? ((try? loading()) ?? Configuration()) : try loading()
            var addressIndex: AddressIndex?
            var addressProblem: GazetteerError?
            if let path = addresses ?? configuration.places.addressFileToOpen {
                do {
                    addressIndex = try Agent.openAddresses(path, verifying: .bounds)
                } catch {
                    addressProblem = error
                }
            }
            if about {
                print(Self.about)
                if let addressIndex {
                    print(
                        "Addresses and streets: \(addressIndex.sourceName) of \(addressIndex.sourceDate), from "
                            + "OpenStreetMap, \(addressIndex.licence) (https://www.openstreetmap.org/copyright)."
                    )
                }
                return
            }
            let point = try Waymark.Geo.value(point, command: "place")
            if let addressProblem {
                printError("waymark geo place: \(addressProblem); answering without street addresses")
            }
            let path = file ?? configuration.places.file
            var gazetteer: Gazetteer?
            do {
                gazetteer = try Agent.openGazetteer(path)
            } catch {
                // The agent names addresses without a gazetteer; so does this, when it has an address file.
                guard addressIndex != nil else {
                    printError("waymark geo place: \(error)")
                    throw ExitCode(1)
                }
                printError("waymark geo place: \(error); answering with street addresses and sites only")
            }
            let (answer, problems) = Agent.place(
                at: point,
                gazetteer: gazetteer,
                addresses: addressIndex,
                configuration: configuration
            )
            for problem in problems { printError("waymark geo place: \(problem)") }
            print(json ? answer.json : Self.text(answer))
        }

        /// The answer for a person, one line.
        static func text(_ answer: PlaceLookup) -> String {
            guard case .found(let place) = answer else { return answer.reason }
            guard place.site == nil else { return place.description }
            if let address = place.address {
                return "\(place.description) (\(Waymark.Geo.fixed(address.distance, decimals: 3)) m)"
            }
            var details = [place.admin1.map { "admin1 \($0)" }, place.timezone].compactMap { $0 }
            details.append("\(Waymark.Geo.fixed(place.distance, decimals: 3)) m")
            if let bearing = place.bearing { details.append("bearing \(Waymark.Geo.fixed(bearing, decimals: 1))°") }
            if let id = place.geonameID { details.append("GeoNames \(id)") }
            return "\(place.description) (\(details.joined(separator: ", ")))"
        }

        static let about = """
            Places: the populated places of 1,000 or more inhabitants (and seats of administration) of the \
            GeoNames gazetteer, with country names: \(Agent.geoNamesCredit) \
            (https://creativecommons.org/licenses/by/4.0/). Built into the gazetteer file by \
            scripts/build-places.sh from data/places/ (see data/places/README.md). Sites are the regions of \
            [regions] file that have a name.
            """
    }
}
