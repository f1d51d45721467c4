import Foundation
import Testing
import WaymarkTestSupport

/// Issue 17: the metrics as Prometheus gets them: a real node_exporter (Debian's prometheus-node-exporter)
/// reads the agent's textfile, and the test scrapes it over HTTP and parses the exposition with Prometheus's
/// own Python client.
@Suite("Metrics through a real node_exporter")
struct MetricsExporterTests {
    static let exporter = "/usr/bin/prometheus-node-exporter"

    /// Scrapes `port`'s `/metrics` and returns, parsed by prometheus_client, `node_textfile_scrape_error` and
    /// every `waymark_` sample as `name{label="value",...}` → value (labels sorted).
    static func scrape(port: Int) throws -> [String: Double] {
        let script = """
            import json, sys, urllib.request
            from prometheus_client.parser import text_string_to_metric_families
            text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=10).read().decode()
            samples = {}
            for family in text_string_to_metric_families(text):
                for sample in family.samples:
                    if sample.name.startswith("waymark_") or sample.name == "node_textfile_scrape_error":
                        labels = ",".join('%s="%s"' % item for item in sorted(sample.labels.items()))
                        samples[sample.name + ("{%s}" % labels if labels else "")] = sample.value
            print(json.dumps(samples))
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script, "\(port)"]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        guard python.terminationStatus == 0 else {
            throw TestServerError("the scrape failed: \(python.terminationStatus)")
        }
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Double])
    }

    @Test(
        "node_exporter serves the agent's series; the counters equal the events printed",
        .enabled(if: FileManager.default.isExecutableFile(atPath: exporter))
    )
    func scrapedCountersMatchTheEvents() throws {
        let textfiles = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: textfiles) }
        let port = try GPSDTestServer.freePort()
        let exporter = Process()
        exporter.executableURL = URL(fileURLWithPath: Self.exporter)
        exporter.arguments = [
            "--web.listen-address=127.0.0.1:\(port)", "--collector.disable-defaults", "--collector.textfile",
            "--collector.textfile.directory=\(textfiles.path)",
        ]
        exporter.standardOutput = FileHandle.nullDevice
        exporter.standardError = FileHandle.nullDevice
        try exporter.run()
        defer { exporter.stop() }

        let drive = try NMEALog(path: HealthAlarmTests.drive)
        let run = try OperatedRun(
            segments: [drive.epochs(from: 300, to: 400), drive.epochs(from: 870, to: 916)],
            speed: 4,
            settings: """
                [activity]
                pause_after = "6s"
                [metrics]
                textfile = "\(textfiles.path)/waymark.prom"
                interval = "1s"
                """
        )
        // While it runs: the series are there, and node_exporter reads the file without an error.
        var live: [String: Double] = [:]
        try run.agent.wait(seconds: 40, "a pause in the metrics") {
            live = (try? Self.scrape(port: port)) ?? [:]
            return live["waymark_paused"] == 1
        }
        #expect(live["node_textfile_scrape_error"] == 0)
        // The build: the release and the libgps API, as `waymark --version` says them.
        // "waymark 0.1.0 (libgps API 11.0)"
        let version = try WaymarkBinary.run(["--version"]).stdout.split(separator: " ").dropFirst().first ?? ""
        #expect(
            live.keys.contains {
                $0.hasPrefix("waymark_build_info{libgps=\"") && $0.hasSuffix(",version=\"\(version)\"}")
            }
        )
        #expect(live["waymark_pause_reason{reason=\"stationary\"}"] == 1)
        #expect(live["waymark_fix_mode"] == 3 && (live["waymark_satellites_used"] ?? 0) > 0)
        #expect(live["waymark_spool_commit_duration_seconds_count"] ?? 0 > 0)
        #expect(
            live["waymark_spool_commit_duration_seconds_bucket{le=\"+Inf\"}"]
                == live["waymark_spool_commit_duration_seconds_count"]
        )
        #expect(
            (live["waymark_fsyncs_total{to=\"spool\"}"] ?? 0) > 0
                && (live["waymark_written_bytes_total{to=\"spool\"}"] ?? 0) > 0
        )

        // Stopped: the final metrics hold every event the agent printed.
        #expect(run.agent.interrupt() == 0)
        let final = try Self.scrape(port: port)
        #expect(final["node_textfile_scrape_error"] == 0)
        let printed = Dictionary(grouping: run.events, by: { $0["type"] as? String ?? "?" }).mapValues(\.count)
        for type in ["location", "status", "pause", "trip", "error", "deferred_finished"] {
            #expect(
                final["waymark_events_total{type=\"\(type)\"}"] == Double(printed[type] ?? 0),
                "\(type): \(final["waymark_events_total{type=\"\(type)\"}"] ?? -1) in the metrics, \(printed[type] ?? 0) printed"
            )
        }
        #expect(final["waymark_trips_total"] == Double(printed["trip"] ?? 0))
        // Some fixes were held (the stop's, by the distance filter and the pause): more received than delivered.
        #expect((final["waymark_fixes_received_total"] ?? 0) > Double(printed["location"] ?? 0))
    }
}
