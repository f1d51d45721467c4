import ArgumentParser
import WaymarkAgent
import WaymarkCore
import WaymarkUplink

extension Waymark {
    /// `waymark trips`: the trips the agent recorded.
    struct Trips: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trips",
            abstract: "List the trips the agent recorded.",
            subcommands: [List.self]
        )
    }
}

extension Waymark.Trips {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Print the trips in the spool, oldest first: one line each, or their trip events as JSON Lines.",
            discussion: """
                Columns: start and end (UTC), distance in km, duration, stops, why the trip ended (stationary, \
                no_fix, shutdown, or interrupted: a power cut or crash, reported at the next start), and its \
                places, "Regensburg → Kelheim" ([places]: a site's name, or the nearest populated place; ? for \
                none). Each trip's track is log_dir/trips/<start>.gpx when the file sink is enabled.

                --local shows start and end in the local time of the trip's start place, with the offset \
                (2010-04-11T18:57:44.000+02:00), and a zone column (Europe/Berlin), from the zone files of \
                /usr/share/zoneinfo (tzdata; TZDIR names another directory). A trip whose start place has no \
                time zone (places off, a site) or whose zone file cannot be read stays in UTC, said once on \
                stderr. With --json, each trip event gains local_start_time, local_end_time and local_timezone.
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(help: "Only trips that ended at this time or later (ISO 8601 UTC: 2026-11-21T08:00:00Z, 2026-11-21).")
        var since: String?

        @Flag(help: "Print the trip events as JSON Lines instead of a table.")
        var json = false

        @Flag(help: "Show the times in the local time of each trip's start place, with the UTC offset.")
        var local = false

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
            if local {
                printLocal(trips)
                return
            }
            if json {
                for (_, line) in trips { print(line) }
                return
            }
            print(
                "start                     end                       distance_km  duration  stops  reason       places"
            )
            for (trip, _) in trips {
                print(row(trip, start: trip.string("start_time") ?? "?", end: trip.time.iso8601, timeWidth: 25))
            }
        }

        /// `--local`: the trips with their times in their start places' zones, and a warning on stderr for each
        /// zone (or the lack of one) that leaves trips in UTC.
        private func printLocal(_ trips: [(EventLine, String)]) {
            var localTimes = LocalTripTimes()
            let rows = trips.map { trip, line in
                let (times, warning) = localTimes.times(of: trip)
                if let warning { printError("waymark trips list: \(warning)") }
                return (trip, line, times)
            }
            if json {
                for (_, line, times) in rows { print(times.appended(to: line)) }
                return
            }
            let zoneWidth = max(4, rows.map(\.2.zone.count).max() ?? 0) + 1
            print(
                pad("start", 30) + " " + pad("end", 30)
                    + " distance_km  duration  stops  reason       \(pad("zone", zoneWidth)) places"
            )
            for (trip, _, times) in rows {
                print(
                    row(trip, start: times.start ?? "?", end: times.end, timeWidth: 30, zone: (times.zone, zoneWidth))
                )
            }
        }

        /// One line of the table: `start` and `end` as given, in columns `timeWidth` wide, then the trip's figures,
        /// the zone when given, and its places.
        private func row(
            _ trip: EventLine,
            start: String,
            end: String,
            timeWidth: Int,
            zone: (name: String, width: Int)? = nil
        ) -> String {
            let distance = (trip.number("distance") ?? 0) / 1000
            let duration = Int(trip.number("duration") ?? 0)
            return [
                pad(start, timeWidth),
                pad(end, timeWidth),
                pad(String((distance * 100).rounded() / 100), 12),
                pad("\(duration / 3600)h\(pad(String(duration / 60 % 60), 2, left: true, fill: "0"))m", 9),
                pad(String(Int(trip.number("stops") ?? 0)), 6),
                pad(trip.string("reason") ?? "?", 12),
                zone.map { pad($0.name, $0.width) },
                trip.route ?? "",
            ].compactMap { $0 }.joined(separator: " ").trimmingSuffix()
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
