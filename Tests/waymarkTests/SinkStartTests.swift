import Foundation
import Testing
import WaymarkTestSupport

/// Issue 36: a network sink enabled on a board with history. By default it gets the whole spool (nothing lost);
/// with `start = "now"` it gets what comes after it was first enabled, across restarts. Three runs on one spool
/// against a real gpsd reading stretches of the Regensburg drive, and a loopback server decoding Traccar's
/// OsmAnd requests.
@Suite("Uplinks: where a new sink starts", .serialized)
struct SinkStartTests {
    /// `waymark run` of `config` on a gpsd reading `segment` at 10 times its pace, stopped once it has been read.
    static func drive(_ segment: NMEALog, config: String) throws {
        let feed = try NMEAFeedServer(segments: [segment], speed: 10, loopLast: false)
        defer { feed.stop() }
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: nil)
        defer { gpsd.stop() }
        let agent = try WaymarkBinary.start(["run", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)"])
        try agent.wait(seconds: 60, "the stretch read") { feed.playedEpochs >= segment.epochs.count }
        Thread.sleep(forTimeInterval: 1.5)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }

    static func spool(_ arguments: [String], config: String) throws -> WaymarkBinary.Result {
        let result = try WaymarkBinary.run(["spool"] + arguments + ["--config", config])
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    /// The seq of every location the spool holds.
    static func locationSeqs(config: String) throws -> [Int] {
        try spool(["export", "--format", "jsonl"], config: config).stdoutLines.compactMap { line in
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return event?["type"] as? String == "location" ? event?["seq"] as? Int : nil
        }
    }

    static func lastSeq(config: String) throws -> Int {
        let stats = try spool(["stats"], config: config).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        return try #require(object["last_seq"] as? Int)
    }

    /// `start` when the sink is first enabled, and `startLater` when its server is up: the first decides, a later
    /// `start` changes nothing for a sink that has begun (an "oldest" start is saved as "now"'s is).
    @Test(
        "history on the board, then Traccar enabled while its server is down, then up: all of it, or from then on",
        arguments: [(nil, nil), ("now", "now"), (nil, "now")] as [(String?, String?)]
    )
    func newSinkOnABoardWithHistory(start: String?, startLater: String?) throws {
        let drive = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waymark.toml").path
        let base =
            Fixtures.isolatedSections(in: directory).replacingOccurrences(
                of: "[agent]\n",
                with: "[agent]\ndevice_id = \"bus-7\"\n"
            )
            + "[deferred]\nenabled = false\n\n"
        func configure(traccar url: String?, start: String? = nil) throws {
            var text = base
            if let url {
                text += "[sinks.traccar]\nenabled = true\nurl = \"\(url)\"\nretry_max = \"1s\"\n"
                if let start { text += "start = \"\(start)\"\n" }
            }
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }

        // The board's history, with no network sink.
        try configure(traccar: nil)
        try Self.drive(drive.epochs(from: 300, to: 420), config: config)
        let history = try Self.lastSeq(config: config)
        let historic = try Self.locationSeqs(config: config)
        #expect(historic.count > 10, "history to send or not: \(historic)")

        // The sink enabled, its server not up yet: nothing goes, and where it starts is kept.
        try configure(traccar: "http://127.0.0.1:\(try GPSDTestServer.freePort())/", start: start)
        try Self.drive(drive.epochs(from: 600, to: 720), config: config)
        let later = try Self.lastSeq(config: config)
        let locations = try Self.locationSeqs(config: config)
        #expect(locations.contains { $0 > history }, "locations after the sink was enabled")

        // The server up: the sink goes on from where it started.
        let server = try UplinkTestServer(devices: ["bus-7"])
        defer { server.stop() }
        try configure(traccar: server.osmAndURL, start: startLater)
        let agent = try WaymarkBinary.start(
            ["run", "--config", config, "--gpsd", "127.0.0.1:\(try GPSDTestServer.freePort())"]
        )
        let expected = start == "now" ? locations.filter { $0 > history } : locations
        _ = try UplinkDeliveryTests.waitForServer(server, seconds: 60, "every expected position") { received in
            Set(Self.seqs(received)).isSuperset(of: expected)
        }
        Thread.sleep(forTimeInterval: 1)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let seqs = Self.seqs(try server.received())
        #expect(seqs.allSatisfy { $0 <= later }, "\(seqs)")
        if start == "now" {
            #expect(seqs.allSatisfy { $0 > history }, "the history stays on the board: \(seqs)")
        } else {
            #expect(seqs.contains { $0 <= history }, "the history goes too: \(seqs)")
        }
    }

    /// The seq of every position the server accepted.
    static func seqs(_ received: [[String: Any]]) -> [Int] {
        received.filter { $0["kind"] as? String == "osmand" }.compactMap {
            (($0["attributes"] as? [String: Any])?["seq"] as? Double).map { Int($0) }
        }
    }
}
