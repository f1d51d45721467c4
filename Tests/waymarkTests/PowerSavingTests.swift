import Foundation
import Testing
import WaymarkTestSupport

/// Issue 6's power saving against a real gpsd reading a receiver that keeps running: a capture played at
/// its own pace with its times moved to now (``NMEAFeedServer``), gpsd's client traffic read from its debug
/// output.
@Suite("Power saving while paused")
struct PowerSavingTests {
    static let drive = "20100411_Geko_Regensburg.log"

    @Test("paused, the agent stops the watch, probes at probe_interval, and resumes when a probe shows movement")
    func probes() throws {
        let log = try NMEALog(path: Fixtures.gpsdLog(Self.drive))
        // The drive's longest stop (54 s from 868 s into the log), looped; then a stretch of driving.
        let parked = log.epochs(from: 870, to: 916)
        let driving = log.epochs(from: 120, to: 400)
        let feed = try NMEAFeedServer(segments: [parked], speed: 2, loopLast: true)
        defer { feed.stop() }
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: 2)
        defer { gpsd.stop() }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waymark.toml").path
        let interval = 10.0
        try """
        \(Fixtures.isolatedSections(in: directory))
        [activity]
        pause_after = "8s"
        probe_interval = "\(Int(interval))s"
        probe_timeout = "6s"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--log-level", "debug"]
        )
        try agent.wait(seconds: 30, "the pause") { agent.stdout.contains("\"type\":\"pause\"") }
        let paused = Date()
        // Two probes and a half: 25 s of a parked vehicle.
        Thread.sleep(forTimeInterval: 2.5 * interval)
        feed.switchTo(driving)
        let switched = Date()
        try agent.wait(seconds: 2 * interval, "the resume") { agent.stdout.contains("\"type\":\"resume\"") }
        let resumed = Date()
        Thread.sleep(forTimeInterval: 3)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")

        let watches = gpsd.clientCommands().filter {
            $0.command.hasPrefix("?WATCH=") && $0.time >= paused.addingTimeInterval(-2)
        }
        let enables = watches.filter { $0.command.contains("\"enable\":true") }.map(\.time)
        let disables = watches.filter { $0.command.contains("\"enable\":false") }.map(\.time)
        // Stopped at the pause, then on and off once per probe; on for good at the probe that resumed.
        #expect(disables.count == enables.count && disables.count >= 3, "\(watches)")
        #expect(disables.first.map { $0 < enables.first ?? .distantFuture } == true, "\(watches)")
        for (start, next) in zip(enables, enables.dropFirst()) {
            let gap = next.timeIntervalSince(start)
            #expect(gap > interval - 1 && gap < interval + 2, "probes \(gap) s apart")
        }
        #expect(enables.last.map { $0 >= switched.addingTimeInterval(-1) && $0 <= resumed } == true)

        // While the watch was off, gpsd sent the agent no report (at most one already on its way).
        let sent = gpsd.debugLines().filter { $0.text.contains("=> client") && $0.text.contains("\"class\":\"TPV\"") }
        #expect(sent.count > 20, "gpsd's debug output shows the reports it sends")
        for (off, on) in zip(disables, enables) {
            let during = sent.filter { $0.time > off.addingTimeInterval(0.5) && $0.time < on }
            #expect(during.isEmpty, "\(during.count) TPVs sent between \(off) and \(on)")
        }
        let types = agent.stdout.split(separator: "\n").compactMap { line in
            ["pause", "resume", "trip"].first { line.hasPrefix("{\"type\":\"\($0)\"") }
        }
        #expect(types.prefix(2) == ["pause", "resume"], "\(types)")
    }
}
