import Foundation
import Testing
import WaymarkTestSupport

extension PowerCutTests {
    /// The agent's directories on LazyFS, its configuration and runtime directory off it.
    final class Board {
        let lazyFS: LazyFS
        let directory: URL
        let config: String
        let state: URL
        let logs: URL
        private(set) var agent: WaymarkBinary.Running?

        /// - Parameter under: a directory of the mount to hold `state` and `logs`, for a board of its own.
        init(_ lazyFS: LazyFS, _ settings: String, under: String = "") throws {
            self.lazyFS = lazyFS
            let root = under.isEmpty ? lazyFS.mountPoint : lazyFS.mountPoint.appendingPathComponent(under)
            state = root.appendingPathComponent("state")
            logs = root.appendingPathComponent("logs")
            directory = try Fixtures.temporaryDirectory()
            config = directory.appendingPathComponent("waymark.toml").path
            let agentSection = """
                [agent]
                device_id = "bus-7"
                state_dir = "\(state.path)"
                log_dir = "\(logs.path)"
                runtime_dir = "\(directory.appendingPathComponent("run").path)"

                """
            try (agentSection + Fixtures.isolatedSections(in: directory, besides: agentSection) + settings).write(
                toFile: config,
                atomically: true,
                encoding: .utf8
            )
        }

        deinit {
            agent.map { Self.kill($0) }
            try? FileManager.default.removeItem(at: directory)
        }

        /// Starts the agent and waits until it has printed a location: it started.
        func start(gpsd: Int) throws {
            let agent = try WaymarkBinary.start(["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd)"])
            self.agent = agent
            try agent.wait(seconds: 30, "a location after the start") {
                agent.stdout.contains("\"type\":\"location\"") || !agent.process.isRunning
            }
            #expect(agent.process.isRunning, "the agent did not start after a cut: \(agent.stderr.suffix(2000))")
        }

        /// The power cut: the agent killed and LazyFS's unsynced bytes thrown away together (or LazyFS already
        /// dead at a chosen operation), then the reboot: unmounted and mounted again over what reached the disk.
        func cut() throws {
            if let agent { Self.kill(agent) }
            if lazyFS.isRunning { try lazyFS.clearCache() }
            try lazyFS.remount()
        }

        static func kill(_ agent: WaymarkBinary.Running) {
            agent.signal(SIGKILL)
            agent.process.waitUntilExit()
        }

        func stop() -> Int32 {
            defer { agent = nil }
            return agent?.interrupt() ?? 0
        }

        /// `waymark spool export`: every event the spool holds, by seq, as the lines it holds.
        func spool() throws -> [Int: String] {
            let result = try WaymarkBinary.run(["spool", "export", "--format", "jsonl", "--config", config])
            #expect(result.status == 0, "spool export after a cut: \(result.stderr)")
            var events: [Int: String] = [:]
            for line in result.stdoutLines {
                let seq = try #require(Ledger.seq(String(line)), "a spooled line without seq: \(line)")
                events[seq] = String(line)
            }
            return events
        }

        /// `waymark spool stats`: each sink's cursor, the last seq it confirmed.
        func cursors() throws -> [String: Int] {
            let result = try WaymarkBinary.run(["spool", "stats", "--config", config])
            #expect(result.status == 0, "spool stats after a cut: \(result.stderr)")
            let stats = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let sinks = stats?["sinks"] as? [[String: Any]] ?? []
            return Dictionary(
                uniqueKeysWithValues: sinks.compactMap { sink in
                    (sink["name"] as? String).flatMap { name in (sink["cursor"] as? Int).map { (name, $0) } }
                }
            )
        }

        /// The lines of the day logs (in date order) and of `trips.jsonl` (with `trips`); a last line without its
        /// newline is returned as `torn`.
        func logLines(trips: Bool = true) -> (lines: [String], torn: [String]) {
            let events = logs.appendingPathComponent("events")
            var files = ((try? FileManager.default.contentsOfDirectory(atPath: events.path)) ?? []).sorted().map {
                events.appendingPathComponent($0)
            }
            if trips { files.append(logs.appendingPathComponent("trips.jsonl")) }
            var lines: [String] = []
            var torn: [String] = []
            for file in files {
                guard let data = FileManager.default.contents(atPath: file.path), !data.isEmpty else { continue }
                let parts = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                lines += parts.dropLast().map { String(decoding: $0, as: UTF8.self) }
                if let last = parts.last, !last.isEmpty {
                    torn.append("\(file.lastPathComponent): \(String(decoding: last.prefix(80), as: UTF8.self))")
                }
            }
            return (lines, torn)
        }

        /// Files the agent set aside as corrupt.
        func setAside() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []).filter {
                $0.contains("corrupt")
            }
        }
    }

    /// Every event that left the board, by seq: what a backend keeps. A seq seen with two contents is a seq given
    /// to two events.
    final class Ledger {
        private(set) var events: [Int: [String: Any]] = [:]
        private(set) var reused: [String] = []

        static func object(_ line: String) -> [String: Any]? {
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }

        static func seq(_ line: String) -> Int? { object(line)?["seq"] as? Int }

        /// Records `event` (its `device` and `recv` aside: the uplink adds the one, and the batch sink leaves out
        /// the other) as seen at `where`.
        func record(_ event: [String: Any], at place: String) {
            guard let seq = event["seq"] as? Int else { return }
            var event = event
            event["device"] = nil
            event["recv"] = nil
            if let known = events[seq] {
                if !(known as NSDictionary).isEqual(to: event) { reused.append("seq \(seq) in \(place): \(event)") }
            } else {
                events[seq] = event
            }
        }
    }
}
