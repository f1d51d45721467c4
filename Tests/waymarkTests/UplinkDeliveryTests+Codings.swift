import Foundation
import Testing
import WaymarkTestSupport

/// Issue 44: the batch sink's content codings, with the real parts: a real gpsd replaying the drive, and the
/// test suite's batch endpoint decoding what it is told to, with Debian's `zstd` and Python's gzip.
extension UplinkDeliveryTests {
    /// Issue 44: `content_encoding = "zstd"` at the highest level, decoded by the server with Debian's `zstd`
    /// command, as a backend would with its own tools: every closed window arrives, each event as the agent printed
    /// it, value for value (`recv = true` keeps the lines' `recv`).
    @Test("Batch HTTP, zstd: every closed window decoded by the zstd command, each event as printed")
    func batchWindowsInZstd() throws {
        let server = try UplinkTestServer()
        defer { server.stop() }
        let run = try Run(
            Self.batchSettings(url: server.batchURL)
                + "content_encoding = \"zstd\"\ncompression_level = 19\nrecv = true\n"
        )
        let (printed, lastWindowEnd, received) = try Self.driveUntilEveryClosedWindow(run, server)
        let batches = received.filter { $0["kind"] as? String == "batch" }
        #expect(batches.allSatisfy { $0["encoding"] as? String == "zstd" && $0["device"] as? String == "bus-7" })
        let events = batches.compactMap { $0["event"] as? [String: Any] }
        let expected = printed.filter { ($0["seq"] as? Int ?? .max) <= lastWindowEnd }
        #expect(events.count == expected.count)
        for (event, printed) in zip(events, expected) {
            #expect(NSDictionary(dictionary: event).isEqual(to: printed), "\(event) is not \(printed)")
        }
        // The bodies are zstd frames under an eighth of the JSON Lines (about a ninth on a drive).
        let requests = Dictionary(grouping: batches) { "\($0["first_seq"] ?? 0)" }
        let body = requests.values.compactMap { $0.first?["wire_bytes"] as? Int }.reduce(0, +)
        let lines = expected.compactMap { try? JSONSerialization.data(withJSONObject: $0).count }.reduce(0, +)
        #expect(body * 8 < lines, "\(body) bytes of zstd for about \(lines) of JSON")
    }

    /// `content_encoding = "auto"` (the default) against a backend that decodes gzip but not zstd, whether it says
    /// so (415 with `Accept-Encoding`, RFC 7694) or reads the body undecoded (400): the first batch is refused in
    /// zstd and taken in gzip at once, every later one goes in gzip, nothing is quarantined, and the log says it
    /// once.
    @Test(
        "Batch HTTP, auto, to a backend without zstd: one batch refused in zstd, then everything in gzip",
        arguments: [415, 400]
    )
    func autoFallsBackToGzip(status: Int) throws {
        let server = try UplinkTestServer(codings: ["identity", "gzip"], codingStatus: status)
        defer { server.stop() }
        let run = try Run(Self.batchSettings(url: server.batchURL))
        let (printed, lastWindowEnd, received) = try Self.driveUntilEveryClosedWindow(run, server)
        let refusals = received.filter { $0["kind"] as? String == "coding_refused" }
        #expect(refusals.count == 1 && refusals.first?["encoding"] as? String == "zstd", "\(refusals)")
        let batches = received.filter { $0["kind"] as? String == "batch" }
        #expect(batches.count > 100 && batches.allSatisfy { $0["encoding"] as? String == "gzip" })
        let seqs = batches.compactMap { ($0["event"] as? [String: Any])?["seq"] as? Int }
        #expect(seqs == printed.compactMap { $0["seq"] as? Int }.filter { $0 <= lastWindowEnd })
        #expect(try run.sinkStats("http")["quarantined"] as? Int == 0)
        let stderr = run.agent?.stderr ?? ""
        let notice = "the http sink's batch did not go in zstd (HTTP \(status)) and went in gzip"
        #expect(stderr.components(separatedBy: notice).count == 2, "\(stderr)")
        #expect(!stderr.contains("cannot deliver"), "\(stderr)")
    }

    /// A backend that decodes neither coding `auto` tries: each batch is refused in both, and the refusal is the
    /// settings' (415) as with one coding: nothing is quarantined, and the sink says it cannot deliver.
    @Test("Batch HTTP, auto, to a backend that decodes neither: the events wait, nothing quarantined")
    func autoToABackendThatDecodesNeither() throws {
        let server = try UplinkTestServer(codings: ["identity"])
        defer { server.stop() }
        let run = try Run(Self.batchSettings(url: server.batchURL))
        let agent = try run.drive()
        // The server logs a refusal before it answers: the agent's line says the answer was taken.
        try agent.wait(seconds: 30, "the sink's failure") { agent.stderr.contains("the http sink cannot deliver") }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let received = try server.received()
        let refusals = received.filter { $0["kind"] as? String == "coding_refused" }
        #expect(Array(refusals.prefix(2)).compactMap { $0["encoding"] as? String } == ["zstd", "gzip"])
        #expect(!received.contains { $0["kind"] as? String == "batch" })
        #expect(try run.sinkStats("http")["quarantined"] as? Int == 0)
        #expect(agent.stderr.contains("the http sink cannot deliver: the server refuses the sink's settings (HTTP 415"))
    }

    /// A backend that decodes zstd and not gzip, and refuses one event: the batches holding it are refused in zstd
    /// (422) and in gzip (415, which says nothing of the events), so the sink halves them on zstd's answer until the
    /// event is alone and quarantined, and sends everything else in zstd.
    @Test("Batch HTTP, auto, to a backend without gzip: a refused event is quarantined on zstd's answer")
    func autoKeepsTheFirstCodingsAnswerWhenTheNextIsRefusedItsCoding() throws {
        let server = try UplinkTestServer(codings: ["identity", "zstd"])
        defer { server.stop() }
        let run = try Run(Self.batchSettings(url: server.batchURL) + "retry_max = \"200ms\"\n")
        try server.setFaults(#"[{"match": {"seq": 200}, "status": 422, "body": "no"}]"#)
        let (printed, lastWindowEnd, received) = try Self.driveUntilEveryClosedWindow(run, server)
        let batches = received.filter { $0["kind"] as? String == "batch" }
        #expect(batches.allSatisfy { $0["encoding"] as? String == "zstd" })
        let seqs = batches.compactMap { ($0["event"] as? [String: Any])?["seq"] as? Int }
        #expect(seqs == printed.compactMap { $0["seq"] as? Int }.filter { $0 <= lastWindowEnd && $0 != 200 })
        #expect(received.contains { $0["kind"] as? String == "coding_refused" && $0["encoding"] as? String == "gzip" })
        #expect(try run.sinkStats("http")["quarantined"] as? Int == 1)
        let stderr = run.agent?.stderr ?? ""
        #expect(!stderr.contains("went in gzip"), "\(stderr)")
    }
}
