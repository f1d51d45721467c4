import ArgumentParser
import WaymarkAgent
import WaymarkCore

extension Waymark.Regions {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a region to the region file, or replace the region with its id.",
            discussion: """
                A circle: waymark regions add ID --lat DEGREES --lon DEGREES --radius METRES [--name NAME] \
                [--no-notify-entry] [--no-notify-exit]; negative values need no quoting: --lat -33.86. A beacon \
                region (Core Location's CLBeaconRegion: inside while an iBeacon of the UUID, and of the major \
                and minor when given, is heard): waymark regions add --id ID --beacon UUID[:MAJOR[:MINOR]] \
                [--name NAME] [--ranging | --no-ranging] [--no-notify-entry] [--no-notify-exit]; without \
                --ranging or --no-ranging, [beacons] ranging decides whether its beacons are ranged. --id ID and \
                the ID argument are the same. A circle or beacon region that replaces a region without --name \
                keeps that region's name. Any region, a polygon too: --geojson FILE, or --geojson - for stdin, \
                holding a GeoJSON Feature or FeatureCollection (Point features with a radius property, Polygon \
                and MultiPolygon features, beacon features with "geometry": null and a beacon property; \
                properties id, name, notify_on_entry, notify_on_exit, ranging). The region is checked before the \
                file is written: its shape, max_radius, max_vertices, and max_regions (regions of both kinds) for \
                a new id; the file is created when missing. Prints "added" or "replaced" and the region's id. A \
                refused region: the reason on stderr, exit 2, the file unchanged.
                """
        )

        @Argument(
            help: ArgumentHelp("The region's id, or --id ID (GeoJSON features have their own).", valueName: "id")
        )
        var id: String?

        @Option(
            name: .customLong("id"),
            parsing: .unconditional,
            help: ArgumentHelp("The region's id, instead of the ID argument.", valueName: "id")
        )
        var idOption: String?

        @Option(
            help: ArgumentHelp(
                "A beacon region: the iBeacons of this proximity UUID (8-4-4-4-12 hexadecimal digits), and of this "
                    + "major and minor (0 to 65535) when given.",
                valueName: "uuid[:major[:minor]]"
            )
        )
        var beacon: String?

        @Flag(
            inversion: .prefixedNo,
            help: "Range the beacon region's beacons (beacon events), or never; without either, [beacons] ranging."
        )
        var ranging: Bool?

        // Strings, parsed here: negative numbers must not look like options, and every bad value gets one
        // line on stderr that names its option.
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The circle's center latitude, decimal degrees, -90 to 90.", valueName: "degrees")
        )
        var lat: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "The circle's center longitude, decimal degrees east, -180 to 180.",
                valueName: "degrees"
            )
        )
        var lon: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The circle's radius, metres (at most max_radius).", valueName: "metres")
        )
        var radius: String?

        @Option(parsing: .unconditional, help: "The circle's or beacon region's name.")
        var name: String?

        @Flag(inversion: .prefixedNo, help: "Report entering the circle or beacon region.")
        var notifyEntry = true

        @Flag(inversion: .prefixedNo, help: "Report leaving the circle or beacon region.")
        var notifyExit = true

        @Option(help: ArgumentHelp("Add the features of a GeoJSON file, or of stdin for -.", valueName: "file|-"))
        var geojson: String?

        @OptionGroup var options: FileOptions

        func run() throws {
            let command = "waymark regions add"
            let input: RegionInput
            do {
                input = try makeInput()
            } catch let error as ArgumentError {
                printError("\(command): \(error.message)")
                throw ExitCode(2)
            }
            let (editor, _) = try options.editor(command)
            let merge: RegionFileEditor.Merge
            do {
                // A circle or beacon region replaced without --name keeps its name; a --geojson feature is taken
                // whole.
                merge = try editor.merge(input, skippingInvalid: false, keepingNames: geojson == nil)
            } catch {
                throw Waymark.Regions.failure(error, command)
            }
            guard merge.written else {
                let unchanged = "\(editor.path) not changed"
                if merge.problems.count == 1, let problem = merge.problems.first {
                    printError("\(command): \(problem); \(unchanged)")
                } else if merge.problems.isEmpty {
                    printError("\(command): \(input.name) has no features; \(unchanged)")
                } else {
                    for line in merge.problems { printError(line) }
                    let total = input.features.count
                    printError("\(command): \(merge.invalidCount) of \(total) features have problems; \(unchanged)")
                }
                throw ExitCode(2)
            }
            for change in merge.changes {
                switch change {
                case .added(let id): print("added region \(quoted(id)) to \(editor.path)")
                case .replaced(let id): print("replaced region \(quoted(id)) in \(editor.path)")
                case .removed: preconditionFailure("adding removes nothing")
                }
            }
        }

        /// The region of the command line's options, or the features of --geojson.
        private func makeInput() throws -> RegionInput {
            if let geojson {
                let circleOptions: [(String, Bool)] = [
                    ("ID", id != nil), ("--id", idOption != nil), ("--lat", lat != nil), ("--lon", lon != nil),
                    ("--radius", radius != nil), ("--beacon", beacon != nil), ("--name", name != nil),
                    ("--no-notify-entry", !notifyEntry), ("--no-notify-exit", !notifyExit),
                    (ranging == false ? "--no-ranging" : "--ranging", ranging != nil),
                ]
                let given = circleOptions.filter(\.1).map(\.0)
                guard given.isEmpty else {
                    throw ArgumentError(
                        message: "--geojson takes the regions with their ids and properties from the GeoJSON; "
                            + "leave out \(given.joined(separator: ", "))"
                    )
                }
                do {
                    return try RegionInput.read(geojson)
                } catch {
                    throw Waymark.Regions.failure(error, "waymark regions add")
                }
            }
            if let id, let idOption, id != idOption {
                throw ArgumentError(
                    message: "the ID \(quoted(id)) and --id \(quoted(idOption)) differ: give the id once"
                )
            }
            if let beacon { return try beaconInput(beacon, id: idOption ?? id) }
            guard let id = idOption ?? id else {
                throw ArgumentError(
                    message:
                        "give the region's ID with --lat, --lon and --radius, with --beacon UUID, or --geojson FILE"
                )
            }
            if let ranging {
                throw ArgumentError(
                    message: "\(ranging ? "--ranging" : "--no-ranging") is for a beacon region (--beacon UUID): a "
                        + "circle is not ranged"
                )
            }
            let latitude = try Self.number(lat, "--lat", "a latitude from -90 to 90 degrees") { abs($0) <= 90 }
            let longitude = try Self.number(lon, "--lon", "a longitude from -180 to 180 degrees") { abs($0) <= 180 }
            let radius = try Self.number(radius, "--radius", "a number of metres above 0") { $0 > 0 }
            let center = Coordinate(latitude: latitude, longitude: longitude)
            return RegionInput(
                Region(
                    id: id,
                    name: name,
                    notifyOnEntry: notifyEntry,
                    notifyOnExit: notifyExit,
                    shape: .circle(center: center, radius: radius)
                )
            )
        }

        /// The beacon region of `--beacon text`, with the other options.
        private func beaconInput(_ text: String, id: String?) throws(ArgumentError) -> RegionInput {
            let circleOptions = [("--lat", lat != nil), ("--lon", lon != nil), ("--radius", radius != nil)]
            let given = circleOptions.filter(\.1).map(\.0)
            guard given.isEmpty else {
                throw ArgumentError(
                    message:
                        "--beacon makes a beacon region, which has no area: leave out \(given.joined(separator: ", "))"
                )
            }
            guard let id else { throw ArgumentError(message: "give the beacon region's id: --id ID --beacon \(text)") }
            guard let constraint = BeaconConstraint(text) else {
                throw ArgumentError(
                    message: "--beacon \(text): expected UUID[:MAJOR[:MINOR]]: the proximity UUID as 8-4-4-4-12 "
                        + "hexadecimal digits, then a major, then a minor, each 0 to 65535"
                )
            }
            return RegionInput(
                BeaconRegion(
                    id: id,
                    name: name,
                    constraint: constraint,
                    notifyOnEntry: notifyEntry,
                    notifyOnExit: notifyExit,
                    ranging: ranging
                )
            )
        }

        /// The finite number `text` of `option`, which must be `what` (`isAllowed`).
        private static func number(
            _ text: String?,
            _ option: String,
            _ what: String,
            isAllowed: (Double) -> Bool
        ) throws(ArgumentError) -> Double {
            guard let text else { throw ArgumentError(message: "\(option) is required for a circle: \(what)") }
            guard let value = Double(text), value.isFinite else {
                throw ArgumentError(message: "\(option) \(text): not a number; expected \(what)")
            }
            guard isAllowed(value) else { throw ArgumentError(message: "\(option) \(text): must be \(what)") }
            return value
        }
    }

    /// A value of the command line that cannot be used, for one line on stderr.
    struct ArgumentError: Error {
        var message: String
    }
}

extension Waymark.Regions {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove regions from the region file.",
            discussion: """
                Prints "removed" and each id. An id the file does not have: its name on stderr, exit 2, and \
                nothing is removed.
                """
        )

        @Argument(help: ArgumentHelp("The ids of the regions to remove.", valueName: "id"))
        var ids: [String]

        @OptionGroup var options: FileOptions

        func run() throws {
            let command = "waymark regions remove"
            let (editor, _) = try options.editor(command)
            let changes: [RegionFileEditor.Change]
            do {
                changes = try editor.remove(ids)
            } catch {
                throw Waymark.Regions.failure(error, command)
            }
            for change in changes { print("removed region \(quoted(change.id)) from \(editor.path)") }
        }
    }
}

extension Waymark.Regions {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Merge the regions of a GeoJSON FeatureCollection into the region file.",
            discussion: """
                Each feature is added, or replaces the region with its id; the others stay. Each feature's \
                problems are reported on stderr with its index (file:line:column: features[N] (id "ID"): what \
                is wrong), limits included (max_radius, max_vertices, max_regions). With a problem, nothing is \
                imported (exit 2) unless --skip-invalid, which imports the valid features and reports the \
                others. Prints how many regions were added and replaced.
                """
        )

        @Argument(help: ArgumentHelp("The GeoJSON file to import, or - for stdin.", valueName: "file"))
        var source: String

        @Flag(help: "Import the valid features and report the others, instead of importing nothing.")
        var skipInvalid = false

        @OptionGroup var options: FileOptions

        func run() throws {
            let command = "waymark regions import"
            let (editor, _) = try options.editor(command)
            let input: RegionInput
            let merge: RegionFileEditor.Merge
            do {
                input = try RegionInput.read(source)
                merge = try editor.merge(input, skippingInvalid: skipInvalid)
            } catch {
                throw Waymark.Regions.failure(error, command)
            }
            for line in merge.problems { printError(line) }
            let total = input.features.count
            let invalid = "\(merge.invalidCount) of \(total) feature\(total == 1 ? "" : "s") of \(input.name)"
            guard merge.written else {
                if total == 0 {
                    print("\(input.name) has no features; \(editor.path) not changed")
                    return
                }
                let hint = skipInvalid || merge.invalidCount == total ? "" : " (--skip-invalid imports the others)"
                printError("\(command): \(invalid) have problems; nothing imported, \(editor.path) not changed\(hint)")
                throw ExitCode(2)
            }
            let added = merge.changes.filter { if case .added = $0 { true } else { false } }.count
            let replaced = merge.changes.count - added
            print("imported \(merge.changes.count) regions into \(editor.path): \(added) added, \(replaced) replaced")
            if merge.invalidCount > 0 { printError("\(command): \(invalid) skipped for their problems") }
        }
    }
}
