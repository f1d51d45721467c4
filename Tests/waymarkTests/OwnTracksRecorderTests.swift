import Foundation
import Testing
import WaymarkTestSupport

/// Issue 37: nothing lost at the consumer. A backlog of more than 10,000 locations drains through a mosquitto with
/// its default settings (a queue of 1,000 messages per subscriber, which drops what overflows after the broker
/// acknowledged it) to the real OwnTracks Recorder, while a real gpsd feeds a drive live: the Recorder stores
/// every location, and the live positions reach its "last" long before the backlog is through.
@Suite("Uplinks: OwnTracks to a real Recorder behind a default broker", .serialized)
struct OwnTracksRecorderTests {
    static let backlog = 10_200

    /// What mosquitto logs when a subscriber's queue overflows and it drops messages it acknowledged.
    static let dropped = "Outgoing messages are being dropped for client recorder"

    /// A generated drive of `count` fixes a second apart, 10 m apart, in 2026: every fix a location.
    static func drive(_ count: Int, to path: String) throws {
        var text = #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">"#
        text += "<trk><trkseg>\n"
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let formatter = ISO8601DateFormatter()
        for index in 0..<count {
            let lat = 49.0 + 0.3 * sin(Double(index) / 20_000)
            let lon = 12.0 + Double(index) * 10 / 6_371_000 / cos(49 * Double.pi / 180) / 0.9 * 180 / Double.pi
            let time = formatter.string(from: start.addingTimeInterval(Double(index)))
            text += "<trkpt lat=\"\(String(format: "%.7f", lat))\" lon=\"\(String(format: "%.7f", lon))\">"
            text += "<ele>\(330 + index % 50)</ele><time>\(time)</time><hdop>0.9</hdop></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test(
        "A backlog of 10,200 locations with a live drive beside it, through a default mosquitto: the Recorder stores every one, and the live ones go ahead",
        arguments: [false, true]
    )
    func backlogThroughADefaultBroker(stopsRecorder: Bool) throws {
        let broker = try MosquittoTestServer(settings: .defaults)
        let recorder = try OwnTracksRecorder(broker: broker)
        // The sink's defaults (drain_rate among them) but for its backoff; no file sink: the drain alone.
        let workspace = try OwnTracksDeliveryTests.Workspace(broker: broker, extra: "\n[sinks.file]\nenabled = false\n")
        let config = workspace.config
        let directory = workspace.directory
        // The backlog: a day offline, made by a replay into the spool (which leaves the network sinks' events there).
        let gpx = directory.appendingPathComponent("backlog.gpx").path
        try Self.drive(Self.backlog, to: gpx)
        let replay = try WaymarkBinary.run(["replay", gpx, "--spool", "--config", config], timeout: 300)
        #expect(replay.status == 0, "\(replay.stderr)")
        let backlog = try workspace.spooledLocations().keys
        #expect(backlog.count == Self.backlog)
        let backlogLast = try #require(backlog.max())

        // The board comes back and drives: a real gpsd replays the Regensburg drive (774 locations in 40 s).
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"), linesPerSecond: 250)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let started = Date()
        let running = try workspace.start(gpsd: gpsd.port)
        var storedWhenLiveSeen: Int?
        var restart = "not stopped"
        var stopped = false
        let deadline = Date().addingTimeInterval(400)
        var lastGrowth = (count: 0, at: Date())
        while true {
            let stored = Set(recorder.storedLocationSeqs())
            if stored.count > lastGrowth.count { lastGrowth = (stored.count, Date()) }
            if storedWhenLiveSeen == nil, let seq = recorder.last(user: "waymark", device: "bus-7")?["seq"] as? Int,
                seq > backlogLast
            {
                storedWhenLiveSeen = stored.filter { $0 <= backlogLast }.count
            }
            if stopsRecorder && !stopped && stored.count >= 3_000 {
                // Stopped for 2 s: about 300 messages queue for its session at the sink's pace, within the default
                // 1,000 even when a loaded machine is slow to start it again.
                let stopping = Date()
                recorder.stop()
                Thread.sleep(forTimeInterval: 2)
                try recorder.start()
                stopped = true
                restart = "stopped at \(stored.count) stored, back after \(Int(Date().timeIntervalSince(stopping))) s"
            }
            let spooled = Set(try workspace.spooledLocations().keys)
            let drained = running.stderr.contains("code=no_device") && spooled.isSubset(of: stored)
            if drained { break }
            // Nothing stored for 30 s after the drive: what is missing is not coming.
            let stalled = running.stderr.contains("code=no_device") && Date().timeIntervalSince(lastGrowth.at) > 30
            guard Date() < deadline, !stalled else {
                Issue.record(
                    """
                    \(spooled.subtracting(stored).count) of \(spooled.count) locations never stored; \
                    the broker dropped for the Recorder: \(broker.brokerLog.contains(Self.dropped)); \
                    the Recorder's log ends: \(recorder.logTail); \(restart); the broker's log ends: \
                    \(broker.brokerLog.suffix(1_500))
                    """
                )
                break
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(running.interrupt() == 0, "\(running.stderr)")
        #expect(!stopsRecorder || stopped)
        // Had the session's queue overflowed, the broker would have dropped what it had acknowledged: the test's
        // stop was too long, and proves nothing of the agent.
        #expect(!broker.brokerLog.contains(Self.dropped), "the broker's queue for the stopped Recorder overflowed")

        // Every location the spool holds is in the Recorder's store: the backlog and the drive.
        let spooled = Array(try workspace.spooledLocations().keys)
        let stored = Set(recorder.storedLocationSeqs())
        #expect(Set(spooled).subtracting(stored).isEmpty, "\(Set(spooled).subtracting(stored).count) missing")
        #expect(spooled.count > Self.backlog + 700)
        // The live positions went ahead: the Recorder's last was a live one while most of the backlog waited.
        let whenLive = try #require(storedWhenLiveSeen, "no live position reached the Recorder's last")
        #expect(whenLive < Self.backlog / 2, "\(whenLive) of the backlog were stored before the first live position")
        // And its last is the newest location, retained by the broker too.
        #expect(recorder.last(user: "waymark", device: "bus-7")?["seq"] as? Int == spooled.max())
        // At the default pace, 100 messages a second: 11,000 messages take about 110 s.
        #expect(seconds > 90, "drained in \(seconds) s: faster than the pace allows")
    }
}
