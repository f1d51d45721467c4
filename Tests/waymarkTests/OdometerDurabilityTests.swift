import Foundation
import Testing
import WaymarkTestSupport

/// The odometer across a SIGKILL (issue 43): `waymark run` with its spool against a real gpsd reading the first ten
/// minutes of the Regensburg drive at 10×, killed mid-drive and started again, against the same feed uninterrupted.
@Suite("The odometer across SIGKILL", .serialized)
struct OdometerDurabilityTests {
    static let speed = 10.0
    /// The drive's top speed, m/s: what bounds the distance of a stretch of time not seen.
    static let topSpeed = 29.1

    static func feed() throws -> (NMEALog, GPSDFeedServer) {
        let log = try NMEALog(path: Fixtures.gpsdLog(DurabilityTests.drive)).epochs(from: 0, to: 600)
        let feed = try NMEAFeedServer(segments: [log], speed: speed, loopLast: false)
        return (log, try GPSDFeedServer(feed: feed, debugLevel: nil))
    }

    static func objects(_ lines: some Sequence<some StringProtocol>) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func seconds(_ object: [String: Any], of key: String = "time") -> Double? {
        guard let text = object[key] as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    /// Runs the agent until the feed has played, then stops it; returns what it printed.
    static func runToTheEnd(_ agent: WaymarkBinary.Running, _ gpsd: GPSDFeedServer, _ log: NMEALog) throws -> String {
        let end = Date().addingTimeInterval(log.span / speed + 30)
        while gpsd.feed.playedEpochs < log.epochs.count && Date() < end { Thread.sleep(forTimeInterval: 0.5) }
        Thread.sleep(forTimeInterval: 2)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        return agent.stdout
    }

    /// The odometer of the last `trip` event printed.
    static func finalOdometer(_ printed: [[String: Any]]) -> Double? {
        printed.last { $0["type"] as? String == "trip" }?["odometer_m"] as? Double
    }

    @Test(
        "killed mid-drive: the restart goes on from the committed odometer; nothing counted twice, lost at most the unseen time"
    )
    func killedMidDrive() throws {
        // The same feed without a kill: the odometer a clean run reaches.
        let reference: Double
        do {
            let (log, gpsd) = try Self.feed()
            defer {
                gpsd.stop()
                gpsd.feed.stop()
            }
            let workspace = try DurabilityTests.Workspace()
            let printed = Self.objects(
                try Self.runToTheEnd(try workspace.start(gpsd: gpsd.port), gpsd, log).split(separator: "\n")
            )
            reference = try #require(Self.finalOdometer(printed))
        }

        let (log, gpsd) = try Self.feed()
        defer {
            gpsd.stop()
            gpsd.feed.stop()
        }
        let workspace = try DurabilityTests.Workspace()
        var agent = try workspace.start(gpsd: gpsd.port)
        Thread.sleep(forTimeInterval: log.span / Self.speed / 2)
        DurabilityTests.kill(agent)
        let saved = try #require(try workspace.spoolStats()["odometer_m"] as? Double)
        let committed = Self.objects(try workspace.spoolLines())
        let lastCommitted = try #require(
            committed.last { $0["type"] as? String == "location" }.flatMap { Self.seconds($0) }
        )
        // Trips the first run ended and committed carry the odometer at their end: the saved one is past them.
        let committedTrips = committed.compactMap { $0["odometer_m"] as? Double }
        #expect(saved >= (committedTrips.max() ?? 0))
        #expect(saved > 1000, "half the feed drives kilometres")

        agent = try workspace.start(gpsd: gpsd.port)
        let printed = Self.objects(try Self.runToTheEnd(agent, gpsd, log).split(separator: "\n"))
        let final = try #require(Self.finalOdometer(printed))
        // Not twice: what the restarted agent adds is exactly its own trips' distances.
        let trips = printed.filter { $0["type"] as? String == "trip" && $0["reason"] as? String != "interrupted" }
        let added = trips.reduce(0) { $0 + ($1["distance"] as? Double ?? 0) }
        #expect(abs(final - saved - added) < 0.1 * Double(trips.count) + 0.01, "saved \(saved), added \(added)")
        // Not more than the time not seen: from the last committed fix to the first fix after the restart, or to the
        // start of the restarted run's first trip when that comes later (a trip, and so the odometer, starts at the
        // first movement the restarted agent confirms: docs/trips.md, "Trips"). The feed
        // stamps its fixes with the wall clock's seconds (about one fix a second reaches the agent, the others are
        // repeated epochs), so a second of GPS time holds `speed` seconds of the drive; which fix of each second
        // the agent keeps differs from run to run, and so does the sum of the chords, by up to about 1 %.
        let firstFix = try #require(printed.first { $0["type"] as? String == "location" }.flatMap { Self.seconds($0) })
        let firstTrip = trips.first.flatMap { Self.seconds($0, of: "start_time") } ?? firstFix
        let firstAfter = max(firstFix, firstTrip)
        let unseen = (firstAfter - lastCommitted) * Self.speed * Self.topSpeed
        #expect(final <= reference * 1.01, "reference \(reference), final \(final)")
        #expect(
            reference - final <= unseen + reference * 0.01,
            "reference \(reference), final \(final), saved \(saved), added \(added), unseen \(unseen) m from \(lastCommitted) to \(firstAfter); trips \(trips.map { "\($0["start_time"] ?? "?") \($0["distance"] ?? "?")" })"
        )
    }

    @Test("waymark odometer set: taken at the next start without an agent, at once by a running one; saved")
    func setTheOdometer() throws {
        let gpsd = try DurabilityTests.drivingGPSD()
        defer {
            gpsd.stop()
            gpsd.feed.stop()
        }
        let workspace = try DurabilityTests.Workspace()
        let offline = try WaymarkBinary.run(["odometer", "set", "12345.6", "--config", workspace.config])
        #expect(
            offline.status == 0 && offline.stdout.contains("at its next start"),
            "\(offline.stdout)\(offline.stderr)"
        )
        let agent = try workspace.start(gpsd: gpsd.port)
        try agent.wait(seconds: 30, "a few locations") {
            agent.stdout.components(separatedBy: "\"type\":\"location\"").count > 5
        }
        Thread.sleep(forTimeInterval: 2)
        let started = try #require(try workspace.spoolStats()["odometer_m"] as? Double)
        // Ten minutes of the drive at 10×, looped: a few kilometres at most since the start.
        #expect(started >= 12_345_600 && started < 12_345_600 + 20_000, "\(started)")

        let online = try WaymarkBinary.run(["odometer", "set", "100", "--config", workspace.config])
        #expect(online.status == 0 && online.stdout.contains("takes it now"), "\(online.stdout)\(online.stderr)")
        Thread.sleep(forTimeInterval: 3)
        let set = try #require(try workspace.spoolStats()["odometer_m"] as? Double)
        #expect(set >= 100_000 && set < 100_000 + 5_000, "\(set)")
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let final = try #require(try workspace.spoolStats()["odometer_m"] as? Double)
        #expect(final >= set && final < 100_000 + 10_000, "\(final)")
        #expect(!FileManager.default.fileExists(atPath: workspace.state.appendingPathComponent("odometer-set").path))
    }
}
