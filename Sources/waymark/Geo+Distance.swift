import ArgumentParser
import WaymarkCore
import WaymarkFormats

extension Waymark.Geo {
    struct Distance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "distance",
            abstract: "The shortest path between two points: its length and its azimuths at both ends.",
            discussion: """
                Prints one JSON object: distance_m in metres (to the millimetre), initial_azimuth and \
                final_azimuth in degrees clockwise from north, -180 to 180 (to 1e-9 degree). Latitudes are \
                -90 to 90 and longitudes -360 to 360, in decimal degrees; negative values need no quoting: \
                waymark geo distance -33.86 151.21 51.5 -0.12. A bad value is reported on stderr, exit 2.
                """
        )

        // Negative coordinates look like options to the parser: take every input and check it in validate().
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("The two points in degrees.", valueName: "lat1 lon1 lat2 lon2")
        )
        var coordinates: [String] = []

        /// LAT1 LON1 LAT2 LON2, checked by `validate()`.
        private var degrees: Checked<[Double]>?

        private enum CodingKeys: CodingKey {
            case coordinates
        }

        mutating func validate() {
            let coordinates = coordinates
            degrees = Checked { () throws(CoordinateError) in
                try Waymark.Geo.degrees(coordinates, names: ["LAT1", "LON1", "LAT2", "LON2"])
            }
        }

        func run() throws {
            let degrees = try Waymark.Geo.value(degrees, command: "distance")
            let result = Geodesic.inverse(
                from: Coordinate(latitude: degrees[0], longitude: degrees[1]),
                to: Coordinate(latitude: degrees[2], longitude: degrees[3])
            )
            print(Self.json(result))
        }

        /// The result as one JSON object with a fixed number of decimals, so that the output is stable.
        static func json(_ result: GeodesicInverse) -> String {
            Waymark.Geo.json { writer in
                writer.fixed("distance_m", result.distance, decimals: 3)
                writer.fixed("initial_azimuth", result.initialAzimuth, decimals: 9)
                writer.fixed("final_azimuth", result.finalAzimuth, decimals: 9)
            }
        }
    }
}
