import Foundation
import Synchronization
import Testing
import WaymarkTestSupport

/// Issue 17's performance target, measured (not a timed test: it runs only from
/// `scripts/measure-operations-cost.sh`, which sets `WAYMARK_MEASURE_OPERATIONS=1`): the CPU that the metrics,
/// the status file and the health checks cost a driving agent at 1 fix a second. Three agents on one real gpsd
/// that replays the Regensburg drive at its own pace: one ticks once an hour with no textfile and is never asked
/// for its status (the peer); one writes the metrics every `WAYMARK_METRICS_INTERVAL` seconds (default 15) to a
/// tmpfs; one is asked for its status every second (`waymark status` in a loop, as `watch waymark status` does).
/// CPU is each thread's time on a CPU in nanoseconds (`/proc/PID/task/TID/schedstat`), summed over the threads.
@Suite("Operations cost while driving (measurement)")
struct OperationsCostMeasurement {
    static let environment = ProcessInfo.processInfo.environment

    /// Nanoseconds each thread of `pid` has run, by thread id.
    static func runtimes(of pid: Int32) -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var runtimes: [String: Int] = [:]
        for task in tasks {
            let stat = ProcessResources.readProcFile("/proc/\(pid)/task/\(task)/schedstat")
            if let first = stat.split(separator: " ").first, let nanoseconds = Int(first) {
                runtimes[task] = nanoseconds
            }
        }
        return runtimes
    }

    /// CPU nanoseconds of `pid` between two samples: each thread's increment, from zero for a new one.
    static func used(_ before: [String: Int], _ after: [String: Int]) -> Int {
        after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
    }

    /// The agent's own account in a metrics textfile: the CPU seconds of the checks, the status file and the metrics,
    /// and of the whole process, as of the file's last write.
    static func account(_ path: String) -> (own: Double, total: Double, statusFiles: Double) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        func value(_ metric: String) -> Double {
            text.split(separator: "\n").first { $0.hasPrefix(metric + " ") }.flatMap {
                Double($0.split(separator: " ")[1])
            } ?? 0
        }
        return (
            value("waymark_operations_cpu_seconds_total"), value("waymark_cpu_seconds_total"),
            value("waymark_status_writes_total")
        )
    }

    @Test(.enabled(if: environment["WAYMARK_MEASURE_OPERATIONS"] == "1"))
    func cost() throws {
        let window = Double(Self.environment["WAYMARK_WINDOW"] ?? "") ?? 60
        let rounds = Int(Self.environment["WAYMARK_ROUNDS"] ?? "") ?? 3
        let interval = Int(Self.environment["WAYMARK_METRICS_INTERVAL"] ?? "") ?? 15
        // Off, the third agent is never asked: no `waymark status` process starts every second beside the others.
        let asking = Self.environment["WAYMARK_ASK_STATUS"] != "0"
        let log = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let feed = try NMEAFeedServer(segments: [log.epochs(from: 0, to: 1500)], speed: 1, loopLast: true)
        defer { feed.stop() }
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: nil)
        defer { gpsd.stop() }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let textfile = "/dev/shm/waymark-cost-\(getpid()).prom"
        let askedTextfile = "/dev/shm/waymark-cost-asked-\(getpid()).prom"
        defer {
            try? FileManager.default.removeItem(atPath: textfile)
            try? FileManager.default.removeItem(atPath: askedTextfile)
        }
        let variants = [
            ("peer: no textfile, a tick an hour, never asked", "[metrics]\ninterval = \"1h\"\n"),
            ("metrics every \(interval) s", "[metrics]\ntextfile = \"\(textfile)\"\ninterval = \"\(interval)s\"\n"),
            // Its metrics are written once, as it stops: they say what its status files cost.
            ("status asked every second", "[metrics]\ntextfile = \"\(askedTextfile)\"\ninterval = \"1h\"\n"),
        ]
        var agents: [(name: String, config: String, agent: WaymarkBinary.Running)] = []
        var runtimes: [String] = []
        defer { for runtime in runtimes { try? FileManager.default.removeItem(atPath: runtime) } }
        for (index, (name, settings)) in variants.enumerated() {
            let config = directory.appendingPathComponent("\(index).toml").path
            // The runtime directory on a tmpfs, as the unit's /run/waymark is on the board.
            let runtime = "/dev/shm/waymark-cost-\(getpid())-\(index)"
            runtimes.append(runtime)
            let section = Fixtures.isolatedSections(
                in: directory.appendingPathComponent("\(index)"),
                runtimeDirectory: runtime,
                besides: settings
            )
            try (section + settings).write(toFile: config, atomically: true, encoding: .utf8)
            let agent = try WaymarkBinary.start(["run", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)"])
            agents.append((name, config, agent))
        }
        for (name, _, agent) in agents {
            try agent.wait(seconds: 60, "\(name): a fix") { agent.stderr.contains("fix_mode=3") }
        }
        var cpu: [String: [Double]] = [:]
        // Past the start (its first status file and ticks, and the runtime's first uses of each path, which build
        // the families' text and the spool's statements once): the metrics agent's account from its third file on
        // (which counts the first two writes) is its steady state.
        var accounts: Set<Double> = [Self.account(textfile).own]
        for _ in 0..<(4 * interval * 3) where accounts.count < 3 {
            Thread.sleep(forTimeInterval: 0.25)
            accounts.insert(Self.account(textfile).own)
        }
        let first = Self.account(textfile)
        for round in 1...rounds {
            let pids = agents.map { $0.agent.process.processIdentifier }
            let before = pids.map(Self.runtimes(of:))
            let start = Date()
            var asked = 0
            while Date().timeIntervalSince(start) < window {
                if asking { _ = try WaymarkBinary.run(["status", "--config", agents[2].config]) }
                asked += 1
                Thread.sleep(forTimeInterval: max(0, Double(asked) - Date().timeIntervalSince(start)))
            }
            for (index, (name, _, _)) in agents.enumerated() {
                let microseconds = Double(Self.used(before[index], Self.runtimes(of: pids[index]))) / 1000 / window
                cpu[name, default: []].append(microseconds)
                print("round \(round) \(name): \(String(format: "%.1f", microseconds)) CPU µs per second")
            }
            print("round \(round): status asked \(asking ? asked : 0) times")
        }
        let peer = PausedWakeupsMeasurement.median(cpu[variants[0].0] ?? [])
        var summary = "median over \(rounds) rounds of \(Int(window)) s: peer \(String(format: "%.1f", peer)) µs/s"
        for (name, _) in variants.dropFirst() {
            let value = PausedWakeupsMeasurement.median(cpu[name] ?? [])
            summary +=
                "; \(name) \(String(format: "%.1f", value)) µs/s, "
                + "\(String(format: "%+.2f", (value - peer) / peer * 100)) % against the peer"
        }
        print(summary)
        let last = Self.account(textfile)
        let own = last.own - first.own
        let total = last.total - first.total
        print(
            "\(variants[1].0), own account while driving: \(String(format: "%.4f", own)) of "
                + "\(String(format: "%.3f", total)) CPU s (\(String(format: "%.2f", own / max(total, 1e-9) * 100)) %), "
                + "\(Int(last.statusFiles - first.statusFiles)) status files"
        )
        for (_, _, agent) in agents { _ = agent.interrupt() }
        let asked = Self.account(askedTextfile)
        print(
            "\(variants[2].0), own account for the whole run: \(String(format: "%.4f", asked.own)) of "
                + "\(String(format: "%.3f", asked.total)) CPU s (\(String(format: "%.2f", asked.own / max(asked.total, 1e-9) * 100)) %), "
                + "\(Int(asked.statusFiles)) status files"
        )
    }
}
