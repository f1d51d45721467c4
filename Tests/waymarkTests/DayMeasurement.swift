import Foundation
import Testing
import WaymarkTestSupport

/// Issue 44's day in numbers, measured (not a timed test: it runs only from `scripts/measure-day.sh`, which sets
/// `WAYMARK_MEASURE_DAY=1` and turns the figures into a table for a day of 8 h driving and 16 h parked).
///
/// One real gpsd reads a receiver on 127.0.0.1 that plays the Regensburg car drive at a fix a second (its epochs
/// are 2 s apart: it is played twice as fast), then the drive's longest stop, looped: the vehicle parked with its
/// receiver on. The agent runs as it
/// goes on a board (`WAYMARK_BINARY`, the static release build) with its default configuration (spool, day
/// log, GPX, trips) and the batch HTTP sink delivering to a loopback backend; the C libgps loop
/// (`WAYMARK_PEER`, scripts/bench/minimal-client.c) reads the same gpsd side by side. Each phase is sampled for
/// `WAYMARK_WINDOW` seconds (default 300): the parked one once the agent has paused (its `pause_after`, 5 min).
/// The agent's state and log directories are in `WAYMARK_DAY_DIR` (the script keeps it on a disk, and its spool
/// after the run); its runtime directory, the test's own files and the events it prints for the count are in the
/// temporary directory, which the script puts on a tmpfs (`TMPDIR=/dev/shm`), as a board's `/run`: not counted.
@Suite("A day of driving and parking (measurement)")
struct DayMeasurement {
    static let environment = ProcessInfo.processInfo.environment

    /// What one process did over a window: CPU seconds, voluntary context switches (its wake-ups), bytes it
    /// caused to be written to storage (`write_bytes` of /proc/PID/io).
    struct Usage {
        var cpu: Double
        var wakeups: Int
        var written: Int
    }

    static func writtenBytes(of pid: Int32) -> Int {
        let io = ProcessResources.readProcFile("/proc/\(pid)/io")
        let line = io.split(separator: "\n").first { $0.hasPrefix("write_bytes:") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// Samples every process of `pids` side by side over `seconds`, once a second: threads come and go (the
    /// concurrency runtime's pool), so each thread's CPU time (``OperationsCostMeasurement/runtimes(of:)``) and
    /// voluntary switches (``PausedWakeupsMeasurement/switches(of:)``) are counted by their increments, from zero
    /// when it is new.
    static func usage(of pids: [Int32], over seconds: Int) -> [Usage] {
        var runtimes = pids.map(OperationsCostMeasurement.runtimes(of:))
        var switches = pids.map(PausedWakeupsMeasurement.switches(of:))
        let written = pids.map(Self.writtenBytes(of:))
        var totals = [(nanoseconds: Int, switches: Int)](repeating: (0, 0), count: pids.count)
        for _ in 0..<seconds {
            Thread.sleep(forTimeInterval: 1)
            for (index, pid) in pids.enumerated() {
                let nowRuntimes = OperationsCostMeasurement.runtimes(of: pid)
                let nowSwitches = PausedWakeupsMeasurement.switches(of: pid)
                totals[index].nanoseconds += OperationsCostMeasurement.used(runtimes[index], nowRuntimes)
                totals[index].switches += nowSwitches.reduce(0) {
                    $0 + $1.value.count - (switches[index][$1.key]?.count ?? 0)
                }
                (runtimes[index], switches[index]) = (nowRuntimes, nowSwitches)
            }
        }
        return pids.indices.map { index in
            Usage(
                cpu: Double(totals[index].nanoseconds) / 1e9,
                wakeups: totals[index].switches,
                written: Self.writtenBytes(of: pids[index]) - written[index]
            )
        }
    }

    static func count(_ type: String, in output: String) -> Int {
        output.components(separatedBy: "\"type\":\"\(type)\"").count - 1
    }

    @Test(.enabled(if: environment["WAYMARK_MEASURE_DAY"] == "1"))
    func day() throws {
        let window = Int(Self.environment["WAYMARK_WINDOW"] ?? "") ?? 300
        let peer = try #require(Self.environment["WAYMARK_PEER"], "WAYMARK_PEER: the C libgps loop to run beside")
        let log = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        // The drive before its longest stop (870 s to 916 s of the capture) is 860 s of driving, its epochs 2 s
        // apart: played twice as fast, a fix a second, it lasts 430 s.
        let warmUp = 20
        #expect(window + warmUp <= 400, "WAYMARK_WINDOW: at most \(400 - warmUp) s of the drive")
        let feed = try NMEAFeedServer(segments: [log.epochs(from: 0, to: 860)], speed: 2, loopLast: true)
        defer { feed.stop() }
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: nil)
        defer { gpsd.stop() }
        let backend = try UplinkTestServer()
        defer { backend.stop() }
        let scratch = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let directory = Self.environment["WAYMARK_DAY_DIR"].map { URL(fileURLWithPath: $0) } ?? scratch
        let settings = "[sinks.http]\nenabled = true\nurl = \"\(backend.batchURL)\"\n"
        let config = scratch.appendingPathComponent("waymark.toml").path
        // On a board the runtime directory is a tmpfs (/run/waymark), not the card.
        let runtime = scratch.appendingPathComponent("run").path
        try (Fixtures.isolatedSections(in: directory, runtimeDirectory: runtime, besides: settings) + settings)
            .write(toFile: config, atomically: true, encoding: .utf8)
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)"]
        )
        let loop = try WaymarkBinary.start(["127.0.0.1", "\(gpsd.port)"], executable: peer)
        defer {
            _ = agent.interrupt()
            _ = loop.interrupt()
        }
        try agent.wait(seconds: 60, "the first location") { Self.count("location", in: agent.stdout) > 0 }
        Thread.sleep(forTimeInterval: Double(warmUp))
        let pids = [agent.process.processIdentifier, loop.process.processIdentifier]

        func phase(_ name: String) {
            let events = (Self.count("location", in: agent.stdout), agent.stdout.split(separator: "\n").count)
            let epochs = feed.playedEpochs
            let usage = Self.usage(of: pids, over: window)
            let locations = Self.count("location", in: agent.stdout) - events.0
            let lines = agent.stdout.split(separator: "\n").count - events.1
            print(
                "phase \(name) seconds=\(window) epochs=\(feed.playedEpochs - epochs) locations=\(locations) "
                    + "events=\(lines) cpu=\(usage[0].cpu) wakeups=\(usage[0].wakeups) written=\(usage[0].written) "
                    + "peer_cpu=\(usage[1].cpu) peer_wakeups=\(usage[1].wakeups) peer_written=\(usage[1].written)"
            )
        }
        phase("driving")
        feed.switchTo(log.epochs(from: 870, to: 916))
        try agent.wait(seconds: 420, "the pause") { Self.count("pause", in: agent.stdout) > 0 }
        Thread.sleep(forTimeInterval: 2)
        phase("parked")
        let batches = try backend.received().count
        print("backend received \(batches) events in batches")
        #expect(batches > 0, "the batch HTTP sink delivered nothing")
    }
}
