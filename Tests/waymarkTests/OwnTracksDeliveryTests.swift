import Foundation
import Testing
import WaymarkTestSupport

/// Issue 18's OwnTracks sink with the real parts: `waymark run` against a real gpsd, publishing to a real
/// mosquitto (Debian) that a `mosquitto_sub` with a persistent session, as OwnTracks' Recorder keeps, listens to.
@Suite("Uplinks: OwnTracks over MQTT", .serialized)
struct OwnTracksDeliveryTests {
    static let drive = "20100411_Geko_Regensburg.log"
    static let topic = "owntracks/waymark/bus-7"

    /// A state directory and a configuration publishing to `broker`.
    final class Workspace {
        let directory: URL
        let config: String

        init(broker: MosquittoTestServer, caFile: String? = nil, extra: String = "") throws {
            directory = try Fixtures.temporaryDirectory()
            config = directory.appendingPathComponent("waymark.toml").path
            try write(broker: broker, caFile: caFile, extra: extra, to: config)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func write(broker: MosquittoTestServer, caFile: String?, extra: String = "", to path: String) throws {
            let agent = Fixtures.isolatedSections(in: directory).replacingOccurrences(
                of: "[agent]\n",
                with: "[agent]\ndevice_id = \"bus-7\"\n"
            )
            try """
            \(agent)
            [deferred]
            enabled = false

            [sinks.owntracks]
            enabled = true
            host = "127.0.0.1"
            port = \(broker.port)
            retry_min = "100ms"
            retry_max = "1s"
            timeout = "5s"
            \(caFile.map { "ca_file = \"\($0)\"" } ?? "")
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        }

        func start(gpsd: Int) throws -> WaymarkBinary.Running {
            try WaymarkBinary.start(["run", "--config", config, "--gpsd", "127.0.0.1:\(gpsd)"])
        }

        /// The location events the spool holds, by seq.
        func spooledLocations() throws -> [Int: [String: Any]] {
            let result = try WaymarkBinary.run(["spool", "export", "--format", "jsonl", "--config", config])
            #expect(result.status == 0, "\(result.stderr)")
            var locations: [Int: [String: Any]] = [:]
            for line in result.stdoutLines {
                let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if event["type"] as? String == "location", let seq = event["seq"] as? Int { locations[seq] = event }
            }
            return locations
        }

        func spoolStats() throws -> [String: Any] {
            let result = try WaymarkBinary.run(["spool", "stats", "--config", config])
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
    }

    /// The seqs of the location messages a subscriber received (with repeats), and the messages by seq: those of
    /// `location` events, with the trigger `t` (a `driving` event's message has `h` or `s`).
    static func receivedLocations(_ output: URL) -> (seqs: [Int], bySeq: [Int: [String: Any]]) {
        var seqs: [Int] = []
        var bySeq: [Int: [String: Any]] = [:]
        for message in MosquittoTestServer.messages(in: output)
        where message.topic == topic && message.payload["_type"] as? String == "location"
            && message.payload["t"] as? String == "t"
        {
            guard let seq = message.payload["seq"] as? Int else { continue }
            seqs.append(seq)
            bySeq[seq] = message.payload
        }
        return (seqs, bySeq)
    }

    /// Waits until the subscriber holds every location the spool holds. When it does not, the error says which
    /// are missing, what the agent said (`agentLog`) and the broker's log: a failure on a loaded machine must be
    /// diagnosable from its message alone.
    static func waitForEveryLocation(
        _ workspace: Workspace,
        _ output: URL,
        seconds: Double,
        broker: MosquittoTestServer? = nil,
        agentLog: () -> String = { "" }
    ) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let spooled = Set(try workspace.spooledLocations().keys)
            let received = Set(receivedLocations(output).seqs)
            if !spooled.isEmpty && spooled.isSubset(of: received) { return }
            guard Date() < deadline else {
                let missing = spooled.subtracting(received).sorted()
                func tail(_ text: String) -> String { text.split(separator: "\n").suffix(40).joined(separator: "\n") }
                throw TestServerError(
                    "\(missing.count) of \(spooled.count) locations never reached the subscriber (seqs "
                        + "\(missing.first ?? 0)...\(missing.last ?? 0); the subscriber has \(received.count)); "
                        + "spool stats: \((try? workspace.spoolStats()) ?? [:])\nthe agent's log:\n\(tail(agentLog()))"
                        + "\nthe broker's log:\n\(tail(broker?.brokerLog ?? ""))"
                )
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    @Test(
        "20 broker restarts and 20 SIGKILLs of the agent during a paced drive: every location at least once, no gap",
        arguments: [false, true]
    )
    func throughRestartsAndKills(tls: Bool) throws {
        let certificates = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: certificates) }
        let made = tls ? try TestCertificates.make(in: certificates).tls : nil
        let broker = try MosquittoTestServer(tls: made)
        let output = try broker.subscribe("owntracks/#", id: "recorder")
        // The drive's 9,931 lines with their own times, in 40 s: a location about every 50 ms.
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), linesPerSecond: 250)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let workspace = try Workspace(broker: broker, caFile: made?.caFile)
        var random = SplitMix64(seed: tls ? 20_261_128 : 20_261_127)
        var disruptions = Array(repeating: true, count: 20) + Array(repeating: false, count: 20)
        disruptions.shuffle(using: &random)
        let pace = 40.0 / Double(disruptions.count + 2)
        var agent = try workspace.start(gpsd: gpsd.port)
        for restartsBroker in disruptions {
            Thread.sleep(forTimeInterval: Double.random(in: 0.1...(2 * pace - 0.1), using: &random))
            if restartsBroker {
                try broker.restart()
            } else {
                agent.signal(SIGKILL)
                agent.process.waitUntilExit()
                agent = try workspace.start(gpsd: gpsd.port)
            }
        }
        try agent.wait(seconds: 60, "the end of the drive") { agent.stderr.contains("code=no_device") }
        try Self.waitForEveryLocation(workspace, output, seconds: 60, broker: broker) { agent.stderr }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")

        let spooled = try workspace.spooledLocations()
        let (seqs, bySeq) = Self.receivedLocations(output)
        // At least once, and with the repeats removed the same seqs as the spool: no gap.
        #expect(Set(seqs).sorted() == spooled.keys.sorted())
        // The drive has 774 locations; those that came while the agent was dead (20 times, each for its start and
        // gpsd's next epoch) are not in the spool: about 530 are.
        #expect(spooled.count > 400, "\(spooled.count) locations")
        for (seq, event) in spooled {
            let message = try #require(bySeq[seq])
            #expect(message["lat"] as? Double == event["lat"] as? Double)
            #expect(message["lon"] as? Double == event["lon"] as? Double)
            #expect(message["tid"] as? String == "s7")
            let time = try #require(event["time"] as? String)
            let seconds = try #require(ISO8601DateFormatter().date(from: String(time.prefix(19)) + "Z"))
            #expect(message["tst"] as? Int == Int(seconds.timeIntervalSince1970))
            if let speed = event["speed"] as? Double {
                #expect(message["vel"] as? Int == Int((speed * 3.6).rounded()))
            }
        }
        // The cursor ends at the last event: the clean stop delivered what it released.
        let stats = try workspace.spoolStats()
        let sinks = try #require(stats["sinks"] as? [[String: Any]])
        let ownTracks = try #require(sinks.first { $0["name"] as? String == "owntracks" })
        #expect(ownTracks["cursor"] as? Int == stats["last_seq"] as? Int, "\(ownTracks)")
        // A SIGKILLed agent's connection died without a goodbye: the broker published its last will.
        #expect(
            MosquittoTestServer.messages(in: output).contains {
                $0.topic == Self.topic && $0.payload["_type"] as? String == "lwt"
            }
        )
    }

    @Test("TLS: a broker restarted once; a wrong CA refused with a clear error")
    func overTLS() throws {
        let certificates = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: certificates) }
        let (tls, otherCA) = try TestCertificates.make(in: certificates)
        let broker = try MosquittoTestServer(tls: tls)
        let output = try broker.subscribe("owntracks/#", id: "recorder")
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive))
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let workspace = try Workspace(broker: broker, caFile: tls.caFile)
        let agent = try workspace.start(gpsd: gpsd.port)
        try agent.wait(seconds: 60, "the end of the drive") { agent.stderr.contains("code=no_device") }
        try broker.restart()
        try Self.waitForEveryLocation(workspace, output, seconds: 60, broker: broker) { agent.stderr }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(Set(Self.receivedLocations(output).seqs) == Set(try workspace.spooledLocations().keys))

        // The same board with a CA that did not sign the broker's certificate.
        let wrong = workspace.directory.appendingPathComponent("wrong-ca.toml").path
        try workspace.write(broker: broker, caFile: otherCA, to: wrong)
        let refused = try WaymarkBinary.run(["sinks", "test", "owntracks", "--config", wrong])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("certificate verify failed"), "\(refused.stdout)")
        let right = try WaymarkBinary.run(["sinks", "test", "owntracks", "--config", workspace.config])
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
        #expect(right.stdout.contains("owntracks: a test message (_type test, not retained) to mqtts://"))
    }

    @Test(
        "sinks test publishes no position: the broker's retained message, a subscriber's messages and the Recorder's last stay the board's own"
    )
    func sinksTestChangesNothingSubscribersHold() throws {
        let broker = try MosquittoTestServer()
        let recorder = try OwnTracksRecorder(broker: broker)
        let output = try broker.subscribe("owntracks/#", id: "watcher")
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive))
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        // "home", 500 m around where the drive starts and ends: the vehicle leaves it and comes back.
        let regions = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: regions) }
        let file = regions.appendingPathComponent("regions.geojson").path
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"home","radius":500},"geometry":{"type":"Point","coordinates":[12.0653,49.0266]}}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let workspace = try Workspace(
            broker: broker,
            extra: "\n[regions]\nfile = \"\(file)\"\ncushion = 0\ndwell = \"0s\"\nmax_accuracy = 100000"
        )
        let agent = try workspace.start(gpsd: gpsd.port)
        try agent.wait(seconds: 60, "the end of the drive") { agent.stderr.contains("code=no_device") }
        try Self.waitForEveryLocation(workspace, output, seconds: 60, broker: broker) { agent.stderr }
        #expect(agent.interrupt() == 0)
        // The Recorder too has every location before anything is compared.
        let spooled = Set(try workspace.spooledLocations().keys)
        let deadline = Date().addingTimeInterval(60)
        while !spooled.isSubset(of: Set(recorder.storedLocationSeqs())) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(spooled.isSubset(of: Set(recorder.storedLocationSeqs())))
        let retained = try #require(try broker.retained(Self.topic))
        #expect(retained["inregions"] as? [String] == ["home"], "\(retained)")
        let last = try #require(recorder.last(user: "waymark", device: "bus-7"))
        let stored = recorder.storedLocations().count
        let received = MosquittoTestServer.messages(in: output).count

        let test = try WaymarkBinary.run(["sinks", "test", "owntracks", "--config", workspace.config])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(
            test.stdout.contains("owntracks: a test message (_type test, not retained) to mqtt://"),
            "\(test.stdout)"
        )
        let arrival = Date().addingTimeInterval(10)
        while MosquittoTestServer.messages(in: output).count == received && Date() < arrival {
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 0.5)
        // The subscriber got the test message, on TOPIC/test, and no position.
        let new = MosquittoTestServer.messages(in: output).dropFirst(received)
        #expect(new.map(\.topic) == [Self.topic + "/test"])
        #expect(new.allSatisfy { $0.payload["_type"] as? String == "test" && $0.payload["lat"] == nil })
        // What a new subscriber gets first, and what the Recorder keeps, are unchanged.
        let after = try #require(try broker.retained(Self.topic))
        #expect(NSDictionary(dictionary: after).isEqual(to: retained), "\(after) was \(retained)")
        #expect(broker.brokerLog.contains("Error saving") == false)
        #expect(recorder.storedLocations().count == stored)
        let lastAfter = try #require(recorder.last(user: "waymark", device: "bus-7"))
        #expect(NSDictionary(dictionary: lastAfter).isEqual(to: last), "\(lastAfter) was \(last)")
    }

    @Test("A CA file that cannot be read: one line naming it, no crash; the agent keeps the sink's events")
    func unreadableCAFile() throws {
        let broker = try MosquittoTestServer()
        let workspace = try Workspace(broker: broker, caFile: "/nonexistent/ca.pem")
        let test = try WaymarkBinary.run(["sinks", "test", "owntracks", "--config", workspace.config])
        #expect(test.status == 1)
        #expect(test.stdout.contains("owntracks: cannot start: TLS with /nonexistent/ca.pem"), "\(test.stdout)")
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive))
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let agent = try workspace.start(gpsd: gpsd.port)
        try agent.wait(seconds: 60, "the end of the drive") { agent.stderr.contains("code=no_device") }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(agent.stderr.contains("the owntracks sink cannot start: TLS with /nonexistent/ca.pem"))
        // Its events stay for it: unsent, in the spool.
        let sinks = try #require(try workspace.spoolStats()["sinks"] as? [[String: Any]])
        let ownTracks = try #require(sinks.first { $0["name"] as? String == "owntracks" })
        #expect((ownTracks["unsent"] as? Int ?? 0) > 700)
    }

    @Test("A broker that is not there: sinks test says so, and the agent keeps tracking")
    func noBroker() throws {
        let broker = try MosquittoTestServer()
        let workspace = try Workspace(broker: broker)
        broker.stop()
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive))
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let agent = try workspace.start(gpsd: gpsd.port)
        try agent.wait(seconds: 60, "the end of the drive") { agent.stderr.contains("code=no_device") }
        Thread.sleep(forTimeInterval: 1)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(
            agent.stderr.contains("the owntracks sink cannot deliver: not connected to mqtt://127.0.0.1:\(broker.port)")
        )
        let stats = try workspace.spoolStats()
        #expect((stats["events"] as? Int ?? 0) > 700)
        let test = try WaymarkBinary.run(["sinks", "test", "owntracks", "--config", workspace.config])
        #expect(test.status == 1)
        #expect(test.stdout.contains("not connected to mqtt://127.0.0.1:\(broker.port)"), "\(test.stdout)")
    }
}
