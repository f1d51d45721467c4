import Foundation
import Testing
import WaymarkTestSupport

/// Issue 39 §2–§4 with the real parts: agents with `[fleet] accept` on one real gpsd and one real mosquitto, and
/// `waymark fleet send` commanding them from the broker as an operator's workstation does.
@Suite("The fleet: commands to the boards", .serialized)
struct FleetCommandLiveTests {
    typealias Board = FleetStatusTests.Board
    static let drive = FleetStatusTests.drive
    static let everything =
        #"accept = ["reportLocation", "setWaypoints", "clearWaypoints", "waypoints", "dump", "setConfiguration"]"#

    /// `waymark fleet send … --json`: the answers by device, and the exit status.
    static func send(
        _ broker: MosquittoTestServer,
        _ glob: String,
        _ action: String,
        _ file: String? = nil,
        timeout: String = "10s",
        options: [String] = []
    ) throws -> (answers: [String: [String: Any]], status: Int32) {
        var arguments = ["fleet", "send", glob, action]
        if let file { arguments.append(file) }
        arguments += ["--broker", "127.0.0.1:\(broker.port)", "--settle", "300ms", "--timeout", timeout, "--json"]
        let result = try WaymarkBinary.run(arguments + options)
        #expect(result.status != 2, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var answers: [String: [String: Any]] = [:]
        for answer in array { if let device = answer["device"] as? String { answers[device] = answer } }
        return (answers, result.status)
    }

    /// The board's spool, as JSON objects.
    static func events(_ board: Board) throws -> [[String: Any]] {
        let result = try WaymarkBinary.run(["spool", "export", "--format", "jsonl", "--config", board.config])
        return result.stdoutLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// An OwnTracks waypoints document with one circle, `stop`, around the drive's fix at `fraction` of it.
    static func waypoints(at fraction: Double, in directory: URL) throws -> String {
        let oracle = try CaptureOracle(chkPath: Fixtures.gpsdLog(drive + ".chk"))
        let epoch = oracle.epochs[Int(Double(oracle.epochs.count) * fraction)]
        let file = directory.appendingPathComponent("waypoints.json")
        try """
        {"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Stop","lat":\(epoch.latitude),\
        "lon":\(epoch.longitude),"rad":150,"tst":1700000000,"rid":"stop"}]}
        """.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test("setWaypoints to three boards: each ok, and their next crossings are of the new region; garbage refused")
    func waypointsToThreeBoards() throws {
        let broker = try MosquittoTestServer()
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), feedDelay: 2, linesPerSecond: 400)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let boards = try ["bus-001", "bus-002", "bus-003"].map {
            try Board($0, broker: broker, gpsd: gpsd.port, locations: false, fleet: Self.everything)
        }
        for board in boards { try board.start() }
        try FleetStatusTests.waitForFleet(broker, seconds: 10, "three boards online") { fleet in
            boards.allSatisfy { (fleet[$0.device]?["online"] as? Bool) == true }
        }
        let results = try broker.subscribe("owntracks/waymark/bus-001/cmd/result", id: "results")
        let file = try Self.waypoints(at: 0.7, in: boards[0].directory)
        let (answers, status) = try Self.send(broker, "bus-*", "setWaypoints", file)
        #expect(status == 0)
        #expect(answers.count == 3)
        for board in boards {
            #expect(answers[board.device]?["ok"] as? Bool == true, "\(answers)")
            #expect(answers[board.device]?["message"] as? String == "1 remote regions set")
        }
        // Garbage on bus-001's cmd: refused, each answered, nothing changed, the agent unharmed.
        let before = try #require(try FleetStatusTests.fleet(broker).boards["bus-001"])
        let megabyte = boards[0].directory.appendingPathComponent("megabyte.json")
        try Data(repeating: UInt8(ascii: " "), count: 1 << 20).write(to: megabyte)
        let garbage: [[String]] = [
            ["-m", "not json"], ["-f", megabyte.path], ["-m", #"{"_type":"cmd","action":"reboot","id":"g3"}"#],
            ["-m", #"{"_type":"cmd","action":"setWaypoints","id":"g4","waypoints":[{"lat":"north"}]}"#],
        ]
        for message in garbage {
            let result = try WaymarkBinary.run(
                ["-p", "\(broker.port)", "-q", "1", "-t", "owntracks/waymark/bus-001/cmd"] + message,
                executable: "/usr/bin/mosquitto_pub"
            )
            #expect(result.status == 0, "\(result.stderr)")
        }
        let deadline = Date().addingTimeInterval(10)
        while MosquittoTestServer.messages(in: results).count < 5 && Date() < deadline { usleep(100_000) }
        let answered = MosquittoTestServer.messages(in: results).map(\.payload).suffix(4)
        #expect(answered.count == 4)
        #expect(answered.allSatisfy { $0["ok"] as? Bool == false && $0["_type"] as? String == "cmdResult" })
        let reasons = answered.compactMap { $0["message"] as? String }
        #expect(reasons.first?.hasPrefix("not JSON") == true, "\(reasons)")
        #expect(reasons.contains("too large: more than 262144 bytes"), "\(reasons)")
        #expect(reasons.contains { $0.hasPrefix("unknown action \"reboot\"") }, "\(reasons)")
        #expect(reasons.contains("waypoints[0]: lat must be a number"), "\(reasons)")
        #expect(answered.contains { $0["id"] as? String == "g3" && $0["action"] as? String == "reboot" })

        // Each board's next crossing is of the new region.
        for board in boards {
            try board.agent?.wait(seconds: 40, "\(board.device) enters the remote region") {
                ((try? Self.events(board)) ?? []).contains {
                    $0["type"] as? String == "region" && $0["id"] as? String == "stop"
                        && $0["event"] as? String == "enter"
                }
            }
        }
        let after = try FleetStatusTests.waitForFleet(broker, seconds: 10, "bus-001's last command shown") {
            $0["bus-001"]?["regions"] as? Int == 1
        }
        #expect(after["bus-001"]?["config_digest"] as? String == before["config_digest"] as? String)
        #expect(after["bus-001"]?["regions_digest"] as? String == after["bus-002"]?["regions_digest"] as? String)
        // Every command, run or refused, is a `command` event.
        let commands = try Self.events(boards[0]).filter { $0["type"] as? String == "command" }
        #expect(commands.count == 5, "\(commands)")
        #expect(commands.first?["ok"] as? Bool == true && commands.first?["action"] as? String == "setWaypoints")
        #expect(commands.dropFirst().allSatisfy { $0["ok"] as? Bool == false })
        for board in boards { #expect(board.agent?.interrupt() == 0) }
    }

    @Test("setConfiguration: a bad one refused with check-config's line, a good one applied, its digest published")
    func configuration() throws {
        let broker = try MosquittoTestServer()
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), linesPerSecond: 200)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let board = try Board("bus-020", broker: broker, gpsd: gpsd.port, locations: false, fleet: Self.everything)
        try board.start()
        try FleetStatusTests.waitForFleet(broker, seconds: 10, "online") { $0["bus-020"]?["online"] as? Bool == true }
        let digest = try #require(try board.digest())
        let text = try String(contentsOfFile: board.config, encoding: .utf8)

        let bad = board.directory.appendingPathComponent("bad.toml").path
        try (text + "\n[location]\ndistance_filter = -5\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let check = try WaymarkBinary.run(["check-config", bad])
        let line = try #require(check.stderr.split(separator: "\n").first { $0.contains("distance_filter") })
        let refused = try Self.send(broker, "bus-020", "setConfiguration", bad)
        #expect(refused.status == 1)
        let message = try #require(refused.answers["bus-020"]?["message"] as? String)
        #expect(message.contains(String(line.drop { $0 != ":" }.dropFirst())), "\(message) / \(line)")
        #expect(message.hasPrefix("setConfiguration:"))
        #expect(message.hasSuffix("the running configuration is kept"))
        #expect(!FileManager.default.fileExists(atPath: board.directory.path + "/state/fleet-config.toml"))

        let good = board.directory.appendingPathComponent("good.toml").path
        try (text + "\n[location]\ndistance_filter = 25\n").write(toFile: good, atomically: true, encoding: .utf8)
        let newDigest = try #require(
            try WaymarkBinary.run(["check-config", "--digest", good]).stdoutLines.first {
                $0.hasPrefix("config_digest ")
            }.map { String($0.dropFirst(14)) }
        )
        #expect(newDigest != digest)
        let dumps = try broker.subscribe("owntracks/waymark/bus-020/dump", id: "dumps")
        let applied = try Self.send(broker, "bus-020", "setConfiguration", good)
        #expect(applied.status == 0, "\(applied.answers)")
        #expect(applied.answers["bus-020"]?["ok"] as? Bool == true)
        // What a reload does not change is named (review of issue 41: [beacons.advertise] was in neither list).
        let answer = applied.answers["bus-020"]?["message"] as? String ?? ""
        #expect(answer.hasSuffix("[sinks.owntracks]) and [beacons.advertise] apply at the next start"), "\(answer)")
        try FleetStatusTests.waitForFleet(broker, seconds: 10, "the new digest") {
            $0["bus-020"]?["config_digest"] as? String == newDigest
        }
        // In effect: the configuration the board dumps says so.
        #expect(try Self.send(broker, "bus-020", "dump").status == 0)
        let deadline = Date().addingTimeInterval(5)
        while MosquittoTestServer.messages(in: dumps).isEmpty && Date() < deadline { usleep(100_000) }
        let dump = try #require(MosquittoTestServer.messages(in: dumps).first?.payload)
        #expect(dump["config_digest"] as? String == newDigest)
        #expect((dump["configuration"] as? String)?.contains("location.distance_filter=25.0\n") == true)

        // reportLocation: the last fix at once, as OwnTracks' location with t "r", on the board's topic.
        try FleetStatusTests.waitForFleet(broker, seconds: 10, "a fix") { !($0["bus-020"]?["last_fix"] is NSNull) }
        let locations = try broker.subscribe("owntracks/waymark/bus-020", id: "locations")
        #expect(try Self.send(broker, "bus-020", "reportLocation").status == 0)
        let until = Date().addingTimeInterval(5)
        while MosquittoTestServer.messages(in: locations).isEmpty && Date() < until { usleep(100_000) }
        let location = try #require(MosquittoTestServer.messages(in: locations).first?.payload)
        #expect(location["_type"] as? String == "location" && location["t"] as? String == "r")
        #expect(location["lat"] is Double && location["tid"] as? String == "20")
        #expect(board.agent?.interrupt() == 0)
    }

    @Test("a command sent while a board is stopped waits in its session, and is applied when it starts again")
    func queuedWhileStopped() throws {
        let broker = try MosquittoTestServer()
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), linesPerSecond: 200)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let board = try Board(
            "bus-030",
            broker: broker,
            gpsd: gpsd.port,
            locations: false,
            keepAlive: "60s",
            fleet: Self.everything
        )
        try board.start()
        try FleetStatusTests.waitForFleet(broker, seconds: 10, "online") { $0["bus-030"]?["online"] as? Bool == true }
        board.agent?.signal(SIGKILL)
        try FleetStatusTests.waitForFleet(broker, seconds: 10, "offline") { $0["bus-030"]?["online"] as? Bool == false }
        let file = try Self.waypoints(at: 0.5, in: board.directory)
        let queued = try Self.send(broker, "bus-030", "setWaypoints", file, timeout: "1s")
        #expect(queued.status == 1)
        #expect(queued.answers["bus-030"]?["answered"] as? Bool == false)
        #expect((queued.answers["bus-030"]?["message"] as? String)?.contains("queued for when it connects") == true)
        try board.start()
        try FleetStatusTests.waitForFleet(broker, seconds: 10, "the remote region monitored after the restart") {
            $0["bus-030"]?["online"] as? Bool == true && $0["bus-030"]?["regions"] as? Int == 1
        }
        #expect(FileManager.default.fileExists(atPath: board.directory.path + "/state/fleet-regions.geojson"))
        #expect(board.agent?.interrupt() == 0)
    }

    /// The mosquitto ACL of docs/fleet.md ("Who may command a board").
    static let acl = """
        # Boards: the user name is the board's device_id, its topic owntracks/fleet/DEVICE.
        pattern write owntracks/fleet/%u/#
        pattern read owntracks/fleet/%u/cmd

        # Operators: read every status and answer, command every board.
        user ops
        topic read owntracks/fleet/+/status
        topic read owntracks/fleet/+/cmd/result
        topic read owntracks/fleet/+/waypoints
        topic read owntracks/fleet/+/dump
        topic write owntracks/fleet/+/cmd

        """

    @Test("under the docs' ACL, only an operator commands a board: another user's command never reaches it")
    func onlyOperatorsCommand() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwords = directory.appendingPathComponent("passwords").path
        for (index, user) in ["bus-101", "bus-102", "ops", "guest"].enumerated() {
            let result = try WaymarkBinary.run(
                (index == 0 ? ["-c"] : []) + ["-b", passwords, user, "secret-\(user)"],
                executable: "/usr/bin/mosquitto_passwd"
            )
            #expect(result.status == 0, "\(result.stderr)")
            try "secret-\(user)\n".write(
                toFile: directory.appendingPathComponent("\(user).pw").path,
                atomically: true,
                encoding: .utf8
            )
        }
        let aclFile = directory.appendingPathComponent("acl").path
        try Self.acl.write(toFile: aclFile, atomically: true, encoding: .utf8)
        let broker = try MosquittoTestServer(access: .init(passwordFile: passwords, aclFile: aclFile))
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), linesPerSecond: 200)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let board = try Board(
            "bus-101",
            broker: broker,
            gpsd: gpsd.port,
            locations: false,
            fleet: Self.everything,
            sink: """
                topic = "owntracks/fleet/bus-101"
                username = "bus-101"
                password_file = "\(directory.path)/bus-101.pw"
                """
        )
        try board.start()
        let operatorOptions = [
            "--topic", "owntracks/fleet/+/status", "--username", "ops", "--password-file", "\(directory.path)/ops.pw",
        ]
        let deadline = Date().addingTimeInterval(10)
        while true {
            let status = try WaymarkBinary.run(
                ["fleet", "status", "--broker", "127.0.0.1:\(broker.port)", "--settle", "300ms", "--json"]
                    + operatorOptions
            )
            if status.stdout.contains("\"online\":true") { break }
            guard Date() < deadline else { throw TestServerError("bus-101 online: \(status.stdout) \(status.stderr)") }
            usleep(200_000)
        }
        // Another user, another board, anonymous: the broker drops the command or the connection.
        let command = #"{"_type":"cmd","action":"clearWaypoints","id":"intruder"}"#
        for user in ["guest", "bus-102"] {
            let published = try WaymarkBinary.run(
                ["-p", "\(broker.port)", "-q", "1", "-t", "owntracks/fleet/bus-101/cmd", "-m", command]
                    + ["-u", user, "-P", "secret-\(user)"],
                executable: "/usr/bin/mosquitto_pub"
            )
            // MQTT 3.1.1 has no refusal of a publication: the broker acknowledges it and delivers it to no one.
            #expect(published.status == 0, "\(published.stderr)")
        }
        let anonymous = try WaymarkBinary.run(
            ["-p", "\(broker.port)", "-q", "1", "-t", "owntracks/fleet/bus-101/cmd", "-m", command],
            executable: "/usr/bin/mosquitto_pub"
        )
        #expect(anonymous.status != 0)
        // The operator's command is answered; it is the only one the board ever saw.
        let sent = try Self.send(broker, "bus-101", "waypoints", options: operatorOptions)
        #expect(sent.status == 0, "\(sent.answers)")
        #expect(sent.answers["bus-101"]?["ok"] as? Bool == true)
        // The event goes to the spool with its next commit.
        var commands: [[String: Any]] = []
        try board.agent?.wait(seconds: 10, "the command event in the spool") {
            commands = ((try? Self.events(board)) ?? []).filter { $0["type"] as? String == "command" }
            return !commands.isEmpty
        }
        #expect(commands.count == 1, "\(commands)")
        #expect(commands.first?["action"] as? String == "waypoints")
        #expect(board.agent?.interrupt() == 0)
    }
}
