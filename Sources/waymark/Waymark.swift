import ArgumentParser
import WaymarkAgent

/// The `waymark` command: parsing only; the work is in ``Agent``.
@main
struct Waymark: AsyncParsableCommand {
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
