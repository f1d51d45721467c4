import Foundation
import Testing
import WaymarkTestSupport

/// What the fleet's status costs on the wire while driving (docs/performance.md, "The fleet's status"): one agent
/// with `[fleet]` at its defaults (`status_interval` 1 min, `status_refresh` 15 min) and the OwnTracks sink on, on
/// a real gpsd reading the Regensburg drive at its own pace (1 epoch a second, its times moved to now), a real
/// mosquitto, and a subscriber counting the status messages. Run by `scripts/measure-fleet.sh`.
@Suite(.serialized)
struct FleetStatusMeasurement {
    static let environment = ProcessInfo.processInfo.environment
    static let enabled = environment["WAYMARK_MEASURE_FLEET"] == "1"

    @Test(.enabled(if: enabled))
    func statusMessagesWhileDriving() throws {
        let window = Double(Self.environment["WAYMARK_WINDOW"] ?? "") ?? 600
        let broker = try MosquittoTestServer()
        let statuses = try broker.subscribe("owntracks/+/+/status", id: "fleet-measure")
        let log = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let feed = try NMEAFeedServer(segments: [log.epochs(from: 0, to: window + 30)], speed: 1, loopLast: false)
        defer { feed.stop() }
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: nil)
        defer { gpsd.stop() }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waymark.toml").path
        try """
        \(Fixtures.isolatedSections(in: directory).replacingOccurrences(of: "[agent]\n", with: "[agent]\ndevice_id = \"bus-1\"\n"))
        [sinks.owntracks]
        enabled = true
        host = "127.0.0.1"
        port = \(broker.port)
        [fleet]
        enabled = true
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)"]
        )
        let started = Date()
        Thread.sleep(forTimeInterval: window)
        let elapsed = Date().timeIntervalSince(started)
        let messages = MosquittoTestServer.messages(in: statuses)
        let text = (try? String(contentsOf: statuses, encoding: .utf8)) ?? ""
        let bytes = text.split(separator: "\n").map { line in
            line.firstIndex(of: " ").map { line[line.index(after: $0)...].utf8.count } ?? 0
        }
        let events = agent.stdout.split(separator: "\n")
        let kinds = ["location", "pause", "resume", "trip", "region", "error"].map { kind in
            "\(kind) \(events.filter { $0.contains("\"type\":\"\(kind)\"") }.count)"
        }
        print(
            "status messages: \(messages.count) in \(Int(elapsed)) s of driving, "
                + String(format: "%.1f", Double(messages.count) * 3600 / elapsed) + " an hour; "
                + "payload bytes \(bytes.min() ?? 0) to \(bytes.max() ?? 0), "
                + "\(bytes.reduce(0, +) * 3600 / max(1, Int(elapsed))) an hour; events: \(kinds.joined(separator: ", "))"
        )
        for message in messages {
            let activity = (message.payload["activity"] as? [String: Any])?["state"] as? String ?? "?"
            print("  tst \(message.payload["tst"] ?? "?") online \(message.payload["online"] ?? "?") \(activity)")
        }
        #expect(agent.interrupt() == 0)
        #expect(messages.count >= 1)
    }
}
