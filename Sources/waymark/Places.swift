import ArgumentParser
import WaymarkAgent
import WaymarkCore

extension Waymark {
    /// `waymark places`: the gazetteer file, built and checked.
    struct Places: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "places",
            abstract: "Build or check the gazetteer file that names places offline.",
            subcommands: [Build.self, Check.self]
        )
    }
}

extension Waymark.Places {
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Build the gazetteer file from GeoNames' populated places and country names.",
            discussion: """
                CITIES is the tab-separated list of data/places/cities1000.tsv.gz, decompressed (- reads it \
                from standard input: gzip -dc data/places/cities1000.tsv.gz | waymark places build - \
                data/places/countries.tsv OUT); COUNTRIES is data/places/countries.tsv. The file is written \
                whole or not at all; scripts/build-places.sh OUT does all of it. \(Agent.geoNamesCredit).
                """
        )

        @Argument(help: "The populated places (TSV), or - for standard input.")
        var cities: String

        @Argument(help: "The country names (TSV).")
        var countries: String

        @Argument(help: "The gazetteer file to write.")
        var output: String

        func run() throws {
            do {
                let built = try Agent.buildGazetteer(cities: cities, countries: countries, output: output)
                printError("waymark places build: \(output): \(built.places) places, \(built.bytes) bytes")
            } catch {
                printError("waymark places build: \(error)")
                throw ExitCode(1)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a gazetteer file: its format, size, checksum and structure.",
            discussion: "Prints the number of places and the size; a file that cannot be used is one line, exit 1."
        )

        @Argument(help: "The gazetteer file.")
        var file: String

        func run() throws {
            do {
                let gazetteer = try Agent.openGazetteer(file)
                print("\(file): \(gazetteer.count) places, \(gazetteer.byteCount) bytes")
            } catch {
                printError("waymark places check: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
