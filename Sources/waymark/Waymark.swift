import ArgumentParser
import WaymarkAgent
import WaymarkSystem

/// The `waymark` command: parsing only; the work is in ``Agent``.
@main
struct Waymark: AsyncParsableCommand {
    /// One malloc arena, set before any thread starts: each thread's own arena kept the memory it freed, which a
    /// board cannot reclaim (docs/performance.md, "The binary and its memory"). The runtime's global jobs on
    /// threads of the agent's own, before the first: libdispatch's would wake the process every second.
    static func main() async {
        MallocArenas.limit(to: 1)
        GlobalExecutor.install()
        await main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "waymark",
        abstract: "An on-board location agent for vehicle fleets: live fixes from gpsd, as Core Location does.",
        version: "waymark \(Agent.versionDescription)\nPlaces: \(Agent.geoNamesCredit)",
        subcommands: [
            Run.self, Replay.self, CheckConfig.self, Locate.self, Geo.self, Regions.self, Spool.self, Trips.self,
            Defer.self, Places.self, Status.self, Sinks.self, Fleet.self, Odometer.self,
        ]
    )
}
