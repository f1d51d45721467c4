import ArgumentParser
import Foundation
import WaymarkCore

extension Waymark {
    /// `waymark geo`: geodesy on WGS84 from the command line, for checking what the agent computes.
    struct Geo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Geodesy on the WGS84 ellipsoid.",
            subcommands: [Distance.self]
        )
    }
}

extension Waymark.Geo {
    struct Distance: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The shortest path between two points: its length and its azimuths at both ends.",
            discussion: """
                Prints one JSON object: distance_m in metres (to the millimetre), initial_azimuth and \
                final_azimuth in degrees clockwise from north, -180 to 180 (to 1e-9 degree). Latitudes are \
                -90 to 90 and longitudes -360 to 360, in decimal degrees; negative values need no quoting: \
                waymark geo distance -33.86 151.21 51.5 -0.12. A bad value is reported on stderr, exit 2.
                """
        )

        // Negative coordinates look like options to the parser: take every input and parse it here.
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("The two points in degrees.", valueName: "lat1 lon1 lat2 lon2")
        )
        var coordinates: [String] = []

        func run() throws {
            let values: [Double]
            do {
                // A `--` before the numbers is accepted, as most commands accept it.
                values = try Self.parse(coordinates.first == "--" ? Array(coordinates.dropFirst()) : coordinates)
            } catch {
                printError("waymark geo distance: \(error.message)")
                throw ExitCode(2)
            }
            let result = Geodesic.inverse(
                from: Coordinate(latitude: values[0], longitude: values[1]),
                to: Coordinate(latitude: values[2], longitude: values[3])
            )
            print(Self.json(result))
        }

        /// LAT1 LON1 LAT2 LON2 as numbers, or the first problem found, naming the argument.
        static func parse(_ arguments: [String]) throws(CoordinateError) -> [Double] {
            let names = ["LAT1", "LON1", "LAT2", "LON2"]
            guard arguments.count == names.count else {
                throw CoordinateError(
                    message: "expected 4 numbers, LAT1 LON1 LAT2 LON2, got \(arguments.count): "
                        + arguments.joined(separator: " ")
                )
            }
            return try zip(names, arguments).map { (name, text) throws(CoordinateError) in
                let isLatitude = name.hasPrefix("LAT")
                let limit = isLatitude ? 90.0 : 360.0
                guard let value = Double(text), value.isFinite else {
                    throw CoordinateError(message: "\(name) \(text): not a number; expected decimal degrees")
                }
                guard abs(value) <= limit else {
                    let kind = isLatitude ? "latitude" : "longitude"
                    throw CoordinateError(
                        message: "\(name) \(text): must be a \(kind) from -\(Int(limit)) to \(Int(limit))"
                    )
                }
                return value
            }
        }

        /// The result as one JSON object with a fixed number of decimals, so that the output is stable.
        static func json(_ result: GeodesicInverse) -> String {
            "{\"distance_m\":\(fixed(result.distance, decimals: 3)),"
                + "\"initial_azimuth\":\(fixed(result.initialAzimuth, decimals: 9)),"
                + "\"final_azimuth\":\(fixed(result.finalAzimuth, decimals: 9))}"
        }

        /// `value` with `decimals` decimals, never "-0.000".
        private static func fixed(_ value: Double, decimals: Int) -> String {
            let text = String(format: "%.\(decimals)f", value)
            return text.hasPrefix("-") && text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." })
                ? String(text.dropFirst()) : text
        }
    }

    /// What is wrong with the command line's coordinates, for one line on stderr.
    struct CoordinateError: Error {
        var message: String
    }
}
