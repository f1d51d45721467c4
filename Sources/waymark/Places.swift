import ArgumentParser
import WaymarkAgent
import WaymarkCore

extension Waymark {
    /// `waymark places`: the gazetteer file, built and checked.
    struct Places: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "places",
            abstract: "Build or check the gazetteer and the address file that name places offline.",
            subcommands: [Build.self, BuildAddresses.self, Check.self]
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

    struct BuildAddresses: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build-addresses",
            abstract: "Build the address file from an OpenStreetMap extract (PBF).",
            discussion: """
                EXTRACT is an OpenStreetMap PBF extract of the fleet's region (as Geofabrik's); OUT the address \
                file for [places] addresses. It holds the extract's addresses (nodes and closed ways with \
                addr:housenumber and addr:street or addr:place; a way at its centroid, or a point inside it where the \
                centroid is not) and its named streets, \
                with the extract's name and date and the licence: \(Agent.openStreetMapCredit). The file is \
                written whole or not at all. Run it where boards are prepared: it holds every node of the \
                extract in memory (16 bytes each).
                """
        )

        @Argument(help: "The OpenStreetMap extract (.osm.pbf).")
        var extract: String

        @Argument(help: "The address file to write.")
        var output: String

        @Option(name: .long, help: "The extract's name to record (default: its file name).")
        var name: String?

        func run() throws {
            do {
                let built = try Agent.buildAddresses(extract: extract, output: output, name: name)
                printError(
                    "waymark places build-addresses: \(output): \(built.addresses) addresses, "
                        + "\(built.streetPieces) street pieces, \(built.bytes) bytes; data of \(built.sourceDate)"
                        + (built.cutWays > 0
                            ? "; \(built.cutWays) address ways cut by the extract's border, each at the mean of "
                                + "the nodes it has" : "")
                )
            } catch {
                printError("waymark places build-addresses: \(error)")
                throw ExitCode(1)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a gazetteer or an address file: its format, size, checksum and structure.",
            discussion: "Prints the number of places and the size; a file that cannot be used is one line, exit 1."
        )

        @Argument(help: "The gazetteer or address file.")
        var file: String

        func run() throws {
            do {
                let gazetteer = try Agent.openGazetteer(file)
                print("\(file): \(gazetteer.count) places, \(gazetteer.byteCount) bytes")
            } catch  where error.code == .notAGazetteer {
                do {
                    let addresses = try Agent.openAddresses(file, verifying: .whole)
                    print(
                        "\(file): \(addresses.addressCount) addresses, \(addresses.streetPieceCount) street pieces, "
                            + "\(addresses.byteCount) bytes, from \(addresses.sourceName) of \(addresses.sourceDate) "
                            + "(\(addresses.licence))"
                    )
                } catch {
                    printError("waymark places check: \(error)")
                    throw ExitCode(1)
                }
            } catch {
                printError("waymark places check: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
