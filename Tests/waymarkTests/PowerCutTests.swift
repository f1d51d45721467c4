import Foundation
import Testing
import WaymarkTestSupport

/// Issue 40's power cuts (docs/spool-and-logs.md, "Power cuts, tested"): `waymark run` with its `state_dir` and
/// `log_dir` on LazyFS while a real gpsd plays a drive and an HTTP backend takes batches; cut at random times and at
/// chosen writes, fsyncs and renames (the agent SIGKILLed and every unsynced byte thrown away), then rebooted.
@Suite("Power cuts at every write (LazyFS)", .serialized)
struct PowerCutTests {
    /// LazyFS mounted for a test, or nil where this machine cannot run it (not root, no `/dev/fuse`): said so
    /// on stdout, and in CI (`CI` set) a failure, never a skip.
    static func mountLazyFS() throws -> LazyFS? {
        guard let reason = LazyFS.unavailableReason else { return try LazyFS() }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record("CI must run the power-cut suite: \(reason)")
        } else {
            print("PowerCutTests skipped: \(reason)")
        }
        return nil
    }

    /// What must hold after every cut, before the agent starts again: nothing set aside, every event a sink had
    /// confirmed still spooled with the same content, no seq given to two events, and (unless `tornWrite`, a
    /// fault that tears a write on purpose, which the next start must mend) no torn line but at a log's end, which
    /// the next start cuts off. Returns the torn lines seen, at a log's end and inside it.
    @discardableResult
    static func checkAfterCut(
        _ board: Board,
        _ ledger: Ledger,
        server: UplinkTestServer,
        _ label: String,
        tornWrite: Bool = false
    ) throws -> [String] {
        #expect(board.setAside().isEmpty, "\(label): the spool was set aside: \(board.setAside())")
        let spool = try board.spool()
        let confirmed = try server.received().compactMap { $0["event"] as? [String: Any] }
        for event in confirmed { ledger.record(event, at: "\(label): the backend") }
        let (lines, torn) = board.logLines()
        var synced: [Int] = []
        // Lines before a log's last that do not parse: a torn write's hole, never a plain cut's.
        var broken: [String] = []
        for line in lines {
            guard let object = Ledger.object(line), object["seq"] is Int else {
                broken.append(String(line.prefix(200)))
                continue
            }
            ledger.record(object, at: "\(label): the logs")
            synced += (object["seq"] as? Int).map { [$0] } ?? []
        }
        if !tornWrite { #expect(broken.isEmpty, "\(label): a torn line inside the logs: \(broken)") }
        // What each sink confirmed (its cursor) is where it belongs: in the day logs, at the backend.
        let cursors = try board.cursors()
        let logged = Set(board.logLines(trips: false).lines.compactMap(Ledger.seq))
        let received = Set(confirmed.compactMap { $0["seq"] as? Int })
        for (sink, holds) in [("file", logged), ("http", received)] {
            let cursor = cursors[sink] ?? 0
            let absent = (0..<cursor).map { $0 + 1 }.filter { !holds.contains($0) }
            #expect(
                absent.isEmpty,
                "\(label): the \(sink) sink confirmed up to \(cursor) but lacks \(absent.prefix(20))"
            )
        }
        for (seq, line) in spool { ledger.record(Ledger.object(line) ?? [:], at: "\(label): the spool (\(seq))") }
        let missing = (confirmed.compactMap { $0["seq"] as? Int } + synced).filter { spool[$0] == nil }
        #expect(missing.isEmpty, "\(label): confirmed events lost from the spool: \(Set(missing).sorted())")
        #expect(ledger.reused.isEmpty, "\(label): a seq given to two events: \(ledger.reused.prefix(3))")
        return torn + broken
    }

    /// The end of a run: stopped cleanly, the logs hold no torn line and every seq from 1 once, in order, as the
    /// spool holds it.
    static func checkAtEnd(_ board: Board, _ ledger: Ledger, server: UplinkTestServer) throws {
        #expect(board.stop() == 0)
        let torn = try checkAfterCut(board, ledger, server: server, "after the clean stop", tornWrite: true)
        #expect(torn.isEmpty, "torn lines the agent left in its logs: \(torn)")
        let spool = try board.spool()
        let seqs = board.logLines(trips: false).lines.compactMap(Ledger.seq)
        #expect(!seqs.isEmpty && seqs == Array(1...seqs.count), "every seq in the day logs once, in order")
        #expect(spool.keys.max() == seqs.last, "the spool's last seq is the day logs' last")
    }

    static func settings(backend: UplinkTestServer) -> String {
        """
        [spool]
        commit_interval = "1s"

        [deferred]
        enabled = true
        max_events = 25
        timeout = "4s"

        [sinks.http]
        enabled = true
        url = "\(backend.batchURL)"
        retry_min = "100ms"
        retry_max = "500ms"

        """
    }

    /// A drive on LazyFS: a real gpsd playing the Regensburg drive, the HTTP backend, the agent started; `body`
    /// cuts it (``reboot(_:_:_:gpsd:_:tornWrite:)`` after each cut); then the agent is stopped cleanly and the end
    /// checked.
    static func drive(_ body: (LazyFS, Board, Ledger, UplinkTestServer, Int) throws -> Void) throws {
        guard let lazyFS = try mountLazyFS() else { return }
        let gpsd = try DurabilityTests.drivingGPSD()
        defer {
            gpsd.stop()
            gpsd.feed.stop()
        }
        let server = try UplinkTestServer()
        defer { server.stop() }
        let board = try Board(lazyFS, settings(backend: server))
        let ledger = Ledger()
        try board.start(gpsd: gpsd.port)
        try body(lazyFS, board, ledger, server, gpsd.port)
        Thread.sleep(forTimeInterval: 3)
        try checkAtEnd(board, ledger, server: server)
    }

    /// The cut, the checks after it, and the agent's next start; returns the torn lines seen before the start.
    @discardableResult
    static func reboot(
        _ board: Board,
        _ ledger: Ledger,
        _ server: UplinkTestServer,
        gpsd: Int,
        _ label: String,
        tornWrite: Bool = false
    ) throws -> [String] {
        try board.cut()
        let torn = try checkAfterCut(board, ledger, server: server, label, tornWrite: tornWrite)
        try board.start(gpsd: gpsd)
        return torn
    }

    /// Waits up to 40 s for an armed fault to fire (LazyFS kills itself); whether it did.
    static func fired(_ lazyFS: LazyFS) -> Bool {
        let deadline = Date().addingTimeInterval(40)
        while lazyFS.isRunning && Date() < deadline { usleep(20_000) }
        return !lazyFS.isRunning
    }

    @Test("20 power cuts at random times during a paced drive, with the file and HTTP sinks delivering")
    func randomCuts() throws {
        try Self.drive { _, board, ledger, server, gpsd in
            var random = SplitMix64(seed: 40_002)
            var tornEnds = 0
            for cut in 1...20 {
                Thread.sleep(forTimeInterval: Double.random(in: 0.3...3.0, using: &random))
                tornEnds += try Self.reboot(board, ledger, server, gpsd: gpsd, "random cut \(cut)").count
            }
            #expect(ledger.events.count > 100, "\(ledger.events.count) events left the board")
            let cursors = try board.cursors()
            #expect(cursors["file"] ?? 0 > 50 && cursors["http"] ?? 0 > 50, "the sinks confirmed little: \(cursors)")
            print(
                "PowerCutTests: 20 random cuts, \(ledger.events.count) events, cursors \(cursors), \(tornEnds) torn ends"
            )
        }
    }

    /// The writes, fsyncs and renames the agent makes, each a file-name pattern LazyFS matches against paths;
    /// `stop`: reached by stopping the agent cleanly (the spool's checkpoint before its close, `Spool.deinit`: while
    /// it runs, one comes only every 4 MB of WAL).
    static let chosenOperations: [(timing: String, op: String, path: String, stop: Bool)] = [
        ("before", "write", "spool\\.sqlite-wal", false), ("after", "write", "spool\\.sqlite-wal", false),
        ("before", "fsync", "spool\\.sqlite-wal", false), ("after", "fsync", "spool\\.sqlite-wal", false),
        ("before", "write", "spool\\.sqlite$", true), ("after", "write", "spool\\.sqlite$", true),
        ("before", "fsync", "spool\\.sqlite$", true), ("after", "fsync", "spool\\.sqlite$", true),
        ("before", "write", "events/.*\\.jsonl", false), ("after", "write", "events/.*\\.jsonl", false),
        ("before", "fsync", "events/.*\\.jsonl", false), ("after", "fsync", "events/.*\\.jsonl", false),
    ]

    @Test("a power cut before and after each kind of write and fsync of the spool, its checkpoint and the day logs")
    func chosenCuts() throws {
        try Self.drive { lazyFS, board, ledger, server, gpsd in
            var fired: [String] = []
            for (timing, op, path, stop) in Self.chosenOperations {
                let label = "\(timing) \(op) \(path)"
                try lazyFS.crash(timing, op, path: path)
                if stop { board.agent?.signal(SIGINT) }
                if Self.fired(lazyFS) { fired.append(label) }
                try Self.reboot(board, ledger, server, gpsd: gpsd, label)
            }
            #expect(fired.count == Self.chosenOperations.count, "the cuts that fired: \(fired)")
            print("PowerCutTests: \(fired.count) cuts at chosen operations: \(fired)")
        }
    }

    @Test("waymark regions add cut before and after its write, fsync and rename: the region file is old or new")
    func regionEdits() throws {
        guard let lazyFS = try Self.mountLazyFS() else { return }
        let file = lazyFS.mountPoint.appendingPathComponent("regions.geojson").path
        let board = try Board(lazyFS, "[regions]\nfile = \"\(file)\"\n")
        func add(_ id: String, _ index: Int) throws -> WaymarkBinary.Result {
            try WaymarkBinary.run([
                "regions", "add", id, "--lat", "\(49.0 + Double(index) / 100)", "--lon", "12.1", "--radius", "150",
                "--config", board.config,
            ])
        }
        func ids() throws -> [String] {
            let list = try WaymarkBinary.run(["regions", "list", "--config", board.config])
            #expect(list.status == 0, "regions list after a cut: \(list.stderr)")
            return list.stdoutLines.dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        }
        #expect(try add("depot", 0).status == 0)
        let cuts =
            [("before", "write"), ("after", "write"), ("before", "fsync"), ("after", "fsync")]
            + [("before", "rename"), ("after", "rename")]
        var newFiles = 0
        for (index, (timing, op)) in cuts.enumerated() {
            let before = try ids()
            try lazyFS.crash(timing, op, path: "regions\\.geojson")
            let id = "zone-\(index)"
            _ = try add(id, index + 1)
            #expect(!lazyFS.isRunning, "the cut \(timing) \(op) did not fire: \(lazyFS.logTail)")
            try board.cut()
            let after = try ids()
            #expect(after == before || after.sorted() == (before + [id]).sorted(), "\(timing) \(op): \(after)")
            if after != before { newFiles += 1 }
        }
        // Only a cut after the rename keeps the new file: the temporary file was synced before it.
        #expect(newFiles == 1, "\(newFiles) cuts kept the new file")
    }

    @Test("torn writes: the day log's append (torn-op) and the spool's WAL frames (torn-seq); the next start copes")
    func tornWrites() throws {
        try Self.drive { lazyFS, board, ledger, server, gpsd in
            let events = board.logs.appendingPathComponent("events")
            let wal = board.state.appendingPathComponent("spool.sqlite-wal").path
            func dayLog() throws -> String {
                let day = try FileManager.default.contentsOfDirectory(atPath: events.path).sorted().last
                return events.appendingPathComponent(try #require(day, "no day log yet")).path
            }
            // Parts kept of the torn write: the head (a torn last line), the tail (a hole of zeros, then whole
            // lines), both ends; of a commit's run of WAL writes, the first and third only.
            let faults: [(label: String, inject: () throws -> Void, logTorn: Bool)] = [
                ("torn-op 1 of 3 (day log)", { try lazyFS.tornOp(try dayLog(), parts: 3, persist: [1]) }, true),
                ("torn-op 2 of 2 (day log)", { try lazyFS.tornOp(try dayLog(), parts: 2, persist: [2]) }, true),
                ("torn-op 1,3 of 4 (day log)", { try lazyFS.tornOp(try dayLog(), parts: 4, persist: [1, 3]) }, true),
                ("torn-seq 1,3 (WAL)", { try lazyFS.tornSeq(wal, persist: [1, 3]) }, false),
            ]
            for (label, inject, logTorn) in faults {
                try board.agent?.wait(seconds: 30, "a day log") { board.logLines(trips: false).lines.count > 10 }
                try inject()
                #expect(Self.fired(lazyFS), "\(label) did not fire: \(lazyFS.faultLog)")
                let torn = try Self.reboot(board, ledger, server, gpsd: gpsd, label, tornWrite: true)
                if logTorn { #expect(!torn.isEmpty, "\(label) left no torn line to mend") }
            }
            print("PowerCutTests: \(faults.count) torn writes mended, \(ledger.events.count) events")
        }
    }
}
