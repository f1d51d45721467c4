import ArgumentParser
import Glibc
import WaymarkCore

extension Waymark {
    /// `waymark geo`: geodesy on WGS84 and the magnetic model from the command line, for checking what the
    /// agent computes.
    struct Geo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "geo",
            abstract: "Geodesy on the WGS84 ellipsoid, the earth's magnetic field, and the places of points.",
            subcommands: [Distance.self, Declination.self, Place.self]
        )
    }
}

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
    }

    /// What is wrong with the command line's coordinates, for one line on stderr.
    struct CoordinateError: Error {
        var message: String
    }

    /// `value` with `decimals` decimals, never "-0.000".
    static func fixed(_ value: Double, decimals: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let length = withVaList([Int32(decimals), value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
        }
        let text = String(decoding: buffer.prefix(Int(max(0, length))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasPrefix("-") && text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." })
            ? String(text.dropFirst()) : text
    }
}

extension Waymark.Geo {
    struct Declination: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "declination",
            abstract: "The earth's magnetic field at a place and date, from the World Magnetic Model 2025.",
            discussion: """
                Prints one JSON object: declination (degrees east of true north; true heading = magnetic \
                heading + declination), inclination (degrees, down positive), horizontal_intensity, \
                total_intensity, north, east and down (nT), grid_variation (degrees, only at latitudes of 55 \
                and more north or south), each with its yearly change <name>_rate; zone (normal; caution \
                where the horizontal intensity is below 6000 nT and blackout below 2000 nT, where a compass \
                is unreliable), declination_uncertainty (degrees, one standard deviation by the WMM2025 \
                error model), within_validity (false outside 2025.0 to 2030.0 or -1 to 850 km, where the \
                model extrapolates), model, and the inputs lat, lon, height_m and year. Negative values \
                need no quoting: --lat -45.5. A bad value is reported on stderr, exit 2.
                """
        )

        // Strings, parsed here: negative numbers must not look like options, and every bad value gets
        // one line on stderr that names its option.
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Geodetic latitude, decimal degrees, -90 to 90 (required).", valueName: "degrees")
        )
        var lat: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Longitude, decimal degrees east, -360 to 360 (required).", valueName: "degrees")
        )
        var lon: String?

        @Option(
            name: .customLong("height-m"),
            parsing: .unconditional,
            help: ArgumentHelp("Height above the WGS84 ellipsoid, metres (default 0).", valueName: "metres")
        )
        var height: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The UTC date (default: today).", valueName: "YYYY-MM-DD")
        )
        var date: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The date as a decimal year (2026.5 is 2 July 2026), instead of --date.")
        )
        var year: String?

        func run() throws {
            let model = MagneticModel.wmm2025
            let inputs: Inputs
            do {
                inputs = try Inputs(lat: lat, lon: lon, height: height, date: date, year: year, model: model)
            } catch {
                printError("waymark geo declination: \(error.message)")
                throw ExitCode(2)
            }
            let coordinate = Coordinate(latitude: inputs.latitude, longitude: inputs.longitude)
            guard let field = model.field(at: coordinate, altitudeHAE: inputs.heightMeters, year: inputs.year) else {
                // Inputs checked every range the model needs.
                printError("waymark geo declination: the model cannot be evaluated there")
                throw ExitCode(2)
            }
            print(Self.json(field, inputs: inputs, model: model))
        }

        /// The command line's values, checked.
        struct Inputs {
            var latitude: Double
            var longitude: Double
            var heightMeters: Double
            var year: Double

            init(
                lat: String?,
                lon: String?,
                height: String?,
                date: String?,
                year: String?,
                model: MagneticModel
            ) throws(CoordinateError) {
                latitude = try Self.number(lat, option: "--lat", within: -90...90, "a latitude from -90 to 90")
                longitude = try Self.number(lon, option: "--lon", within: -360...360, "a longitude from -360 to 360")
                let heights = MagneticModel.computableAltitudes
                heightMeters = try Self.number(
                    height ?? "0",
                    option: "--height-m",
                    within: heights,
                    "a height above the ellipsoid from \(Int(heights.lowerBound)) to \(Int(heights.upperBound)) metres"
                )
                let years = model.computableYears
                let range = "from \(Int(years.lowerBound)) to \(Int(years.upperBound))"
                switch (date, year) {
                case (.some, .some):
                    throw CoordinateError(message: "--date and --year are exclusive: give one of them")
                case (nil, let year?):
                    self.year = try Self.number(year, option: "--year", within: years, "a decimal year \(range)")
                case (let date?, nil):
                    guard date.utf8.count == 10, let midnight = Timestamp(iso8601: date + "T00:00:00Z") else {
                        throw CoordinateError(message: "--date \(date): not a date; expected YYYY-MM-DD")
                    }
                    self.year = midnight.decimalYear
                    guard years.contains(self.year) else {
                        throw CoordinateError(message: "--date \(date): must be a date \(range)")
                    }
                case (nil, nil):
                    // The one clock read: today's UTC date.
                    let now = Timestamp(seconds: Int64(time(nil)))
                    let (days, second) = now.seconds.quotientAndRemainder(dividingBy: 86_400)
                    self.year = Timestamp(seconds: (second < 0 ? days - 1 : days) * 86_400).decimalYear
                }
            }

            private static func number(
                _ text: String?,
                option: String,
                within range: ClosedRange<Double>,
                _ what: String
            ) throws(CoordinateError) -> Double {
                guard let text else {
                    throw CoordinateError(message: "\(option) is required: \(what)")
                }
                guard let value = Double(text), value.isFinite else {
                    throw CoordinateError(message: "\(option) \(text): not a number; expected \(what)")
                }
                guard range.contains(value) else {
                    throw CoordinateError(message: "\(option) \(text): must be \(what)")
                }
                return value
            }
        }

        /// The field as one JSON object, keys in snake_case, with a fixed number of decimals: 1e-6 degree
        /// and 1e-3 nT. `grid_variation` and its rate are absent where they are not defined.
        static func json(_ field: MagneticField, inputs: Inputs, model: MagneticModel) -> String {
            let rates = field.rates
            var pairs: [(String, String)] = [
                ("lat", "\(inputs.latitude)"),
                ("lon", "\(inputs.longitude)"),
                ("height_m", "\(inputs.heightMeters)"),
                ("year", fixed(inputs.year, decimals: 6)),
                ("model", "\"" + model.name.filter { $0 != "-" } + "\""),
                ("declination", fixed(field.declination, decimals: 6)),
                ("declination_rate", fixed(rates.declination, decimals: 6)),
                ("inclination", fixed(field.inclination, decimals: 6)),
                ("inclination_rate", fixed(rates.inclination, decimals: 6)),
                ("horizontal_intensity", fixed(field.horizontalIntensity, decimals: 3)),
                ("horizontal_intensity_rate", fixed(rates.horizontalIntensity, decimals: 3)),
                ("total_intensity", fixed(field.totalIntensity, decimals: 3)),
                ("total_intensity_rate", fixed(rates.totalIntensity, decimals: 3)),
                ("north", fixed(field.north, decimals: 3)),
                ("north_rate", fixed(rates.north, decimals: 3)),
                ("east", fixed(field.east, decimals: 3)),
                ("east_rate", fixed(rates.east, decimals: 3)),
                ("down", fixed(field.down, decimals: 3)),
                ("down_rate", fixed(rates.down, decimals: 3)),
            ]
            if let gridVariation = field.gridVariation, let rate = rates.gridVariation {
                pairs.append(("grid_variation", fixed(gridVariation, decimals: 6)))
                pairs.append(("grid_variation_rate", fixed(rate, decimals: 6)))
            }
            pairs.append(("zone", "\"\(field.zone)\""))
            pairs.append(("declination_uncertainty", fixed(field.declinationUncertainty, decimals: 6)))
            pairs.append(("within_validity", "\(field.isWithinValidity)"))
            return "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
    }
}
