import Foundation
import Testing
import WaymarkTestSupport

/// Issue 18's network sinks with the real parts: `waymark run` against a real gpsd replaying the Regensburg drive,
/// delivering to a loopback server that decodes Traccar's OsmAnd requests by the rules of Traccar's
/// `OsmAndProtocolDecoder` and batches as the fleet's own endpoint would (`Tests/Fixtures/uplink`), with faults
/// scripted into it.
@Suite("Uplinks: Traccar and batch HTTP", .serialized)
struct UplinkDeliveryTests {
    static let drive = "20100411_Geko_Regensburg.log"

    /// A workspace with the configuration `settings`, one agent run against a real gpsd replaying the drive, and
    /// what it printed.
    final class Run {
        let directory: URL
        let config: String
        var agent: WaymarkBinary.Running?
        let gpsd: GPSDTestServer

        /// - Parameter linesPerSecond: paces the drive (``GPSDTestServer``); nil replays it at once.
        init(_ settings: String, linesPerSecond: Double? = nil) throws {
            directory = try Fixtures.temporaryDirectory()
            config = directory.appendingPathComponent("waymark.toml").path
            let agentSection = Fixtures.isolatedSections(in: directory, besides: settings).replacingOccurrences(
                of: "[agent]\n",
                with: "[agent]\ndevice_id = \"bus-7\"\n"
            )
            try (agentSection + settings).write(toFile: config, atomically: true, encoding: .utf8)
            gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(UplinkDeliveryTests.drive), linesPerSecond: linesPerSecond)
        }

        deinit {
            gpsd.stop()
            gpsd.removeFiles()
            try? FileManager.default.removeItem(at: directory)
        }

        /// Starts the agent and waits for the end of the drive; `during` runs while it goes on.
        func drive(during: (WaymarkBinary.Running) throws -> Void = { _ in }) throws -> WaymarkBinary.Running {
            let agent = try WaymarkBinary.start(
                ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--log-level", "info"]
            )
            self.agent = agent
            try during(agent)
            try agent.wait(seconds: 90, "the end of the drive") { agent.stderr.contains("code=no_device") }
            return agent
        }

        /// The events the agent printed so far.
        func printed() throws -> [[String: Any]] {
            try (agent?.stdout ?? "").split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }

        /// The agent started again on the same spool, with no gpsd, once its spool is open: a SIGINT before that
        /// would find its handlers not yet in place.
        func startAgainWithoutGPSD() throws -> WaymarkBinary.Running {
            let agent = try WaymarkBinary.start(
                [
                    "run", "--config", config, "--gpsd", "127.0.0.1:\(try GPSDTestServer.freePort())", "--log-level",
                    "info",
                ]
            )
            try agent.wait(seconds: 10, "the spool open again") { agent.stderr.contains("spool open") }
            return agent
        }

        func spoolStats() throws -> [String: Any] {
            let result = try WaymarkBinary.run(["spool", "stats", "--config", config])
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }

        func sinkStats(_ name: String) throws -> [String: Any] {
            let sinks = try #require(try spoolStats()["sinks"] as? [[String: Any]])
            return try #require(sinks.first { $0["name"] as? String == name })
        }
    }

    /// Deferral off (every position goes as it comes) and Traccar at `url`; the `[sinks.traccar]` section is left
    /// open for more keys.
    static func traccarSettings(url: String) -> String {
        """
        [deferred]
        enabled = false

        [sinks.traccar]
        enabled = true
        url = "\(url)"

        """
    }

    /// Deferral windows of 2 km (about nine in the drive) and the batch endpoint at `url` (its default coding, retries from 100 ms);
    /// the `[sinks.http]` section is left open for more keys.
    static func batchSettings(url: String) -> String {
        """
        [deferred]
        enabled = true
        until_traveled = 2000
        timeout = "1h"

        [sinks.http]
        enabled = true
        url = "\(url)"
        retry_min = "100ms"

        """
    }

    /// Drives `run` until `server` holds every window the drive closed, then stops the agent: what the agent
    /// printed, the seq of the last window's end, and what the server received.
    static func driveUntilEveryClosedWindow(
        _ run: Run,
        _ server: UplinkTestServer
    ) throws -> (printed: [[String: Any]], lastWindowEnd: Int, received: [[String: Any]]) {
        let agent = try run.drive()
        let printed = try run.printed()
        let lastWindowEnd = try #require(
            printed.filter { $0["type"] as? String == "deferred_finished" }.compactMap { $0["seq"] as? Int }.max()
        )
        let received = try Self.waitForServer(server, seconds: 60, "every closed window") { received in
            received.compactMap { ($0["event"] as? [String: Any])?["seq"] as? Int }.max() ?? 0 >= lastWindowEnd
        }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        return (printed, lastWindowEnd, received)
    }

    /// Waits until `condition` holds of what the server received, at most `seconds`.
    static func waitForServer(
        _ server: UplinkTestServer,
        seconds: Double,
        _ what: String,
        until condition: ([[String: Any]]) -> Bool
    ) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let received = try server.received()
            if condition(received) { return received }
            guard Date() < deadline else { throw TestServerError("\(what) did not happen within \(seconds) s") }
            usleep(100_000)
        }
    }

    @Test(
        "Traccar gets every position with Traccar's units through 500s, a 429, resets and a timeout; a 400 is quarantined"
    )
    func traccarThroughFaults() throws {
        let server = try UplinkTestServer(devices: ["bus-7"])
        defer { server.stop() }
        // Request numbers count from here, retries included. libcurl sends a request again by itself, once, on a
        // fresh connection when a kept connection is reset: two resets in a row reach the agent.
        try server.setFaults(
            """
            [{"match": {"request": 5}, "status": 500, "times": 1},
             {"match": {"request": 6}, "status": 503, "times": 1},
             {"match": {"request": 12}, "status": 429, "retry_after": "2", "times": 1},
             {"match": {"request": 20}, "reset": true, "times": 1},
             {"match": {"request": 21}, "reset": true, "times": 1},
             {"match": {"request": 30}, "delay": 2.5, "times": 1},
             {"match": {"request": 40}, "status": 400, "body": "bad position", "times": 1}]
            """
        )
        let run = try Run(
            Self.traccarSettings(url: server.osmAndURL)
                + """
                timeout = "1s"
                retry_min = "100ms"
                retry_max = "500ms"

                """
        )
        let agent = try run.drive()
        let positions = try run.printed().filter { event in
            ["location", "pause", "resume", "region", "trip"].contains(event["type"] as? String ?? "")
                && event["lat"] != nil
        }
        #expect(positions.count > 700)
        // Each position once, but the one refused. Waited for by name: the sink sends other events too (driving
        // events carry a position), so a count of what came can be reached before the last position.
        let expected = Set(positions.compactMap { ($0["seq"] as? Int).map(Double.init) })
        let received = try Self.waitForServer(server, seconds: 60, "every position at the server") { received in
            let delivered = Set(
                received.filter { $0["kind"] as? String == "osmand" }
                    .compactMap { ($0["attributes"] as? [String: Any])?["seq"] as? Double }
            )
            let refused = received.filter { $0["kind"] as? String == "fault" && $0["status"] as? Int == 400 }
                .flatMap { $0["seqs"] as? [Double] ?? [] }
            return expected.subtracting(delivered).subtracting(refused).isEmpty
        }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let faults = received.filter { $0["kind"] as? String == "fault" }
        #expect(faults.count == 7, "\(faults)")
        let refused = try #require(faults.first { $0["status"] as? Int == 400 })
        let refusedSeq = try #require((refused["seqs"] as? [Double])?.first).rounded()
        var bySeq: [Int: [String: Any]] = [:]
        for record in received where record["kind"] as? String == "osmand" {
            let attributes = try #require(record["attributes"] as? [String: Any])
            bySeq[Int(try #require(attributes["seq"] as? Double))] = record
        }
        #expect(bySeq[Int(refusedSeq)] == nil)
        for event in positions {
            let seq = try #require(event["seq"] as? Int)
            guard seq != Int(refusedSeq) else { continue }
            let record = try #require(bySeq[seq], "position \(seq) never reached the server")
            #expect(record["device"] as? String == "bus-7")
            #expect(record["lat"] as? Double == event["lat"] as? Double)
            #expect(record["lon"] as? Double == event["lon"] as? Double)
            let time = try #require(ISO8601DateFormatter.withMilliseconds.date(from: event["time"] as? String ?? ""))
            #expect(record["time_ms"] as? Int == Int((time.timeIntervalSince1970 * 1000).rounded()))
            guard event["type"] as? String == "location" else { continue }
            if let speed = event["speed"] as? Double {
                let knots = try #require(record["speed_knots"] as? Double)
                #expect(abs(knots - speed * 3600 / 1852) < 0.0006, "seq \(seq): \(knots) kn for \(speed) m/s")
            }
            #expect(record["course"] as? Double == event["course"] as? Double)
            #expect(record["altitude"] as? Double == (event["alt_msl"] ?? event["alt_hae"]) as? Double)
            #expect(record["accuracy"] as? Double == event["h_acc"] as? Double)
        }
        // Retry-After: 2 waited at least 2 s, where the backoff alone waits at most 0.5 s.
        let tooMany = try #require(faults.first { $0["status"] as? Int == 429 })
        let answeredAt = try #require(tooMany["at"] as? Double)
        let next = try #require(received.compactMap { $0["at"] as? Double }.filter { $0 > answeredAt }.min())
        #expect(
            next - answeredAt >= 1.95,
            "the request after a 429 with Retry-After: 2 came after \(next - answeredAt) s"
        )
        // One connection kept alive, new ones only after a failure.
        let connections = Set(received.compactMap { $0["connection"] as? Int })
        #expect(connections.count <= 8, "\(connections.count) connections")
        // The refused event is kept with the server's answer; the cursor is past every position.
        let stats = try run.spoolStats()
        let quarantine = try #require(stats["quarantine"] as? [[String: Any]])
        #expect(quarantine.count == 1)
        #expect(quarantine.first?["seq"] as? Int == Int(refusedSeq))
        #expect(quarantine.first?["status"] as? Int == 400)
        #expect(quarantine.first?["answer"] as? String == "bad position")
        let traccar = try run.sinkStats("traccar")
        #expect(traccar["quarantined"] as? Int == 1)
        #expect((traccar["cursor"] as? Int ?? 0) >= positions.compactMap { $0["seq"] as? Int }.max() ?? .max)
        let exported = try WaymarkBinary.run(
            ["spool", "export", "--quarantined", "--format", "jsonl", "--config", run.config]
        )
        #expect(exported.status == 0)
        #expect(exported.stdoutLines.count == 1 && exported.stdout.contains("\"seq\":\(Int(refusedSeq)),"))
        // The agent said what failed, as events and in its log.
        #expect(agent.stderr.contains("the traccar sink cannot deliver"))
    }

    @Test("An unknown device is a refusal of the settings: events wait, none is quarantined")
    func traccarUnknownDevice() throws {
        let server = try UplinkTestServer(devices: ["another-bus"])
        defer { server.stop() }
        let run = try Run(
            Self.traccarSettings(url: server.osmAndURL)
                + """
                retry_min = "100ms"
                retry_max = "200ms"

                [metrics]
                interval = "1s"

                """
        )
        let agent = try run.drive()
        _ = try Self.waitForServer(server, seconds: 20, "ten refusals") { _ in
            ((try? server.counts().requests) ?? 0) >= 10
        }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let stats = try run.sinkStats("traccar")
        #expect(stats["quarantined"] as? Int == 0)
        // Past the events Traccar keeps nothing of (the first statuses), never past a position.
        let firstPosition = try run.printed().first { $0["type"] as? String == "location" }?["seq"] as? Int
        #expect((stats["cursor"] as? Int ?? .max) < firstPosition ?? 0)
        #expect((stats["unsent"] as? Int ?? 0) > 700)
        #expect(agent.stderr.contains("the server refuses the sink's settings (HTTP 400"))
        #expect(
            try run.printed().contains { $0["code"] as? String == "sink_failure" && $0["id"] as? String == "traccar" }
        )
    }

    /// Issue 44: by default (`content_encoding = "auto"`) zstd, to a server that decodes it; the refused event's
    /// batches are refused in gzip too, so the sink stays with zstd.
    @Test("Batch HTTP: one zstd request per closed window; a refused event is found and quarantined; no window twice")
    func batchWindows() throws {
        let server = try UplinkTestServer()
        defer { server.stop() }
        let run = try Run(Self.batchSettings(url: server.batchURL) + "retry_max = \"200ms\"\n")
        // The 200th event is refused wherever it goes: its window is split until it is alone.
        try server.setFaults(#"[{"match": {"seq": 200}, "status": 422, "body": "no"}]"#)
        let (printed, lastWindowEnd, received) = try Self.driveUntilEveryClosedWindow(run, server)
        let batches = received.filter { $0["kind"] as? String == "batch" }
        let seqs = batches.compactMap { ($0["event"] as? [String: Any])?["seq"] as? Int }
        #expect(Set(seqs).count == seqs.count, "an event arrived twice")
        let expected = printed.compactMap { $0["seq"] as? Int }.filter { $0 <= lastWindowEnd && $0 != 200 }
        #expect(Set(seqs) == Set(expected))
        #expect(batches.allSatisfy { $0["encoding"] as? String == "zstd" && $0["device"] as? String == "bus-7" })
        // Issue 44: the lines go without `recv` by default; the printed locations, live, have it.
        #expect(printed.filter { $0["type"] as? String == "location" }.allSatisfy { $0["recv"] != nil })
        #expect(batches.allSatisfy { ($0["event"] as? [String: Any])?["recv"] == nil })
        // Every request ends a window, but those split around the refused event.
        let requests = Dictionary(grouping: batches) { "\($0["first_seq"] ?? 0)-\($0["last_seq"] ?? 0)" }
        let windowEnds = requests.values.filter { batch in
            (batch.last?["event"] as? [String: Any])?["type"] as? String == "deferred_finished"
        }
        #expect(windowEnds.count >= requests.count - 12, "\(requests.count) requests, \(windowEnds.count) window ends")
        #expect(try run.sinkStats("http")["quarantined"] as? Int == 1)
        // A clean restart, with no gpsd: the window the stop closed goes, and nothing else again.
        let restart = try run.startAgainWithoutGPSD()
        let lastSeq = try #require(printed.compactMap { $0["seq"] as? Int }.max())
        let after = try Self.waitForServer(server, seconds: 30, "the last window after the restart") { received in
            received.compactMap { ($0["event"] as? [String: Any])?["seq"] as? Int }.max() ?? 0 >= lastSeq
        }
        #expect(restart.interrupt() == 0)
        let all = after.compactMap { ($0["event"] as? [String: Any])?["seq"] as? Int }
        #expect(Set(all).count == all.count, "an event arrived twice across the restart")
    }

    @Test("The link down for a whole drive at 60x: the stall reported, then the backlog drained in order, nothing lost")
    func linkDown() throws {
        let port = try GPSDTestServer.freePort()
        // The drive's 9,931 lines in 26 s: its 26 minutes at 60 times their pace, all of them with no server.
        let run = try Run(
            Self.batchSettings(url: "http://127.0.0.1:\(port)/batch")
                + """
                retry_max = "2s"

                [health]
                max_unsent_age = "5s"

                [metrics]
                interval = "1s"

                """,
            linesPerSecond: 382
        )
        var midway: [String: Any] = [:]
        let agent = try run.drive { _ in
            Thread.sleep(forTimeInterval: 15)
            midway = try run.sinkStats("http")
        }
        // Halfway through, the backlog shows in spool stats: its events and the time of the oldest.
        #expect((midway["unsent"] as? Int ?? 0) > 100, "\(midway)")
        #expect(midway["oldest_unsent_time"] is String && midway["cursor"] as? Int == 0, "\(midway)")
        let stalled = try #require(try run.printed().first { $0["code"] as? String == "sink_stalled" })
        #expect(stalled["id"] as? String == "http")
        #expect(agent.stderr.contains("the http sink cannot deliver"))

        let server = try UplinkTestServer(port: port)
        defer { server.stop() }
        let lastWindowEnd = try #require(
            try run.printed().filter { $0["type"] as? String == "deferred_finished" }.compactMap { $0["seq"] as? Int }
                .max()
        )
        let received = try Self.waitForServer(server, seconds: 30, "the backlog") { received in
            received.compactMap { ($0["event"] as? [String: Any])?["seq"] as? Int }.max() ?? 0 >= lastWindowEnd
        }
        try agent.wait(seconds: 10, "the stall cleared") {
            agent.stdout.split(separator: "\n").contains {
                $0.contains(#""alarm_cleared""#) && $0.contains("sink_stalled")
            }
        }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        // In seq order, each once, every event of the closed windows.
        let seqs = received.compactMap { ($0["event"] as? [String: Any])?["seq"] as? Int }
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
        let expected = try run.printed().compactMap { $0["seq"] as? Int }.filter { $0 <= lastWindowEnd }
        #expect(seqs == expected)
    }

    @Test("max_bytes_per_day: past it locations wait and the rest goes, the alarm says so; the locations go later")
    func dailyBudget() throws {
        let server = try UplinkTestServer()
        defer { server.stop() }
        // About 40 positions of some 240 bytes and their answers.
        let run = try Run(
            Self.traccarSettings(url: server.osmAndURL)
                + """
                max_bytes_per_day = "20KB"

                [metrics]
                interval = "1s"

                """
        )
        let agent = try run.drive()
        try agent.wait(seconds: 20, "the alarm") { agent.stdout.contains(#""code":"sink_over_budget""#) }
        let printed = try run.printed()
        let alarm = try #require(printed.first { $0["code"] as? String == "sink_over_budget" })
        #expect(alarm["id"] as? String == "traccar")
        #expect(
            (alarm["message"] as? String)?.contains("max_bytes_per_day (20480): locations wait for tomorrow") == true
        )
        // The trip's end (a position Traccar keeps, not a location) goes past the held locations.
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        var received = try server.received().filter { $0["kind"] as? String == "osmand" }
        let locations = received.filter { ($0["attributes"] as? [String: Any])?["event"] == nil }
        #expect(locations.count > 20 && locations.count < 80, "\(locations.count) locations within 20 KB")
        #expect(received.contains { ($0["attributes"] as? [String: Any])?["event"] as? String == "trip" })
        let traccar = try run.sinkStats("traccar")
        let firstHeld = try #require(traccar["oldest_unsent_seq"] as? Int)
        #expect(printed.first { $0["seq"] as? Int == firstHeld }?["type"] as? String == "location")
        // A new start has a whole budget (it is kept in memory): the held locations go on from the first, in order,
        // until it is spent again. What went past them is sent again (at least once: the cursor stayed before
        // them), with its own seq.
        let restart = try run.startAgainWithoutGPSD()
        received = try Self.waitForServer(server, seconds: 30, "the held locations") { received in
            received.filter { $0["kind"] as? String == "osmand" }.count > locations.count + 20
        }
        #expect(restart.interrupt() == 0)
        let positions = received.filter { $0["kind"] as? String == "osmand" }
        let seqs = positions.compactMap { ($0["attributes"] as? [String: Any])?["seq"] as? Double }.map { Int($0) }
        let resumed = Array(seqs.drop { $0 != firstHeld })
        #expect(!resumed.isEmpty && resumed == resumed.sorted(), "\(seqs)")
        let trips = positions.filter { ($0["attributes"] as? [String: Any])?["event"] as? String == "trip" }
        #expect(Set(trips.compactMap { ($0["attributes"] as? [String: Any])?["seq"] as? Double }).count == 1)
    }

    @Test("waymark sinks test says what each server answered")
    func sinksTest() throws {
        let server = try UplinkTestServer(devices: ["bus-7"])
        defer { server.stop() }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waymark.toml").path
        let closed = try GPSDTestServer.freePort()
        try
            (Fixtures.isolatedSections(in: directory)
                + """
                [sinks.http]
                enabled = true
                url = "\(server.batchURL)"

                [sinks.traccar]
                enabled = true
                url = "http://127.0.0.1:\(closed)/"
                """)
            .write(toFile: config, atomically: true, encoding: .utf8)
        let http = try WaymarkBinary.run(["sinks", "test", "http", "--config", config])
        #expect(http.status == 0, "\(http.stderr)")
        #expect(http.stdout.contains("http: status seq 0 in zstd to \(server.batchURL): confirmed"))
        let received = try server.received()
        #expect((received.first?["event"] as? [String: Any])?["test"] as? Bool == true)
        // A backend without zstd: the test says the coding the server took, and why.
        let gzipOnly = try UplinkTestServer(codings: ["gzip"])
        defer { gzipOnly.stop() }
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try text.replacingOccurrences(of: server.batchURL, with: gzipOnly.batchURL)
            .write(toFile: config, atomically: true, encoding: .utf8)
        let fallback = try WaymarkBinary.run(["sinks", "test", "http", "--config", config])
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(
            fallback.stdout.contains(
                "http: status seq 0 in gzip to \(gzipOnly.batchURL): confirmed in "
            ) && fallback.stdout.contains("; the http sink's batch did not go in zstd (HTTP 415) and went in gzip"),
            "\(fallback.stdout)"
        )
        // Traccar keeps positions only, and this spool has none.
        let traccar = try WaymarkBinary.run(["sinks", "test", "--config", config])
        #expect(traccar.status == 1)
        #expect(traccar.stdout.contains("traccar: nothing sent"))
        let unknown = try WaymarkBinary.run(["sinks", "test", "mqtt", "--config", config])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no network sink mqtt"))
    }

    @Test("An enabled sink without a URL, or with a URL of another scheme, stops the agent with its line")
    func configurationErrors() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waymark.toml").path
        try "[sinks.traccar]\nenabled = true\n\n[sinks.http]\nurl = \"ftp://fleet.example/\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let result = try WaymarkBinary.run(["check-config", config])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains(
                "waymark.toml:2: [sinks.traccar] url: missing: an enabled sink needs its server's URL"
            )
        )
        #expect(
            result.stderr.contains("waymark.toml:5: [sinks.http] url = \"ftp://fleet.example/\": must be an http://")
        )
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-21T08:00:00.000Z`.
    fileprivate static var withMilliseconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
