import ArgumentParser
import WaymarkAgent

extension Waymark {
    /// `waymark regions`: the region file and the regions' saved states from the command line; the work is in
    /// ``RegionFileEditor``.
    struct Regions: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "regions",
            abstract: "List, add, remove and import monitored regions; show their saved states.",
            discussion: """
                The region file is the GeoJSON FeatureCollection that [regions] file names in the configuration \
                (--config FILE, default \(Agent.defaultConfigurationDescription)), or --file PATH. A change rewrites it \
                atomically (a temporary file, fsync, rename) and keeps every other region; a running agent picks \
                it up within 2 s by itself. New regions are checked as the agent checks them, with the \
                configuration's max_radius, max_vertices and max_regions. The file is rewritten one feature per \
                line with the members the agent reads: others, such as a top-level "description" or a feature's \
                "bbox", are lost on rewrite.

                Exit status: 0 done; 2 bad input, a region file with problems or an unknown id (nothing \
                changed); 1 a file that cannot be read or written (nothing changed); 64 bad arguments.
                """,
            subcommands: [List.self, Add.self, Remove.self, Import.self, State.self]
        )
    }
}

extension Waymark.Regions {
    /// Where the region file is, and the configuration that gives its limits and the state directory.
    struct FileOptions: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "The configuration file (default: \(Agent.defaultConfigurationDescription) if present): its [regions] "
                    + "file and limits, and [agent] state_dir.",
                valueName: "file"
            )
        )
        var config: String?

        @Option(
            help: ArgumentHelp("The region file, instead of the configuration's [regions] file.", valueName: "path")
        )
        var file: String?

        /// The configuration and an editor of the region file; or the problem on stderr, each on its own line,
        /// and exit status 2.
        func editor(_ command: String) throws -> (RegionFileEditor, Configuration) {
            let source = ConfigurationSource(path: config)
            let configuration: Configuration
            do {
                configuration = try source.load()
            } catch {
                for issue in error.issues { printError(issue.description) }
                throw ExitCode(2)
            }
            guard let path = file ?? configuration.regions.file else {
                printError(
                    "\(command): no region file: set [regions] file in \(source.fileDescription), or give --file PATH"
                )
                throw ExitCode(2)
            }
            return (RegionFileEditor(path: path, settings: configuration.regions), configuration)
        }
    }

    /// Prints `error`'s problems and then its message after `command`, each on its own line on stderr; returns
    /// the exit status: 1 for a file that cannot be read or written, else 2.
    static func failure(_ error: RegionEditError, _ command: String) -> ExitCode {
        for line in error.problems { printError(line) }
        printError("\(command): \(error.message)")
        return ExitCode(error.isInputOutputFailure ? 1 : 2)
    }

    /// `"depot-3"`: an id or name as JSON and Swift quote it.
    static func quoted(_ text: String) -> String { text.debugDescription }
}
