import ArgumentParser
import WaymarkAgent
import WaymarkCore

extension Waymark.Geo {
    struct Place: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "place",
            abstract: "The place of a point, offline: an operator's site, or the nearest populated place.",
            discussion: """
                Prints where LAT LON is: "at SITE" or "200 m from SITE" for a region of [regions] file with a \
                name (within [places] site_radius), else the nearest populated place by geodesic distance on \
                WGS84, with its country, admin1 code and time zone, the distance and the bearing from the place \
                to the point: "3.2 km NE of Kelheim, DE". Farther than [places] max_distance from every place \
                (at sea, in a desert), it says so. --json prints one object: geonameid, name, country, admin1, \
                timezone, distance (metres), bearing (degrees), description; or {"place": null, "reason": ...}. \
                Latitudes are -90 to 90 and longitudes -360 to 360, in decimal degrees; negative values need no \
                quoting. A bad value is reported on stderr, exit 2; a gazetteer that cannot be used, exit 1. \
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

        @Flag(help: "Print one JSON object.")
        var json = false

        @Flag(help: "Print where the places come from and their licence, and exit.")
        var about = false

        // Negative coordinates look like options to the parser: take every input and parse it here.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The point in degrees.", valueName: "lat lon"))
        var coordinates: [String] = []

        func run() throws {
            if about {
                print(Self.about)
                return
            }
            let point: Coordinate
            do {
                point = try Self.parse(coordinates.first == "--" ? Array(coordinates.dropFirst()) : coordinates)
            } catch {
                printError("waymark geo place: \(error.message)")
                throw ExitCode(2)
            }
            let configuration = try CommonOptions.parse(config.map { ["--config", $0] } ?? []).loadConfiguration()
            let path = file ?? configuration.places.file
            let gazetteer: Gazetteer
            do {
                gazetteer = try Agent.openGazetteer(path)
            } catch {
                printError("waymark geo place: \(error)")
                throw ExitCode(1)
            }
            let (answer, problems) = Agent.place(at: point, gazetteer: gazetteer, configuration: configuration)
            for problem in problems { printError("waymark geo place: \(problem)") }
            print(json ? answer.json : Self.text(answer))
        }

        /// LAT LON as a coordinate, or the first problem found, naming the argument.
        static func parse(_ arguments: [String]) throws(Waymark.Geo.CoordinateError) -> Coordinate {
            guard arguments.count == 2 else {
                throw Waymark.Geo.CoordinateError(
                    message: "expected 2 numbers, LAT LON, got \(arguments.count): " + arguments.joined(separator: " ")
                )
            }
            var values: [Double] = []
            for (name, text) in zip(["LAT", "LON"], arguments) {
                let limit = name == "LAT" ? 90.0 : 360.0
                guard let value = Double(text), value.isFinite else {
                    throw Waymark.Geo.CoordinateError(
                        message: "\(name) \(text): not a number; expected decimal degrees"
                    )
                }
                guard abs(value) <= limit else {
                    let kind = name == "LAT" ? "latitude" : "longitude"
                    throw Waymark.Geo.CoordinateError(
                        message: "\(name) \(text): must be a \(kind) from -\(Int(limit)) to \(Int(limit))"
                    )
                }
                values.append(value)
            }
            return Coordinate(latitude: values[0], longitude: values[1])
        }

        /// The answer for a person, one line.
        static func text(_ answer: PlaceLookup) -> String {
            guard case .found(let place) = answer else { return answer.reason }
            guard place.site == nil else { return place.description }
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
