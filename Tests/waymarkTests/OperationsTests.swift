import Foundation
import Testing
import WaymarkTestSupport

/// Issue 17: what a fleet engineer sees of a running agent — `waymark status`, the health alarms, the metrics
/// through a real node_exporter — with a real gpsd reading a receiver at its own pace.
@Suite("Operating a board: status, alarms, metrics")
struct OperationsTests {
    @Test("status follows a live agent: the fix, the trip in progress, the backlog, the pause; after kill -9, exit 3")
    func statusOfALiveAgent() throws {
        // A stretch of driving, then the drive's longest stop, looped.
        let drive = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let run = try OperatedRun(
            segments: [drive.epochs(from: 300, to: 400), drive.epochs(from: 870, to: 916)],
            speed: 4,
            settings: "[activity]\npause_after = \"6s\"\n"
        )
        let moving = try run.waitForStatus(seconds: 30, "a fix, a trip in progress, a deferral window") { status in
            status["last_fix"] != nil && (status["activity"] as? [String: Any])?["trip"] != nil
                && status["deferral"] != nil
        }
        #expect(moving["running"] as? Bool == true)
        #expect((moving["gpsd"] as? [String: Any])?["connected"] as? Bool == true)
        #expect(moving["fix_mode"] as? Int == 3 && (moving["satellites_used"] as? Int ?? 0) > 0)
        let fix = try #require(moving["last_fix"] as? [String: Any])
        #expect((fix["age"] as? Double ?? 99) < 5, "\(fix)")
        let sinks = try #require(moving["sinks"] as? [[String: Any]])
        #expect(sinks.first?["name"] as? String == "file" && (sinks.first?["unsent"] as? Int ?? 0) > 0, "\(sinks)")

        let paused = try run.waitForStatus(seconds: 60, "the pause") { status in
            (status["activity"] as? [String: Any])?["state"] as? String == "paused"
        }
        #expect((paused["activity"] as? [String: Any])?["reason"] as? String == "stationary")
        let table = try WaymarkBinary.run(["status", "--config", run.config])
        #expect(table.status == 0)
        for name in ["gpsd ", "receiver ", "last fix ", "activity ", "spool ", "sink file ", "alarms "] {
            #expect(table.stdout.contains("\n" + name), "\(name) in \(table.stdout)")
        }
        #expect(table.stdout.contains("paused (stationary) since "), "\(table.stdout)")

        run.agent.signal(SIGKILL)
        run.agent.process.waitUntilExit()
        let dead = try WaymarkBinary.run(["status", "--config", run.config])
        #expect(dead.status == 3, "\(dead.stdout) \(dead.stderr)")
        #expect(dead.stdout.hasPrefix("waymark is not running (its status file "), "\(dead.stdout)")
        #expect(dead.stdout.contains("\nspool "), "the spool's figures, read directly: \(dead.stdout)")
        let json = try WaymarkBinary.run(["status", "--json", "--config", run.config])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(json.status == 3 && object["running"] as? Bool == false && object["spool"] != nil, "\(object)")
    }

    @Test(
        "a status file from a dead agent, another program's pid, or garbage: never shown as live, never a crash",
        arguments: [
            #"{"pid":1,"process_start":1,"state":"running","fix_mode":3}"#,
            #"{"pid":-5,"state":"running","fix_mode":-3,"uptime":1e999,"last_fix":{"age":-1e999,"h_acc":1e300}}"#,
            #"{"pid":1e999,"process_start":-1,"state":"running"}"#, #"{"pid":"#, "",
        ]
    )
    func staleOrGarbageStatusFile(_ content: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waymark.toml").path
        try Fixtures.isolatedSections(in: directory).write(toFile: config, atomically: true, encoding: .utf8)
        let run = directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        try content.write(to: run.appendingPathComponent("status.json"), atomically: true, encoding: .utf8)
        for arguments in [["status"], ["status", "--json"]] {
            let result = try WaymarkBinary.run(arguments + ["--config", config])
            #expect(result.status == 3, "\(arguments): \(result.stdout) \(result.stderr)")
        }
        let table = try WaymarkBinary.run(["status", "--config", config])
        #expect(table.stdout.hasPrefix("waymark is not running (its status file "), "\(table.stdout)")
    }

    @Test("a stop says stopped: status exits 3 at once")
    func stoppedAgent() throws {
        let drive = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let run = try OperatedRun(segments: [drive.epochs(from: 300, to: 330)], speed: 1, settings: "")
        _ = try run.waitForStatus(seconds: 30, "a fix") { $0["last_fix"] != nil }
        #expect(run.agent.interrupt() == 0)
        let result = try WaymarkBinary.run(["status", "--config", run.config])
        #expect(result.status == 3 && result.stdout.hasPrefix("waymark is not running"), "\(result.stdout)")
    }
}

/// `waymark run` on a real gpsd that reads `segments` of a capture at its own pace (the last looped), with
/// `settings` added to its configuration and `environment` added to its own, its state and runtime
/// directories where given (else in its own temporary `directory`, made unless given); everything goes when
/// this does.
final class OperatedRun {
    let feed: NMEAFeedServer
    let gpsd: GPSDFeedServer
    let directory: URL
    let config: String
    let agent: WaymarkBinary.Running

    init(
        segments: [NMEALog],
        speed: Double,
        settings: String,
        launcher: [String] = [],
        environment: [String: String] = [:],
        stateDirectory: String? = nil,
        runtimeDirectory: String? = nil,
        directory: URL? = nil
    ) throws {
        feed = try NMEAFeedServer(segments: segments, speed: speed, loopLast: true)
        gpsd = try GPSDFeedServer(feed: feed, debugLevel: nil)
        self.directory = try directory ?? Fixtures.temporaryDirectory()
        let directory = self.directory
        config = directory.appendingPathComponent("waymark.toml").path
        // The board's gazetteer is never read: see Fixtures.isolatedSections.
        let section = """
            [places]
            file = "\(directory.appendingPathComponent("no-places.bin").path)"
            [agent]
            state_dir = "\(stateDirectory ?? directory.appendingPathComponent("state").path)"
            log_dir = "\(directory.appendingPathComponent("logs").path)"
            runtime_dir = "\(runtimeDirectory ?? directory.appendingPathComponent("run").path)"

            """
        try (section + settings + "\n").write(
            toFile: config,
            atomically: true,
            encoding: .utf8
        )
        let arguments = ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)"]
        agent = try WaymarkBinary.start(
            launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [WaymarkBinary.path] + arguments,
            executable: launcher.first ?? WaymarkBinary.path,
            adding: environment
        )
    }

    /// `waymark status --json` of this agent, once `condition` holds for it; at most `seconds`.
    func waitForStatus(
        seconds: Double,
        _ what: String,
        until condition: ([String: Any]) -> Bool
    ) throws -> [String: Any] {
        var last: [String: Any] = [:]
        do {
            try agent.wait(seconds: seconds, what) {
                guard let result = try? WaymarkBinary.run(["status", "--json", "--config", config]),
                    let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                else { return false }
                last = object
                return result.status == 0 && condition(object)
            }
        } catch {
            throw TestServerError("\(error); the last status: \(last)")
        }
        return last
    }

    /// The events the agent printed so far.
    var events: [[String: Any]] {
        agent.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The printed events of `type`, and of `code` when given.
    func events(_ type: String, code: String? = nil) -> [[String: Any]] {
        events.filter { $0["type"] as? String == type && (code == nil || $0["code"] as? String == code) }
    }

    deinit {
        agent.process.stop()
        gpsd.stop()
        feed.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
