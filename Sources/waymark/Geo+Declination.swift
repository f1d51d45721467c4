import ArgumentParser
import Glibc
import WaymarkClocks
import WaymarkCore
import WaymarkFormats
import WaymarkSystem

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

        // Strings, checked in validate(): negative numbers must not look like options, and every bad value
        // gets one line on stderr that names its option.
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

        /// The options, checked by `validate()`.
        private var inputs: Checked<Inputs>?

        private enum CodingKeys: CodingKey {
            case lat, lon, height, date, year
        }

        mutating func validate() {
            let (lat, lon, height, date, year) = (lat, lon, height, date, year)
            inputs = Checked { () throws(CoordinateError) in
                try Inputs(lat: lat, lon: lon, height: height, date: date, year: year, model: .wmm2025)
            }
        }

        func run() throws {
            let inputs = try Waymark.Geo.value(inputs, command: "declination")
            let model = MagneticModel.wmm2025
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
                    let now = SystemClocks.wall()
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
            return Waymark.Geo.json { writer in
                writer.number("lat", described: inputs.latitude)
                writer.number("lon", described: inputs.longitude)
                writer.number("height_m", described: inputs.heightMeters)
                writer.fixed("year", inputs.year, decimals: 6)
                writer.string("model", model.name.filter { $0 != "-" })
                writer.fixed("declination", field.declination, decimals: 6)
                writer.fixed("declination_rate", rates.declination, decimals: 6)
                writer.fixed("inclination", field.inclination, decimals: 6)
                writer.fixed("inclination_rate", rates.inclination, decimals: 6)
                writer.fixed("horizontal_intensity", field.horizontalIntensity, decimals: 3)
                writer.fixed("horizontal_intensity_rate", rates.horizontalIntensity, decimals: 3)
                writer.fixed("total_intensity", field.totalIntensity, decimals: 3)
                writer.fixed("total_intensity_rate", rates.totalIntensity, decimals: 3)
                writer.fixed("north", field.north, decimals: 3)
                writer.fixed("north_rate", rates.north, decimals: 3)
                writer.fixed("east", field.east, decimals: 3)
                writer.fixed("east_rate", rates.east, decimals: 3)
                writer.fixed("down", field.down, decimals: 3)
                writer.fixed("down_rate", rates.down, decimals: 3)
                if let gridVariation = field.gridVariation, let rate = rates.gridVariation {
                    writer.fixed("grid_variation", gridVariation, decimals: 6)
                    writer.fixed("grid_variation_rate", rate, decimals: 6)
                }
                writer.string("zone", "\(field.zone)")
                writer.fixed("declination_uncertainty", field.declinationUncertainty, decimals: 6)
                writer.boolean("within_validity", field.isWithinValidity)
            }
        }
    }
}
