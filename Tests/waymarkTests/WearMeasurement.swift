import Foundation
import Testing
import WaymarkTestSupport

/// Issue 44's flash wear, measured live (not a timed test: it runs only from `scripts/measure-live-wear.sh`, which
/// sets `WAYMARK_MEASURE_WEAR=1`).
///
/// One real gpsd reads a receiver on 127.0.0.1 that plays the Regensburg car drive at a fix a second, as
/// ``DayMeasurement`` does; the agent (`WAYMARK_BINARY`, the static release build) runs with its default
/// configuration: the spool, the day log, the trip's GPX, no network sink. Its state and log directories are in
/// `WAYMARK_WEAR_DIR` (the script mounts a file system of their own there). After 20 s it counts, over
/// `WAYMARK_WINDOW` seconds (default 300), the location events, the bytes it caused to be written (`write_bytes`),
/// and, when `WAYMARK_WEAR_DEVICE` names the block device under `WAYMARK_WEAR_DIR`, every byte that device was sent
/// (the file system's journal and inodes with them); then it stops the agent and takes its commits over the run.
/// The agent's runtime directory and the events it prints for the count are in the temporary directory: the
/// script puts that on a tmpfs (`TMPDIR=/dev/shm`), as a board's `/run`, so that they are not counted.
@Suite("Flash wear at a fix a second, live (measurement)")
struct WearMeasurement {
    static let environment = ProcessInfo.processInfo.environment

    /// Bytes sent to block device `name` so far (its sectors written, `/sys/block/NAME/stat`'s seventh field).
    static func deviceBytes(_ name: String) -> Int? {
        let fields = ProcessResources.readProcFile("/sys/block/\(name)/stat").split(separator: " ")
        return fields.count > 6 ? Int(fields[6]).map { $0 * 512 } : nil
    }

    /// The value of counter `name` in the agent's last words (`counters=a=1 b=2 …`).
    static func counter(_ name: String, in stderr: String) -> Int? {
        guard let line = stderr.split(separator: "\n").last(where: { $0.contains("counters=") }) else { return nil }
        let field = line.split(separator: " ").first { $0.hasPrefix("\(name)=") || $0.hasPrefix("counters=\(name)=") }
        return field.flatMap { Int($0.split(separator: "=").last ?? "") }
    }

    @Test(.enabled(if: environment["WAYMARK_MEASURE_WEAR"] == "1"))
    func wear() throws {
        let window = Int(Self.environment["WAYMARK_WINDOW"] ?? "") ?? 300
        let warmUp = 20
        #expect(window + warmUp <= 400, "WAYMARK_WINDOW: at most \(400 - warmUp) s of the drive")
        let log = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        // The drive before its longest stop, its epochs 2 s apart, played twice as fast: a fix a second for 430 s.
        let feed = try NMEAFeedServer(segments: [log.epochs(from: 0, to: 860)], speed: 2, loopLast: true)
        defer { feed.stop() }
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: nil)
        defer { gpsd.stop() }
        let scratch = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let directory = Self.environment["WAYMARK_WEAR_DIR"].map { URL(fileURLWithPath: $0) } ?? scratch
        let device = Self.environment["WAYMARK_WEAR_DEVICE"]
        let config = scratch.appendingPathComponent("waymark.toml").path
        // On a board the runtime directory is a tmpfs (/run/waymark), not the card.
        try Fixtures.isolatedSections(in: directory, runtimeDirectory: scratch.appendingPathComponent("run").path)
            .write(toFile: config, atomically: true, encoding: .utf8)
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)"]
        )
        try agent.wait(seconds: 60, "the first location") { DayMeasurement.count("location", in: agent.stdout) > 0 }
        Thread.sleep(forTimeInterval: Double(warmUp))
        let pid = agent.process.processIdentifier
        let before = (
            locations: DayMeasurement.count("location", in: agent.stdout),
            written: DayMeasurement.writtenBytes(of: pid),
            device: device.flatMap(Self.deviceBytes)
        )
        Thread.sleep(forTimeInterval: Double(window))
        let locations = DayMeasurement.count("location", in: agent.stdout) - before.locations
        let written = DayMeasurement.writtenBytes(of: pid) - before.written
        var deviceBytes: Int?
        if let now = device.flatMap(Self.deviceBytes), let then = before.device { deviceBytes = now - then }
        let status = agent.interrupt()
        let commits = Self.counter("spool_commits", in: agent.stderr)
        let runLocations = Self.counter("location", in: agent.stderr)
        #expect(status == 0, "the agent's stop: \(agent.stderr.suffix(500))")
        #expect(locations > window / 2, "\(locations) location events in \(window) s")
        print(
            "wear seconds=\(window) locations=\(locations) written=\(written) device=\(deviceBytes ?? -1) "
                + "run_commits=\(commits ?? -1) run_locations=\(runLocations ?? -1)"
        )
    }
}
