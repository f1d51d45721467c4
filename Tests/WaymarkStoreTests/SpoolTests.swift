import Foundation
import Testing
import WaymarkCore
import WaymarkSystem
import WaymarkTestSupport

@testable import WaymarkStore

/// Events as the agent would store them: `location` lines of a realistic size, and the kinds a fleet keeps.
enum SpoolSamples {
    static let start = Timestamp(seconds: 1_700_000_000)

    static func event(_ seq: UInt64, _ kind: StoredEvent.Kind = .location) -> StoredEvent {
        let time = start.advanced(by: .seconds(Int64(seq)))
        let line =
            #"{"type":"\#(kind)","seq":\#(seq),"time":"\#(time.iso8601)","lat":49.026566667,"lon":12.065271667,"alt_hae":383.5,"alt_msl":336.9,"h_acc":19,"speed":12.5,"course":131.9,"mode":3}"#
        return StoredEvent(seq: seq, kind: kind, time: time, line: Array(line.utf8))
    }

    static func commit(_ events: [StoredEvent], maxBytes: Int64 = .max, delivered: UInt64 = 0) -> SpoolCommit {
        var commit = SpoolCommit()
        commit.events = events
        commit.maxBytes = maxBytes
        commit.delivered = delivered
        return commit
    }
}

@Suite struct SpoolTests {
    @Test func eventsSurviveReopeningAndSeqContinues() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = (1...500).map { SpoolSamples.event($0, $0 % 50 == 0 ? .trip : .location) }
        do {
            let (spool, moved) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
            #expect(moved == nil)
            #expect(try spool.load().lastSeq == 0)
            try spool.commit(SpoolSamples.commit(Array(events[..<200])))
            try spool.commit(SpoolSamples.commit(Array(events[200...])))
        }
        let (spool, moved) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(moved == nil)
        #expect(try spool.load().lastSeq == 500)
        #expect(try spool.events(after: 0, through: 500, limit: 1000) == events)
        #expect(try spool.events(after: 100, through: 150, limit: 10).map(\.seq) == Array(101...110))
        var exported: [UInt64] = []
        try spool.forEach(from: 450, kinds: [.trip]) { exported.append($0.seq) }
        #expect(exported == [450, 500])
        let stats = try spool.stats(sinks: ["file"])
        #expect(stats.events == 500 && stats.firstSeq == 1 && stats.lastSeq == 500)
        #expect(stats.sinks.map(\.name) == ["file"] && stats.sinks[0].unsent == 500)
        #expect(stats.sinks[0].oldestUnsentSeq == 1 && stats.sinks[0].oldestUnsentTime == events[0].time)
    }

    /// A drive's worth of events, committed a second at a time and read back by a sink, leaves SQLite's page cache
    /// small: its default (2,000 KiB) filled with written pages was most of the agent's anonymous memory.
    @Test func pageCacheStaysSmallThroughADrive() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        // 6,000 events of 250 bytes: 1.5 MB of rows, in commits of 3 as in a vehicle at one commit a second.
        for first in stride(from: UInt64(1), through: 6_000, by: 3) {
            try spool.commit(SpoolSamples.commit((first..<first + 3).map { SpoolSamples.event($0) }))
        }
        #expect(try spool.events(after: 0, through: 6_000, limit: 6_000).count == 6_000)
        #expect(spool.cacheBytes > 0)
        #expect(spool.cacheBytes <= 256 * 1024, "SQLite's page cache holds \(spool.cacheBytes) bytes")
    }

    /// WAL, and every commit synced: durable across a power cut, not only a crash.
    @Test func commitsAreSynced() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(try spool.pragma("journal_mode") == "wal" && spool.pragma("synchronous") == "2")
    }

    /// A new spool has 1 KB pages, which cut what a commit writes; one made with SQLite's 4 KB keeps them.
    /// Either checkpoints every 4 MB of WAL.
    @Test func newSpoolsHaveSmallPages() throws {
        func pages(_ spool: Spool) throws -> (size: String?, checkpoint: String?) {
            (try spool.pragma("page_size"), try spool.pragma("wal_autocheckpoint"))
        }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(try pages(spool) == ("1024", "4096"))

        let older = directory.appendingPathComponent("older.sqlite").path
        try Database(path: older).execute("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; VACUUM")
        let reopened = try Spool(path: older)
        try reopened.commit(SpoolSamples.commit((1...10).map { SpoolSamples.event($0) }))
        #expect(try pages(reopened) == ("4096", "1024"))
        #expect(try reopened.stats(sinks: []).lastSeq == 10)
    }

    @Test func stateIsCommittedWithTheEvents() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
            #expect(try spool.load().insideRegions == nil)
            var commit = SpoolSamples.commit([SpoolSamples.event(1), SpoolSamples.event(2)])
            commit.cursors = ["file": 1]
            commit.writesWindow = true
            commit.windowStart = 2
            commit.insideRegions = ["depot", "yard"]
            try spool.commit(commit)
            var floor = SpoolCommit()
            floor.seqFloor = 90
            try spool.commit(floor)
        }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        var expected = SpoolState()
        expected.lastSeq = 90
        expected.windowStart = 2
        expected.cursors = ["file": 1]
        expected.insideRegions = ["depot", "yard"]
        expected.lastTime = SpoolSamples.event(2).time
        #expect(try spool.load() == expected)
        var close = SpoolCommit()
        close.writesWindow = true
        close.insideRegions = []
        try spool.commit(close)
        #expect(try spool.load().windowStart == nil)
        #expect(try spool.load().insideRegions == [])
    }

    /// A tiny `max_bytes`: the spool stays under it, thins the locations (every other one, the oldest
    /// first) and never drops a protected event while a routine one is left; every drop is counted.
    @Test func fullSpoolThinsLocationsAndKeepsProtectedEvents() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        let maxBytes: Int64 = 64 * 1024
        let protected: [StoredEvent.Kind] = [.region, .pause, .resume, .trip, .deferredFinished]
        var all: [StoredEvent] = []
        var dropped: [StoredEvent.Kind: Int] = [:]
        for batch in 0..<100 {
            let events = (1...20).map { index -> StoredEvent in
                let seq = UInt64(batch * 20 + index)
                return SpoolSamples.event(seq, seq % 37 == 0 ? protected[Int(seq / 37) % protected.count] : .location)
            }
            all += events
            for (kind, count) in try spool.commit(SpoolSamples.commit(events, maxBytes: maxBytes)) {
                dropped[kind, default: 0] += count
            }
            #expect(spool.usedBytes <= maxBytes)
        }
        let kept = try spool.events(after: 0, through: 10_000, limit: 10_000)
        #expect(Set(all.filter { $0.kind.isProtected }).isSubset(of: Set(kept)))
        #expect(dropped.keys.allSatisfy { $0 == .location })
        #expect(dropped[.location] == all.count - kept.count)
        #expect(try spool.load().drops == ["location": all.count - kept.count])
        #expect(kept.last == all.last)
        // Thinned, not cut: the older half of the drive keeps some locations, fewer than the newer half.
        let locations = kept.filter { $0.kind == .location }.map(\.seq)
        let older = locations.filter { $0 <= 1000 }.count
        #expect(older > 0 && older < locations.count - older, "kept \(locations)")
        #expect(Files.size(spool.path)! <= maxBytes * 2)
    }

    /// Locations and headings that alternate: thinning keeps every other one of each kind, never all of one.
    @Test func thinningKeepsEveryKind() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        let events = (1...600).map { SpoolSamples.event($0, $0 % 2 == 0 ? .heading : .location) }
        for batch in stride(from: 0, to: 600, by: 20) {
            try spool.commit(SpoolSamples.commit(Array(events[batch..<(batch + 20)]), maxBytes: 64 * 1024))
        }
        let kept = try spool.events(after: 0, through: 1000, limit: 1000)
        let locations = kept.filter { $0.kind == .location }.count
        let headings = kept.filter { $0.kind == .heading }.count
        #expect(kept.count < 600 && locations > kept.count / 3 && headings > kept.count / 3, "\(locations) \(headings)")
    }

    @Test func deliveredEventsMakeRoomFirstAndAreNoDrops() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        let first = (1...300).map { SpoolSamples.event($0) }
        try spool.commit(SpoolSamples.commit(first))
        let used = spool.usedBytes
        let second = (301...400).map { SpoolSamples.event($0) }
        let drops = try spool.commit(SpoolSamples.commit(second, maxBytes: used, delivered: 300))
        #expect(drops.isEmpty)
        let kept = try spool.events(after: 0, through: 1000, limit: 1000).map(\.seq)
        #expect(kept.first! > 1 && Array(301...400).allSatisfy(kept.contains))
    }

    @Test(arguments: ["text", "noise"])
    func unusableDatabaseIsMovedAside(kind: String) throws {
        let garbage =
            kind == "text" ? Array("not a database at all, just bytes".utf8) : Array(repeating: 0xA5, count: 8192)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(Spool.fileName).path
        try Data(garbage).write(to: URL(fileURLWithPath: path))
        let (spool, moved) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        let aside = try #require(moved)
        #expect(aside.path == path + ".corrupt-2023-11-14T22-13-20.000Z")
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside.path)) == Data(garbage))
        #expect(try spool.load().lastSeq == 0)
        try spool.commit(SpoolSamples.commit([SpoolSamples.event(1)]))
    }

    @Test func anotherProgramsDatabaseIsMovedAside() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(Spool.fileName).path
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [path, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');"]
        try sqlite.run()
        sqlite.waitUntilExit()
        let (_, moved) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(moved?.reason.contains("not a spool") == true)
    }

    /// The disk as a crash left it, with its WAL cut at any offset: the spool opens and holds a prefix of
    /// what was committed, every event whole.
    @Test func tornWriteAheadLogLosesOnlyTheTail() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        let events = (1...120).map { SpoolSamples.event($0) }
        for batch in stride(from: 0, to: 120, by: 10) {
            try spool.commit(SpoolSamples.commit(Array(events[batch..<(batch + 10)])))
        }
        let database = try Data(contentsOf: URL(fileURLWithPath: spool.path))
        let log = try Data(contentsOf: URL(fileURLWithPath: spool.path + "-wal"))
        #expect(log.count > 4096)
        var random = SplitMix64(seed: 7)
        for _ in 0..<12 {
            let cut = Int.random(in: 0...log.count, using: &random)
            let copy = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: copy) }
            let path = copy.appendingPathComponent(Spool.fileName).path
            try database.write(to: URL(fileURLWithPath: path))
            try log.prefix(cut).write(to: URL(fileURLWithPath: path + "-wal"))
            let (reopened, moved) = try Spool.open(inDirectory: copy.path, now: SpoolSamples.start)
            #expect(moved == nil, "WAL cut at \(cut)")
            let kept = try reopened.events(after: 0, through: 1000, limit: 1000)
            #expect(kept == Array(events.prefix(kept.count)), "WAL cut at \(cut)")
            #expect(kept.count % 10 == 0)
            try reopened.commit(SpoolSamples.commit([SpoolSamples.event(UInt64(kept.count + 1))]))
        }
    }
}

extension Spool {
    /// The value of `PRAGMA name` on the spool's own connection.
    func pragma(_ name: String) throws -> String? {
        try state.withLock { _ in try database.text("PRAGMA \(name)") }
    }
}
