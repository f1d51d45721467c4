import Foundation
import Testing
import WaymarkTestSupport

/// Issue 39 §1 and §3's `fleet status` with the real parts: agents with `[fleet] enabled` on one real gpsd and one
/// real mosquitto, each with its own device id and directories, and `waymark fleet status` reading their retained
/// statuses from the broker as an operator's workstation does.
@Suite("The fleet: every board says how it is", .serialized)
struct FleetStatusTests {
    static let drive = "20100411_Geko_Regensburg.log"

    /// One board: its directory, its configuration, its agent.
    final class Board {
        let device: String
        let directory: URL
        let config: String
        var agent: WaymarkBinary.Running?

        /// - Parameters:
        ///   - locations: whether the OwnTracks sink sends locations too (one connection for both), or the board
        ///     uses the sink's broker settings for its status only.
        ///   - regions: the region file's contents, if any.
        ///   - keepAlive: `[sinks.owntracks] keepalive`: short for a board to be found dead, long for one stopped
        ///     cleanly (libmosquitto may close a connection at its keep-alive check without the DISCONNECT it was
        ///     given, and the broker then publishes the will: docs/fleet.md).
        ///   - fleet: more `[fleet]` keys (`accept`); `sink`: more `[sinks.owntracks]` keys (credentials).
        init(
            _ device: String,
            broker: MosquittoTestServer,
            gpsd: Int,
            locations: Bool,
            regions: String? = nil,
            keepAlive: String = "5s",
            fleet: String = "",
            sink: String = ""
        ) throws {
            self.device = device
            directory = try Fixtures.temporaryDirectory()
            config = directory.appendingPathComponent("waymark.toml").path
            // No gazetteer, so that `check-config` finds the configuration valid and prints its digest.
            let agent = Fixtures.isolatedSections(in: directory, besides: "[places]").replacingOccurrences(
                of: "[agent]\n",
                with: "[agent]\ndevice_id = \"\(device)\"\n"
            )
            var regionSection = ""
            if let regions {
                let file = directory.appendingPathComponent("regions.geojson")
                try regions.write(to: file, atomically: true, encoding: .utf8)
                regionSection = "[regions]\nfile = \"\(file.path)\"\n"
            }
            try """
            \(agent)
            \(regionSection)
            [places]
            enabled = false

            [gpsd]
            host = "127.0.0.1"
            port = \(gpsd)

            [deferred]
            enabled = false

            [sinks.owntracks]
            enabled = \(locations)
            host = "127.0.0.1"
            port = \(broker.port)
            keepalive = "\(keepAlive)"
            retry_min = "100ms"
            retry_max = "1s"
            \(sink)

            [fleet]
            enabled = true
            status_interval = "1s"
            \(fleet)
            """.write(toFile: config, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// The agent, with the gpsd of its configuration (not `--gpsd`, which would make another configuration in
        /// effect, with another digest than check-config's).
        func start() throws {
            agent = try WaymarkBinary.start(["run", "--config", config])
        }

        /// `waymark check-config --digest`'s digest of the board's configuration.
        func digest() throws -> String? {
            let result = try WaymarkBinary.run(["check-config", "--digest", config])
            return result.stdoutLines.first { $0.hasPrefix("config_digest ") }.map { String($0.dropFirst(14)) }
        }
    }

    /// `waymark fleet status --json` now: the boards by device, and its exit status.
    static func fleet(_ broker: MosquittoTestServer) throws -> (boards: [String: [String: Any]], status: Int32) {
        let result = try WaymarkBinary.run(
            ["fleet", "status", "--broker", "127.0.0.1:\(broker.port)", "--json", "--settle", "300ms"]
        )
        #expect(result.status != 2, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var boards: [String: [String: Any]] = [:]
        for board in array { if let device = board["device"] as? String { boards[device] = board } }
        return (boards, result.status)
    }

    /// Polls `waymark fleet status` until `condition` holds of its boards, at most `seconds`; the last answer.
    @discardableResult
    static func waitForFleet(
        _ broker: MosquittoTestServer,
        seconds: Double,
        _ what: String,
        until condition: ([String: [String: Any]]) -> Bool
    ) throws -> [String: [String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let (boards, _) = try fleet(broker)
            if condition(boards) { return boards }
            guard Date() < deadline else { throw TestServerError("\(what) within \(seconds) s: \(boards)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    @Test("three boards online with their digests and alarms; one killed goes offline, one stopped says so")
    func threeBoards() throws {
        let broker = try MosquittoTestServer()
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), feedDelay: 1, linesPerSecond: 100)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let boards = [
            try Board("bus-001", broker: broker, gpsd: gpsd.port, locations: true, keepAlive: "60s"),
            try Board(
                "bus-002",
                broker: broker,
                gpsd: gpsd.port,
                locations: false,
                regions: "{\"type\": \"FeatureCollection\""
            ),
            try Board("bus-003", broker: broker, gpsd: gpsd.port, locations: false),
        ]
        for board in boards { try board.start() }
        // Garbage retained on a status topic: a board whose line says so, never a crash.
        let garbage = try WaymarkBinary.run(
            ["-p", "\(broker.port)", "-r", "-q", "1", "-t", "owntracks/waymark/junk/status", "-m", "garbage{"],
            executable: "/usr/bin/mosquitto_pub"
        )
        #expect(garbage.status == 0)

        let devices = boards.map(\.device)
        let online = try Self.waitForFleet(broker, seconds: 20, "three boards online with a fix, bus-002's alarm") {
            fleet in
            let allOnline = devices.allSatisfy { device in
                (fleet[device]?["online"] as? Bool) == true && !(fleet[device]?["last_fix"] is NSNull)
            }
            let alarms = fleet["bus-002"]?["alarms"] as? [[String: Any]] ?? []
            return allOnline && alarms.contains { $0["code"] as? String == "region_file_rejected" }
        }
        for board in boards {
            let status = try #require(online[board.device])
            #expect(status["version"] as? String != nil)
            #expect((status["config_digest"] as? String)?.count == 64)
            #expect((status["regions_digest"] as? String)?.count == 64)
            #expect(status["readable"] as? Bool == true)
        }
        // Each board's digest is its configuration's, as check-config computes it for an operator.
        #expect(online["bus-001"]?["config_digest"] as? String == (try boards[0].digest()))
        #expect(online["bus-003"]?["config_digest"] as? String == (try boards[2].digest()))
        #expect((online["bus-001"]?["alarms"] as? [Any])?.isEmpty == true)
        let junk = try #require(online["junk"])
        #expect(junk["readable"] as? Bool == false)
        #expect((junk["problem"] as? String)?.hasPrefix("unreadable") == true)

        // The table: boards that need a look first (the junk and bus-002's alarm), exit status 1.
        let table = try WaymarkBinary.run([
            "fleet", "status", "--broker", "127.0.0.1:\(broker.port)", "--settle", "300ms",
        ])
        #expect(table.status == 1)
        let lines = table.stdoutLines.map(String.init)
        #expect(lines.count == 4, "\(table.stdout)")
        #expect(
            lines.prefix(2).contains { $0.hasPrefix("bus-002  online ") && $0.contains("alarm region_file_rejected") }
        )
        #expect(lines.prefix(2).contains { $0.hasPrefix("junk     unreadable: not JSON") })
        #expect(lines.suffix(2).allSatisfy { $0.contains("online ") && $0.contains("no alarm") })

        // One MQTT connection per board: the sink's locations and the status share bus-001's session.
        #expect(broker.brokerLog.components(separatedBy: " as bus-001 (").count - 1 == 1, "\(broker.brokerLog)")
        #expect(try broker.retained("owntracks/waymark/bus-001")?["_type"] as? String == "location")

        // A reload (SIGHUP) with another setting: the board publishes its new digest, check-config's for the file.
        let before = try #require(try boards[0].digest())
        let text = try String(contentsOfFile: boards[0].config, encoding: .utf8)
        try (text + "\n[location]\ndistance_filter = 25\n").write(
            toFile: boards[0].config,
            atomically: true,
            encoding: .utf8
        )
        let after = try #require(try boards[0].digest())
        #expect(after != before)
        boards[0].agent?.signal(SIGHUP)
        try Self.waitForFleet(broker, seconds: 10, "bus-001's new digest") {
            $0["bus-001"]?["config_digest"] as? String == after
        }

        // A board that stops answering (SIGSTOP: as a board whose power or link is cut, no FIN reaches the broker):
        // the broker's last will marks it offline after one and a half keepalives (5 s).
        let frozen = Date()
        boards[2].agent?.signal(SIGSTOP)
        try Self.waitForFleet(broker, seconds: 15, "bus-003 offline") {
            ($0["bus-003"]?["online"] as? Bool) == false
        }
        let afterFreeze = Date().timeIntervalSince(frozen)
        let dead = try #require(try Self.fleet(broker).boards["bus-003"])
        #expect(dead["offline_reason"] as? String == "connection lost")
        #expect(dead["config_digest"] as? String == (try boards[2].digest()))
        #expect(afterFreeze > 5 && afterFreeze < 12, "offline after \(afterFreeze) s")
        boards[2].agent?.signal(SIGKILL)

        // SIGKILL: the kernel closes the connection without a DISCONNECT, and the broker publishes the will at once.
        let killed = Date()
        boards[1].agent?.signal(SIGKILL)
        try Self.waitForFleet(broker, seconds: 5, "bus-002 offline") {
            ($0["bus-002"]?["online"] as? Bool) == false && $0["bus-002"]?["offline_reason"] as? String != nil
        }
        #expect(Date().timeIntervalSince(killed) < 3)

        // A clean stop says offline at once, with its last status.
        let stopped = Date()
        #expect(boards[0].agent?.interrupt() == 0)
        let gone = try Self.waitForFleet(broker, seconds: 5, "bus-001 offline") {
            ($0["bus-001"]?["online"] as? Bool) == false
        }
        #expect(Date().timeIntervalSince(stopped) < 5)
        #expect(gone["bus-001"]?["offline_reason"] == nil)
        #expect(!(gone["bus-001"]?["last_fix"] is NSNull))
        #expect(boards[0].agent?.stderr.contains("fleet status offline published") == true)
    }

    @Test("a board whose broker is not there says so once in its log and goes on tracking")
    func brokerAbsent() throws {
        let broker = try MosquittoTestServer()
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), linesPerSecond: 200)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let board = try Board("bus-010", broker: broker, gpsd: gpsd.port, locations: false)
        broker.stop()
        try board.start()
        let agent = try #require(board.agent)
        try agent.wait(seconds: 20, "a location event in the spool") {
            agent.stderr.contains("fleet status not published")
                && ((try? WaymarkBinary.run(["spool", "export", "--format", "jsonl", "--config", board.config]).stdout)
                    ?? "").contains("\"type\":\"location\"")
        }
        #expect(agent.stderr.components(separatedBy: "fleet status not published").count - 1 == 1, "\(agent.stderr)")
        // The broker comes back: the status goes, and the log says so.
        try broker.start()
        try agent.wait(seconds: 20, "the status published once the broker is back") {
            agent.stderr.contains("fleet status published again")
        }
        #expect(try broker.retained("owntracks/waymark/bus-010/status")?["online"] as? Bool == true)
        #expect(agent.interrupt() == 0)
    }
}
