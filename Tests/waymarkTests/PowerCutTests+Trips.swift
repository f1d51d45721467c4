import Foundation
import Testing
import WaymarkTestSupport

extension PowerCutTests {
    /// The Regensburg drive's capture: replayed with `pause_after = "30s"` it makes three trips.
    static let tripCapture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")

    /// Each a cut armed in a fresh board's log directory: at the GPX tracks' write, fsync and rename, at the
    /// summaries' (`trips.jsonl`), and torn writes of both.
    static func tripCuts(_ lazyFS: LazyFS) -> [(label: String, arm: (URL) throws -> Void)] {
        let gpx = "trips/.*\\.gpx"
        var cuts: [(label: String, arm: (URL) throws -> Void)] = []
        for timing in ["before", "after"] {
            for op in ["write", "fsync"] {
                cuts.append(("\(timing) \(op) GPX", { _ in try lazyFS.crash(timing, op, path: gpx) }))
                cuts.append(
                    ("\(timing) \(op) trips.jsonl", { _ in try lazyFS.crash(timing, op, path: "trips\\.jsonl") })
                )
            }
            cuts.append(("\(timing) rename GPX", { _ in try lazyFS.crash(timing, "rename", path: "\\.gpx$") }))
        }
        let second = "trips/2029-11-25T17-12-38.000Z.gpx.tmp"
        cuts.append(
            (
                "torn-op 1 of 2 GPX",
                { try lazyFS.tornOp($0.appendingPathComponent(second).path, parts: 2, persist: [1]) }
            )
        )
        cuts.append(
            (
                "torn-op 2 of 3 GPX",
                { try lazyFS.tornOp($0.appendingPathComponent(second).path, parts: 3, persist: [2]) }
            )
        )
        cuts.append(
            (
                "torn-op 2 of 2 trips.jsonl",
                {
                    try lazyFS.tornOp($0.appendingPathComponent("trips.jsonl").path, parts: 2, persist: [2])
                }
            )
        )
        return cuts
    }

    @Test("the trip files cut at their writes, fsyncs and renames, and torn: the next start writes them whole")
    func tripFiles() throws {
        guard let lazyFS = try Self.mountLazyFS() else { return }
        let cuts = Self.tripCuts(lazyFS)
        var fired = 0
        for (index, (label, arm)) in cuts.enumerated() {
            let board = try Board(lazyFS, "[activity]\npause_after = \"30s\"\n", under: "board-\(index)")
            try arm(board.logs)
            _ = try WaymarkBinary.run(["replay", Self.tripCapture, "--spool", "--config", board.config], timeout: 120)
            if !lazyFS.isRunning { fired += 1 }
            #expect(!lazyFS.isRunning, "\(label) did not fire: \(lazyFS.faultLog)")
            try board.cut()
            #expect(board.setAside().isEmpty, "\(label): the spool was set aside")
            // The next start, with no gpsd: its clean stop ends the deferral window, and the file sink writes
            // what the spool holds and the logs lack.
            let agent = try WaymarkBinary.start(
                ["run", "--config", board.config, "--gpsd", "127.0.0.1:\(try GPSDTestServer.freePort())"]
            )
            try agent.wait(seconds: 10, "\(label): the spool open") { agent.stderr.contains("spool open") }
            #expect(agent.interrupt() == 0, "\(label): \(agent.stderr.suffix(1000))")
            let spool = try board.spool()
            let trips = spool.values.filter { $0.contains("\"type\":\"trip\"") }.count
            // Every cut comes at a trip's files, after the trip's event was committed.
            #expect(trips >= 1, "\(label): no trip in the spool")
            let (lines, torn) = board.logLines()
            #expect(torn.isEmpty && lines.allSatisfy { Ledger.object($0) != nil }, "\(label): torn lines \(torn)")
            let days = board.logLines(trips: false).lines
            #expect(days.compactMap(Ledger.seq) == Array(1..<days.count + 1), "\(label): every seq once, in order")
            for line in days { #expect(spool[Ledger.seq(line) ?? 0] == line, "\(label): a line not as spooled") }
            let summaries = lines.count - days.count
            let tracks = board.logs.appendingPathComponent("trips")
            let files = try FileManager.default.contentsOfDirectory(atPath: tracks.path).sorted()
            #expect(summaries == trips && files.filter { $0.hasSuffix(".gpx") }.count == trips, "\(label): \(files)")
            for file in files where file.hasSuffix(".gpx") {
                let document = try [UInt8](Data(contentsOf: tracks.appendingPathComponent(file)))
                #expect(try GPXSchema.problems(in: document) == nil, "\(label): \(file) is not a valid GPX file")
            }
        }
        #expect(fired == cuts.count)
        print("PowerCutTests: \(cuts.count) cuts and torn writes of the trip files, \(fired) fired")
    }
}
