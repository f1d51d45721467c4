import ArgumentParser
import WaymarkAgent
import WaymarkCore
import WaymarkSystem
import WaymarkUplink

extension Waymark {
    /// `waymark spool`: what the durable spool holds, and exports of it for fleet review.
    struct Spool: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "spool",
            abstract: "Show what the spool holds, or export its events for fleet review.",
            discussion: """
                The spool is [agent] state_dir/spool.sqlite of the configuration (--config FILE, default \
                \(Agent.defaultConfigurationDescription)). Both commands only read it, and may run beside the agent.
                """,
            subcommands: [Stats.self, Export.self]
        )
    }
}

extension Waymark.Spool {
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Print one JSON object: events, bytes, the oldest event each sink has not confirmed, drops."
        )

        @OptionGroup var options: CommonOptions

        func run() throws {
            let configuration = try options.loadConfiguration()
            do {
                print(try Agent.spoolStatistics(configuration))
            } catch {
                printError("waymark spool stats: \(error)")
                throw ExitCode(1)
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the spool's events to stdout as JSON Lines, GPX, GeoJSON or CSV.",
            discussion: """
                gpx writes the location events as one track, split into segments where the fix was lost; \
                geojson every event with a position as a Point feature whose properties are the event; csv one \
                row per event.
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(help: "The first seq to export.")
        var from: UInt64?

        @Option(help: "The last seq to export.")
        var to: UInt64?

        @Option(help: "Export events from this time on (ISO 8601 UTC, e.g. 2026-11-21T08:00:00Z or 2026-11-21).")
        var since: String?

        @Option(help: "jsonl, gpx, geojson or csv.")
        var format: String

        @Flag(help: "Export the events the sinks' servers refused (in quarantine) instead.")
        var quarantined = false

        func validate() throws {
            _ = try exportFormat()
            _ = try since.map(parseTime)
            if let from, let to, from > to {
                throw ValidationError("--from \(from) --to \(to): the first seq is after the last; nothing to export")
            }
        }

        func run() throws {
            let configuration = try options.loadConfiguration()
            let exportFormat = try exportFormat()
            let start = try since.map(parseTime)
            do {
                try Agent.exportSpool(
                    configuration,
                    from: from,
                    through: to,
                    since: start,
                    format: exportFormat,
                    quarantined: quarantined
                ) {
                    bytes in bytes.withUnsafeBytes { _ = FileDescriptorOutput.writeAll($0, to: 1) }
                }
            } catch {
                printError("waymark spool export: \(error)")
                throw ExitCode(1)
            }
        }

        private func exportFormat() throws -> ExportFormat {
            guard let exportFormat = ExportFormat(rawValue: format) else {
                throw ValidationError("--format \(format): expected jsonl, gpx, geojson or csv")
            }
            return exportFormat
        }
    }
}

/// `--since` as a time (a date alone is its midnight, UTC), or a usage error naming it.
func parseTime(_ text: String) throws -> Timestamp {
    guard let time = Timestamp(iso8601: text) ?? Timestamp(iso8601: text + "T00:00:00Z") else {
        throw ValidationError(
            "--since \(text): expected an ISO 8601 UTC time such as 2026-11-21T08:00:00Z, or a date such as 2026-11-21"
        )
    }
    return time
}
