import ArgumentParser
import WaymarkAgent
import WaymarkCore
import WaymarkSystem

extension Waymark.Regions {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the regions of the region file.",
            discussion: """
                One line per region, in the file's order, under a header: ID; KIND, circle, polygon or beacon; \
                SIZE, a circle's radius in metres, a polygon's vertex count (each ring's closing position not \
                counted) or the beacons a beacon region matches (UUID, UUID:MAJOR or UUID:MAJOR:MINOR); NOTIFY, \
                the events it gives: entry+exit, entry, exit or none, and for a beacon region +ranging when its \
                beacons are ranged, +no-ranging when they are not (else [beacons] ranging decides); NAME. With --json, the \
                file's regions as a GeoJSON FeatureCollection, one feature per line, as the commands write it. \
                No file yet: no regions, and a note on stderr. A file with problems: one line per problem on \
                stderr (file:line:column: features[N] (id "ID"): what is wrong), exit 2.
                """
        )

        @OptionGroup var options: FileOptions

        @Flag(help: "Print the features as GeoJSON instead of the table.")
        var json = false

        func run() throws {
            let command = "waymark regions list"
            let (editor, _) = try options.editor(command)
            let found: [RegionFile.Entry]?
            do {
                found = try editor.entries()
            } catch {
                throw Waymark.Regions.failure(error, command)
            }
            if found == nil { printError("\(command): \(editor.path): no such file yet: no regions") }
            let regions = found ?? []
            if json {
                let text = RegionFile.encode(entries: regions)
                _ = text.withUnsafeBytes { FileDescriptorOutput.writeAll($0, to: 1) }
            } else if !regions.isEmpty {
                for line in Self.table(regions) { print(line) }
            }
        }

        /// The header and one line per region, the columns but the last padded to the same width.
        static func table(_ regions: [RegionFile.Entry]) -> [String] {
            let rows =
                [["ID", "KIND", "SIZE", "NOTIFY", "NAME"]]
                + regions.map { entry in
                    switch entry {
                    case .geographic(let region):
                        [
                            printable(region.id),
                            kind(of: region.shape),
                            size(of: region.shape),
                            notify(region.notifyOnEntry, region.notifyOnExit),
                            region.name.map(printable) ?? "",
                        ]
                    case .beacon(let region):
                        [
                            printable(region.id),
                            "beacon",
                            region.constraint.description,
                            notify(region.notifyOnEntry, region.notifyOnExit)
                                + (region.ranging.map { $0 ? "+ranging" : "+no-ranging" } ?? ""),
                            region.name.map(printable) ?? "",
                        ]
                    }
                }
            let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
            return rows.map { row in
                let padded = (0..<4).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }
                return (padded + [row[4]]).joined(separator: "  ").trimmingTrailingSpaces()
            }
        }

        static func kind(of shape: RegionShape) -> String {
            switch shape {
            case .circle: "circle"
            case .polygons: "polygon"
            }
        }

        static func size(of shape: RegionShape) -> String {
            switch shape {
            case .circle(_, let radius):
                let whole = radius == radius.rounded() && abs(radius) < 1e15
                return (whole ? "\(Int64(radius))" : "\(radius)") + " m"
            case .polygons:
                return "\(shape.vertexCount) vertices"
            }
        }

        static func notify(_ entry: Bool, _ exit: Bool) -> String {
            switch (entry, exit) {
            case (true, true): "entry+exit"
            case (true, false): "entry"
            case (false, true): "exit"
            case (false, false): "none"
            }
        }

        /// `text` as it is, or quoted when it holds a control character that would break the line.
        static func printable(_ text: String) -> String {
            text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? quoted(text) : text
        }
    }
}

extension Waymark.Regions {
    struct State: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "state",
            abstract: "Show the regions' states as the running agent last saved them.",
            discussion: """
                Reads the states the agent saved in its spool (spool.sqlite in the configuration's [agent] \
                state_dir; an earlier version's regions.state there when the spool has none) and prints, for each \
                region of the \
                region file (or the one ID), its id and its state: inside; outside (not inside at the last save, \
                which includes a region added since and not determined yet); unknown (the agent has saved no \
                states yet); or not monitored and why (over max_radius, max_vertices or max_regions). An ID \
                the region file does not have: exit 2.
                """
        )

        @OptionGroup var options: FileOptions

        @Argument(help: ArgumentHelp("Only this region.", valueName: "id"))
        var id: String?

        func run() throws {
            let command = "waymark regions state"
            let (editor, configuration) = try options.editor(command)
            var states: [SavedRegionState]
            do {
                states = try editor.savedStates(stateDirectory: configuration.agent.stateDirectory)
            } catch {
                throw Waymark.Regions.failure(error, command)
            }
            if let id {
                states = states.filter { $0.id == id }
                guard !states.isEmpty else {
                    printError("\(command): \(editor.path): no region \(quoted(id))")
                    throw ExitCode(2)
                }
            }
            let width = states.map { List.printable($0.id).count }.max() ?? 0
            for saved in states {
                let id = List.printable(saved.id)
                print(id + String(repeating: " ", count: width - id.count) + "  \(saved.state)")
            }
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
