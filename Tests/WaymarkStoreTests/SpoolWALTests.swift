import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// The WAL keeps its size (`Spool.configure`, `Spool.deinit`): a sync into a file that grows also commits the file
/// system's journal, which on an SD card weighs more than the commit itself.
@Suite struct SpoolWALTests {
    static func walSize(_ spool: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: spool + "-wal")[.size] as? Int) ?? 0
    }

    /// Commits of 20 events of 2 KB each: 40 KB a commit, some 60 frames of 1 KB pages with their overflow pages.
    static func commit(_ spool: Spool, from first: UInt64) throws {
        let padding = String(repeating: "x", count: 2_000)
        let events = (first..<first + 20).map { seq in
            var event = SpoolSamples.event(seq)
            event.line = Array(#"{"type":"location","seq":\#(seq),"pad":"\#(padding)"}"#.utf8)
            return event
        }
        try spool.commit(SpoolSamples.commit(events))
    }

    @Test("a stop leaves the database whole, and the WAL at its size with one frame to read back")
    func stopKeepsTheWAL() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(Spool.fileName).path
        var grown = 0
        do {
            let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
            for commit in 0..<10 { try Self.commit(spool, from: UInt64(commit * 20 + 1)) }
            grown = Self.walSize(path)
        }
        #expect(grown > 400_000, "the WAL took \(grown) bytes")
        #expect(Self.walSize(path) == grown, "after the stop the WAL has \(Self.walSize(path)) bytes of \(grown)")
        // Whole: the database alone, copied without its WAL, holds every event.
        let alone = directory.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: alone.appendingPathComponent(Spool.fileName).path)
        let copy = try Spool(path: alone.appendingPathComponent(Spool.fileName).path, readOnly: true)
        #expect(try copy.load().lastSeq == 200)
        // One frame: the WAL starts again at its beginning, with the header's salt on its first frame only.
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let pageSize = Int(wal[8]) << 24 | Int(wal[9]) << 16 | Int(wal[10]) << 8 | Int(wal[11])
        let salt = wal[16..<24]
        let frames = stride(from: 32, to: wal.count - 24 - pageSize + 1, by: 24 + pageSize).prefix { offset in
            wal[offset + 8..<offset + 16] == salt
        }
        #expect(frames.count == 1, "\(frames.count) frames to read back")
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(try spool.load().lastSeq == 200)
        #expect(try spool.stats(sinks: []).walBytes == Int64(grown), "`waymark spool stats` counts the WAL")
        try Self.commit(spool, from: 201)
        #expect(Self.walSize(path) == grown, "the next commit overwrote the WAL's start: \(Self.walSize(path)) bytes")
    }

    @Test("through checkpoints and a stop the WAL never shrinks, and no event is lost")
    func walNeverShrinks() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(Spool.fileName).path
        var sizes: [Int] = []
        var seq: UInt64 = 1
        for _ in 0..<2 {
            let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
            // 150 commits of 40 KB: past the 4 MB at which the WAL is checkpointed and starts again.
            for _ in 0..<150 {
                try Self.commit(spool, from: seq)
                seq += 20
                sizes.append(Self.walSize(path))
            }
            #expect(try spool.load().lastSeq == seq - 1)
        }
        let shrinks = zip(sizes, sizes.dropFirst()).enumerated().filter { $0.element.1 < $0.element.0 }
        #expect(shrinks.isEmpty, "the WAL shrank after commits \(shrinks.map { "\($0.offset + 1)" })")
        #expect(sizes.last ?? 0 > Int(Spool.walBytes), "the WAL reached \(sizes.last ?? 0) bytes")
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(try spool.events(after: 0, through: seq, limit: Int(seq)).map(\.seq) == Array(1..<seq))
    }
}
