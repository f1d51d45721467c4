import Foundation
import Testing
import WaymarkTestSupport

/// Issue 7's durability contract (docs/architecture.md, "Durability") with the real parts: `waymark run` with
/// its spool and file sink against a real gpsd reading a paced drive, killed and restarted; the spool's files damaged
/// between runs.
@Suite("Durable spool and fleet-review logs", .serialized)
struct DurabilityTests {
    static let drive = "20100411_Geko_Regensburg.log"

    /// A state and log directory, and the configuration that names them.
    final class Workspace {
        let directory: URL
        let config: String
        var state: URL { directory.appendingPathComponent("state") }
        var logs: URL { directory.appendingPathComponent("logs") }

        init(_ settings: String = "") throws {
            directory = try Fixtures.temporaryDirectory()
            config = directory.appendingPathComponent("waymark.toml").path
            try (Fixtures.isolatedSections(in: directory, besides: settings) + settings).write(
                toFile: config,
                atomically: true,
                encoding: .utf8
            )
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func start(gpsd: Int) throws -> WaymarkBinary.Running {
            try WaymarkBinary.start(["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd)"])
        }

        /// Every line of the daily event logs, in file (date) order.
        func logLines() throws -> [String] {
            let events = logs.appendingPathComponent("events")
            return try FileManager.default.contentsOfDirectory(atPath: events.path).sorted().flatMap { name in
                try String(contentsOf: events.appendingPathComponent(name), encoding: .utf8)
                    .split(separator: "\n").map(String.init)
            }
        }

        /// `waymark spool export --format jsonl`: every event the spool holds.
        func spoolLines() throws -> [String] {
            let result = try WaymarkBinary.run(["spool", "export", "--format", "jsonl", "--config", config])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdoutLines.map(String.init)
        }

        func spoolStats() throws -> [String: Any] {
            let result = try WaymarkBinary.run(["spool", "stats", "--config", config])
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
    }

    static func seq(_ line: String) -> Int? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["seq"] as? Int
    }

    /// A real gpsd reading the drive's first ten minutes, looped, at 10× from a receiver that keeps running.
    static func drivingGPSD() throws -> GPSDFeedServer {
        let log = try NMEALog(path: Fixtures.gpsdLog(drive))
        let feed = try NMEAFeedServer(segments: [log.epochs(from: 0, to: 600)], speed: 10, loopLast: true)
        return try GPSDFeedServer(feed: feed, debugLevel: nil)
    }

    /// Kills `agent` with SIGKILL and waits for it to be gone.
    static func kill(_ agent: WaymarkBinary.Running) {
        agent.signal(SIGKILL)
        agent.process.waitUntilExit()
    }

    @Test("50 SIGKILLs during a paced drive: every seq in the event log once, in order, and every committed event")
    func killedFiftyTimes() throws {
        let log = try NMEALog(path: Fixtures.gpsdLog(Self.drive))
        let speed = 10.0
        let feed = try NMEAFeedServer(segments: [log], speed: speed, loopLast: false)
        defer { feed.stop() }
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: nil)
        defer { gpsd.stop() }
        // Deferral windows short enough that many open and close between the kills.
        let workspace = try Workspace("[deferred]\nmax_events = 40\ntimeout = \"20s\"\n")
        var random = SplitMix64(seed: 20_261_121)
        let pace = log.span / speed / 52
        var agent = try workspace.start(gpsd: gpsd.port)
        for _ in 0..<50 {
            Thread.sleep(forTimeInterval: Double.random(in: 0.2...(2 * pace - 0.2), using: &random))
            Self.kill(agent)
            agent = try workspace.start(gpsd: gpsd.port)
        }
        let end = Date().addingTimeInterval(log.span / speed + 30)
        while feed.playedEpochs < log.epochs.count && Date() < end { Thread.sleep(forTimeInterval: 0.5) }
        Thread.sleep(forTimeInterval: 2)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")

        let lines = try workspace.logLines()
        let seqs = lines.map { Self.seq($0) ?? -1 }
        #expect(!seqs.isEmpty && seqs == Array(1...seqs.count), "every seq from 1 to the last, once, in order")
        // GPS time runs at the wall clock's pace in the feed: about one new fix a second, less the restarts.
        #expect(lines.filter { $0.contains("\"type\":\"location\"") }.count > 60)
        let logged = Dictionary(uniqueKeysWithValues: zip(seqs, lines))
        let spooled = try workspace.spoolLines()
        #expect(spooled.count == lines.count)
        for line in spooled { #expect(logged[Self.seq(line) ?? -1] == line) }
        let stats = try workspace.spoolStats()
        #expect(stats["last_seq"] as? Int == seqs.count)
        let sinks = try #require(stats["sinks"] as? [[String: Any]])
        #expect(sinks.first?["cursor"] as? Int == seqs.count && sinks.first?["unsent"] as? Int == 0, "\(sinks)")
        #expect(!lines.contains { $0.contains("spool_corrupt") || $0.contains("spool_unavailable") })
        let stateFiles = try FileManager.default.contentsOfDirectory(atPath: workspace.state.path)
        #expect(!stateFiles.contains { $0.contains("corrupt") }, "\(stateFiles)")
        // Windows a kill left open were closed at the next start.
        #expect(
            lines.contains { $0.contains("\"type\":\"deferred_finished\"") && $0.contains("\"reason\":\"restart\"") }
        )
    }

    @Test("the WAL cut at random offsets after SIGKILLs: the agent starts, loses at most the tail, and goes on")
    func tornWriteAheadLog() throws {
        let gpsd = try Self.drivingGPSD()
        defer {
            gpsd.stop()
            gpsd.feed.stop()
        }
        let workspace = try Workspace()
        var random = SplitMix64(seed: 7)
        var agent = try workspace.start(gpsd: gpsd.port)
        let wal = workspace.state.appendingPathComponent("spool.sqlite-wal").path
        var cuts: [String] = []
        for _ in 0..<6 {
            Thread.sleep(forTimeInterval: Double.random(in: 1.5...3.5, using: &random))
            Self.kill(agent)
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            let cut = Int.random(in: 0...max(size, 1), using: &random)
            truncate(wal, off_t(cut))
            cuts.append("\(cut) of \(size)")
            agent = try workspace.start(gpsd: gpsd.port)
        }
        try agent.wait(seconds: 20, "locations after the last restart") {
            agent.stdout.components(separatedBy: "\"type\":\"location\"").count > 5
        }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let seqs = try workspace.logLines().map { Self.seq($0) ?? -1 }
        #expect(!seqs.isEmpty && seqs == Array(1...seqs.count), "WAL cuts \(cuts)")
        #expect(!agent.stdout.contains("spool_corrupt") && !agent.stdout.contains("spool_unavailable"))
    }

    @Test("a spool of garbage bytes is moved aside; a fresh one, an error event, and the agent runs")
    func garbageSpool() throws {
        let gpsd = try Self.drivingGPSD()
        defer {
            gpsd.stop()
            gpsd.feed.stop()
        }
        let workspace = try Workspace()
        try FileManager.default.createDirectory(at: workspace.state, withIntermediateDirectories: true)
        var random = SplitMix64(seed: 3)
        let garbage = Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &random) })
        try garbage.write(to: workspace.state.appendingPathComponent("spool.sqlite"))
        let agent = try workspace.start(gpsd: gpsd.port)
        try agent.wait(seconds: 20, "locations") {
            agent.stdout.components(separatedBy: "\"type\":\"location\"").count > 5
        }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let error = try #require(
            agent.stdout.split(separator: "\n").first { $0.contains("\"code\":\"spool_corrupt\"") }
        )
        let aside = try #require(
            try FileManager.default.contentsOfDirectory(atPath: workspace.state.path).first {
                $0.hasPrefix("spool.sqlite.corrupt-")
            }
        )
        #expect(error.contains(aside))
        #expect(try Data(contentsOf: workspace.state.appendingPathComponent(aside)) == garbage)
        #expect(agent.stderr.contains("critical"))
        #expect(try workspace.logLines().contains { $0.contains("spool_corrupt") })
    }

    @Test("waymark defer off ends the window at once; defer on defers again; no agent is exit 1")
    func deferOffAndOn() throws {
        let gpsd = try Self.drivingGPSD()
        defer {
            gpsd.stop()
            gpsd.feed.stop()
        }
        let workspace = try Workspace(
            "[deferred]\nmax_events = 0\ntimeout = \"0s\"\nmax_bytes = \"0B\"\nuntil_traveled = 0\n"
        )
        let nobody = try WaymarkBinary.run(["defer", "off", "--config", workspace.config])
        #expect(nobody.status == 1 && nobody.stderr.contains("no running agent"), "\(nobody.stderr)")
        let agent = try workspace.start(gpsd: gpsd.port)
        try agent.wait(seconds: 20, "locations") {
            agent.stdout.components(separatedBy: "\"type\":\"location\"").count > 5
        }
        // Nothing ends this window but the command.
        #expect(!agent.stdout.contains("deferred_finished"))
        #expect(try WaymarkBinary.run(["defer", "off", "--config", workspace.config]).status == 0)
        try agent.wait(seconds: 10, "the window's end") { agent.stdout.contains("\"reason\":\"disabled\"") }
        #expect(try WaymarkBinary.run(["defer", "on", "--config", workspace.config]).status == 0)
        Thread.sleep(forTimeInterval: 2)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let finished = agent.stdout.split(separator: "\n").filter { $0.contains("\"type\":\"deferred_finished\"") }
        #expect(finished.count == 2 && finished.last?.contains("\"reason\":\"shutdown\"") == true, "\(finished)")
        // After the final commit every event reached the log.
        #expect(try workspace.logLines().count == agent.stdout.split(separator: "\n").count)
    }
}
