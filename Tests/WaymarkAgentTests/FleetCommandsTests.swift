import Foundation
import Synchronization
import Testing
import WaymarkTestSupport

@testable import WaymarkAgent

/// What a board does with a command, in a directory of its own: what it writes, what it refuses (and then leaves
/// as it was), what it answers, and what it tells the agent's loop.
@Suite struct FleetCommandsTests {
    /// A board's state directory and configuration file, with every command accepted.
    /// What the commands told the agent: reloads, and each command's action and verdict.
    final class Told: Sendable {
        let reloads = Mutex(0)
        let reports = Mutex<[String]>([])
    }

    struct Board {
        let directory: URL
        var commands: FleetCommands
        let told = Told()

        init() throws {
            directory = try Fixtures.temporaryDirectory()
            let config = directory.appendingPathComponent("waymark.toml").path
            try """
            [agent]
            device_id = "bus-9"
            state_dir = "\(directory.path)"
            [places]
            enabled = false
            [sinks.owntracks]
            host = "127.0.0.1"
            [fleet]
            enabled = true
            accept = ["setWaypoints", "clearWaypoints", "waypoints", "setConfiguration", "dump", "reportLocation"]
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let source = ConfigurationSource(path: config)
            let configuration = try source.load()
            let told = self.told
            var hooks = FleetCommands.Hooks()
            hooks.reload = { told.reloads.withLock { $0 += 1 } }
            hooks.source = source
            hooks.report = { report in told.reports.withLock { $0.append("\(report.action ?? "-") \(report.ok)") } }
            commands = FleetCommands(
                device: "bus-9",
                topic: "owntracks/fleet/bus-9",
                tid: "b9",
                stateDirectory: directory.path,
                regions: configuration.regions,
                accepted: configuration.fleet.acceptedActions,
                configuration: configuration,
                hooks: hooks
            )
        }

        /// Runs `text`; the answer, and the topics of what else was published.
        func run(_ text: String) throws -> (answer: [String: Any], topics: [String]) {
            let messages = commands.run(Array(text.utf8), status: nil)
            let answer = try #require(messages.last)
            #expect(answer.topic == "owntracks/fleet/bus-9/cmd/result")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.payload)) as? [String: Any])
            return (object, messages.dropLast().map(\.topic))
        }

        func contents(_ name: String) -> String? {
            try? String(contentsOfFile: directory.appendingPathComponent(name).path, encoding: .utf8)
        }
    }

    @Test func aRegionOverALimitRefusesTheWholeSetAndLeavesTheOldOne() throws {
        let board = try Board()
        defer { try? FileManager.default.removeItem(at: board.directory) }
        let good = #"{"action":"setWaypoints","waypoints":[{"rid":"a","lat":1,"lon":2,"rad":50}]}"#
        #expect(try board.run(good).answer["ok"] as? Bool == true)
        let before = try #require(board.contents("fleet-regions.geojson"))
        let huge = #"{"action":"setWaypoints","id":"h","waypoints":[{"rid":"b","lat":1,"lon":2,"rad":9e9}]}"#
        let (answer, _) = try board.run(huge)
        #expect(answer["ok"] as? Bool == false)
        #expect(answer["id"] as? String == "h")
        #expect((answer["message"] as? String)?.hasSuffix("the remote regions are unchanged") == true, "\(answer)")
        #expect(board.contents("fleet-regions.geojson") == before)
        #expect(board.contents("fleet-regions.geojson.incoming") == nil)
        // waypoints publishes the set; clearWaypoints removes it.
        #expect(try board.run(#"{"action":"waypoints"}"#).topics == ["owntracks/fleet/bus-9/waypoints"])
        #expect(try board.run(#"{"action":"clearWaypoints"}"#).answer["ok"] as? Bool == true)
        #expect(board.contents("fleet-regions.geojson") == nil)
        #expect(
            board.told.reports.withLock { $0 } == [
                "setWaypoints true", "setWaypoints false", "waypoints true", "clearWaypoints true",
            ]
        )
    }

    @Test func aConfigurationThatLeavesTheFleetIsRefusedAndNothingIsWritten() throws {
        let board = try Board()
        defer { try? FileManager.default.removeItem(at: board.directory) }
        let off =
            #"{"action":"setConfiguration","configuration":"[sinks.owntracks]\nhost = \"h\"\n[fleet]\nenabled = false\n"}"#
        let (answer, _) = try board.run(off)
        #expect(answer["ok"] as? Bool == false)
        #expect((answer["message"] as? String)?.hasPrefix("[fleet] enabled must stay true") == true, "\(answer)")
        #expect(board.contents("fleet-config.toml") == nil)
        #expect(board.told.reloads.withLock { $0 } == 0)
        // A good one is written, reloaded, and takes the place of the file, with the board's own device_id.
        let good =
            #"{"action":"setConfiguration","configuration":"[agent]\ndevice_id = \"other\"\n[places]\nenabled = false\n"#
            + #"[sinks.owntracks]\nhost = \"127.0.0.1\"\n[fleet]\nenabled = true\naccept = [\"setConfiguration\"]\n"#
            + #"[location]\ndistance_filter = 42\n"}"#
        let applied = try board.run(good).answer
        #expect(applied["ok"] as? Bool == true, "\(applied)")
        #expect(board.told.reloads.withLock { $0 } == 1)
        let effective = try #require(try board.commands.hooks.source?.load())
        #expect(effective.location.distanceFilter == 42)
        #expect(effective.agent.deviceID == "bus-9")
        #expect(applied["config_digest"] as? String == FleetDigests.configuration(effective))
    }

    @Test("a remote configuration keeps the board's own link to its fleet: broker, topic, credentials, accept")
    func theLinkIsTheBoards() throws {
        let board = try Board()
        defer { try? FileManager.default.removeItem(at: board.directory) }
        let document =
            #"{"action":"setConfiguration","configuration":"[places]\nenabled = false\n[sinks.owntracks]\n"#
            + #"host = \"10.0.0.9\"\nport = 1884\ntopic = \"owntracks/x/y\"\nusername = \"u\"\n"#
            + #"[fleet]\nenabled = true\naccept = []\n[location]\ndistance_filter = 7\n"}"#
        let answer = try board.run(document).answer
        #expect(answer["ok"] as? Bool == true, "\(answer)")
        let effective = try #require(try board.commands.hooks.source?.load())
        #expect(effective.location.distanceFilter == 7)
        #expect(effective.ownTracksSink.host == "127.0.0.1" && effective.ownTracksSink.port == 1883)
        #expect(effective.ownTracksSink.topic == nil && effective.ownTracksSink.username == nil)
        #expect(effective.fleet.accept.contains("setConfiguration"))
    }

    @Test func reportLocationWithoutAFixIsRefused() throws {
        let board = try Board()
        defer { try? FileManager.default.removeItem(at: board.directory) }
        let (answer, topics) = try board.run(#"{"action":"reportLocation"}"#)
        #expect(answer["ok"] as? Bool == false)
        #expect(answer["message"] as? String == "no fix yet: no location to report")
        #expect(topics.isEmpty)
    }
}
