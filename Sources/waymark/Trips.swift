import ArgumentParser
import WaymarkAgent
import WaymarkCore
import WaymarkUplink

extension Waymark {
    /// `waymark trips`: the trips the agent recorded.
    struct Trips: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the trips the agent recorded.",
            subcommands: [List.self]
        )
    }
}

extension Waymark.Trips {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the trips in the spool, oldest first: one line each, or their trip events as JSON Lines.",
            discussion: """
                Columns: start and end (UTC), distance in km, duration, stops, why the trip ended (stationary, \
                no_fix, shutdown, or interrupted: a power cut or crash, reported at the next start), and its \
                places, "Regensburg → Kelheim" ([places]: a site's name, or the nearest populated place; ? for \
                none). Each trip's track is log_dir/trips/<start>.gpx when the file sink is enabled.
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(help: "Only trips that ended at this time or later (ISO 8601 UTC: 2026-11-21T08:00:00Z, 2026-11-21).")
        var since: String?

        @Flag(help: "Print the trip events as JSON Lines instead of a table.")
        var json = false

        func validate() throws { _ = try since.map(parseTime) }

        func run() throws {
            let configuration = try options.loadConfiguration()
            let start = try since.map(parseTime)
            let trips: [(EventLine, String)]
            do {
                trips = try Agent.trips(configuration, since: start)
            } catch {
                printError("waymark trips list: \(error)")
                throw ExitCode(1)
            }
            if json {
                for (_, line) in trips { print(line) }
                return
            }
            print(
                "start                     end                       distance_km  duration  stops  reason       places"
            )
            for (trip, _) in trips {
                let distance = (trip.number("distance") ?? 0) / 1000
                let duration = Int(trip.number("duration") ?? 0)
                print(
                    [
                        pad(trip.string("start_time") ?? "?", 25),
                        pad(trip.time.iso8601, 25),
                        pad(String((distance * 100).rounded() / 100), 12),
                        pad("\(duration / 3600)h\(pad(String(duration / 60 % 60), 2, left: true, fill: "0"))m", 9),
                        pad(String(Int(trip.number("stops") ?? 0)), 6),
                        pad(trip.string("reason") ?? "?", 12),
                        trip.route ?? "",
                    ].joined(separator: " ").trimmingSuffix()
                )
            }
        }

        private func pad(_ text: String, _ width: Int, left: Bool = false, fill: Character = " ") -> String {
            let padding = String(repeating: fill, count: max(0, width - text.count))
            return left ? padding + text : text + padding
        }
    }
}

extension String {
    /// The string without its trailing spaces.
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
