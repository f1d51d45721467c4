import Foundation
import Testing
import WaymarkTestSupport

/// Issue 36: a region file the agent rejects leaves the board without the regions it was given. That is the
/// `region_file_rejected` alarm, on a live agent and a real gpsd: an `error` event with the file as `id`, an
/// entry in `waymark status`, the metrics and systemd's status line, cleared when a good version loads.
@Suite("The region file's alarm")
struct RegionFileAlarmTests {
    /// The documented example region file (config/regions.geojson): regions around Regensburg.
    static let goodRegions = try! Data(
        contentsOf: Fixtures.packageRoot.appendingPathComponent("config/regions.geojson")
    )

    /// A live agent with the region file `regions.geojson` in its directory, its metrics every second, and the
    /// test as systemd's notification socket.
    final class AlarmRun {
        let run: OperatedRun
        let listener: NotifyListener
        let regions: URL
        let metrics: String

        /// - Parameter regionFile: the file's contents; nil makes it a symbolic link to itself, a file that exists
        ///   and that no one can read (ELOOP, even as root).
        init(regionFile: Data?, settings: String = "") throws {
            let directory = try Fixtures.temporaryDirectory()
            regions = directory.appendingPathComponent("regions.geojson")
            metrics = directory.appendingPathComponent("waymark.prom").path
            if let regionFile {
                try regionFile.write(to: regions)
            } else {
                try FileManager.default.createSymbolicLink(atPath: regions.path, withDestinationPath: regions.path)
            }
            listener = try NotifyListener(in: directory)
            let fixes = try NMEALog(path: HealthAlarmTests.drive).epochs(from: 300, to: 360)
            run = try OperatedRun(
                segments: [fixes],
                speed: 1,
                settings: """
                    [regions]
                    file = "\(regions.path)"
                    [metrics]
                    textfile = "\(metrics)"
                    interval = "1s"
                    \(settings)
                    """,
                environment: ["NOTIFY_SOCKET": listener.path],
                directory: directory
            )
        }

        /// The value of `waymark_alarm_open{alarm="region_file_rejected"}` in the textfile now.
        var openInMetrics: String? {
            let text = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
            let series = #"waymark_alarm_open{alarm="region_file_rejected"} "#
            return text.split(separator: "\n").first { $0.hasPrefix(series) }.map { String($0.dropFirst(series.count)) }
        }

        /// Waits for the alarm's `error` event, checks that it names the region file, and returns its message.
        func raisedMessage() throws -> String {
            try run.agent.wait(seconds: 20, "the error event") {
                !run.events("error", code: "region_file_rejected").isEmpty
            }
            let raised = try #require(run.events("error", code: "region_file_rejected").first)
            #expect(raised["id"] as? String == regions.path, "\(raised)")
            return raised["message"] as? String ?? ""
        }

        deinit { listener.stop() }
    }

    @Test("a truncated region file at start: error event, status, metrics, STATUS=; cleared by a good version")
    func rejectedAtStart() throws {
        let alarm = try AlarmRun(regionFile: Self.goodRegions.prefix(Self.goodRegions.count / 2))
        let (run, path, listener) = (alarm.run, alarm.regions.path, alarm.listener)
        let status = try run.waitForStatus(seconds: 20, "the alarm in status") { status in
            (status["alarms"] as? [[String: Any]] ?? []).contains { $0["code"] as? String == "region_file_rejected" }
        }
        let entry = (status["alarms"] as? [[String: Any]])?.first { $0["code"] as? String == "region_file_rejected" }
        #expect(entry?["id"] as? String == path && entry?["since"] is String, "\(status)")
        let message = try alarm.raisedMessage()
        #expect(message.hasPrefix("[regions] file \(path) rejected: \(path):"), "\(message)")
        #expect(message.contains("; no region is monitored: fix the file"), "\(message)")
        #expect(run.agent.stderr.contains("\(path) rejected; no regions are monitored"), "the journal says it too")
        try run.agent.wait(seconds: 10, "the alarm in the metrics") { alarm.openInMetrics == "1" }
        try run.agent.wait(seconds: 10, "the alarm in STATUS=") {
            listener.statusLines.contains { $0.contains("; alarm region_file_rejected \(path); ") }
        }

        // A good version: loaded within the service's poll, the alarm ends everywhere.
        try Self.goodRegions.write(to: alarm.regions)
        try run.agent.wait(seconds: 10, "alarm_cleared") {
            !run.events("alarm_cleared", code: "region_file_rejected").isEmpty
        }
        let cleared = try #require(run.events("alarm_cleared", code: "region_file_rejected").first)
        #expect(cleared["id"] as? String == path && cleared["message"] as? String == "the region file loaded")
        _ = try run.waitForStatus(seconds: 10, "the alarm gone from status") { status in
            (status["alarms"] as? [[String: Any]] ?? []).isEmpty
        }
        try run.agent.wait(seconds: 10, "the alarm gone from the metrics") { alarm.openInMetrics == "0" }
        try run.agent.wait(seconds: 10, "the alarm gone from STATUS=") {
            let lines = listener.statusLines
            guard let raisedAt = lines.firstIndex(where: { $0.contains("alarm region_file_rejected") }) else {
                return false
            }
            return lines[raisedAt...].last.map { !$0.contains("alarm") && $0.hasSuffix(" unsent") } ?? false
        }
        #expect(run.agent.interrupt() == 0, "\(run.agent.stderr)")
        let text = try String(contentsOfFile: alarm.metrics, encoding: .utf8)
        #expect(text.contains(#"waymark_alarms_raised_total{alarm="region_file_rejected"} 1"#))
        #expect(run.events("error", code: "region_file_rejected").count == 1, "raised once")
        #expect(run.events("alarm_cleared", code: "region_file_rejected").count == 1, "cleared once")
        #expect(run.agent.stderr.contains("regions loaded"))
    }

    @Test("a bad version while regions are monitored raises it too; a reload naming no file clears it")
    func rejectedWhileRunning() throws {
        let alarm = try AlarmRun(regionFile: Self.goodRegions)
        let (run, path) = (alarm.run, alarm.regions.path)
        try run.agent.wait(seconds: 20, "the regions loaded") { run.agent.stderr.contains("regions loaded") }
        try run.agent.wait(seconds: 20, "a fix") { !run.events("location").isEmpty }
        #expect(run.events("error", code: "region_file_rejected").isEmpty, "a good file raises nothing")
        try Data(#"{"type": "FeatureCollection", "features": [{"type": "Feature"#.utf8).write(to: alarm.regions)
        try run.agent.wait(seconds: 10, "the alarm") { !run.events("error", code: "region_file_rejected").isEmpty }
        let raised = try #require(run.events("error", code: "region_file_rejected").first)
        #expect(raised["id"] as? String == path)
        #expect(
            (raised["message"] as? String)?.contains("regions loaded before are monitored, not those of this version")
                == true,
            "\(raised)"
        )
        // The operator takes the file out of the configuration: the alarm of a file no longer named ends.
        let text = try String(contentsOfFile: run.config, encoding: .utf8)
        try text.replacingOccurrences(of: "file = \"\(path)\"\n", with: "")
            .write(toFile: run.config, atomically: true, encoding: .utf8)
        run.agent.signal(SIGHUP)
        try run.agent.wait(seconds: 10, "the alarm cleared") {
            !run.events("alarm_cleared", code: "region_file_rejected").isEmpty
        }
        let cleared = try #require(run.events("alarm_cleared", code: "region_file_rejected").first)
        #expect(cleared["message"] as? String == "[regions] file no longer names it")
        #expect(cleared["id"] as? String == path)
        #expect(run.agent.interrupt() == 0)
        #expect(run.events("error", code: "region_file_rejected").count == 1)
    }

    @Test("a region file that exists but cannot be read at start raises it too; a good file clears it")
    func unreadableAtStart() throws {
        let alarm = try AlarmRun(regionFile: nil)
        let run = alarm.run
        let message = try alarm.raisedMessage()
        #expect(message.contains("Too many levels of symbolic links"), "\(message)")
        #expect(message.contains("no region is monitored"), "\(message)")
        #expect(run.agent.stderr.contains("no regions are monitored"), "the journal says it too")
        try run.agent.wait(seconds: 10, "the alarm in the metrics") { alarm.openInMetrics == "1" }

        try FileManager.default.removeItem(at: alarm.regions)
        try Self.goodRegions.write(to: alarm.regions)
        try run.agent.wait(seconds: 10, "alarm_cleared") {
            !run.events("alarm_cleared", code: "region_file_rejected").isEmpty
        }
        #expect(run.agent.interrupt() == 0, "\(run.agent.stderr)")
        #expect(run.events("error", code: "region_file_rejected").count == 1, "raised once")
    }
}
