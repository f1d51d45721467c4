import Foundation
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkSystem

@testable import WaymarkUplink

/// What the file sink mends when it opens after a power cut, and what it must leave alone. The spool hands every
/// event after the sink's cursor (`committed`) again; the tests hand the same.
extension FileSinkTests {
    /// A power cut that kept the second half of an append and lost the first (LazyFS's torn-op): a hole of zeros,
    /// then whole-looking lines. Everything from the hole's line on is cut off and written again, however many
    /// lines follow the hole (40 events: more than the 4 KB of the tail that a first look reads).
    @Test(arguments: [(3, 40, 0, 8), (3, 200, 1, 8), (2, 10, 5000, 8), (2, 10, 0, 40)])
    func aHoleAndTheLinesAfterItAreCutOff(synced: Int, keptFrom: Int, padding: Int, count: Int) throws {
        let workspace = try Workspace()
        let events = try workspace.store((0..<count).map(Self.location), first: 1, start: Workspace.day1)
        try workspace.sink().deliverAndFlush(Array(events[..<synced]))
        // The lost append: the unsynced lines, of which only the bytes from `keptFrom` on reached the disk, after
        // `padding` more zeros (a hole longer than the sink's first look at the tail).
        let append =
            Array(repeating: UInt8(0), count: padding)
            + events[synced...].flatMap { $0.line + [UInt8(ascii: "\n")] }
        try Self.append(
            Array(repeating: UInt8(0), count: keptFrom + padding) + append[(keptFrom + padding)...],
            to: "\(workspace.logs)/events/2025-11-21.jsonl"
        )
        let reopened = try workspace.sink(committed: UInt64(synced))
        #expect(reopened.lastDelivered == UInt64(synced))
        try reopened.deliverAndFlush(Array(events[synced...]))
        #expect(try workspace.lines("events/2025-11-21.jsonl") == events.map(Self.text))
        #expect(reopened.damage.isEmpty)
    }

    /// Zero bytes in a line of a log of 8 (an SD card's damage, an older release's cut): cut off with the lines
    /// after it only when its `seq` is after the cursor; at or before it, the spool may no longer have the
    /// lines, so the file is left as it is, and said so when the zeros are in the last line the cursor covers.
    @Test(arguments: [
        (7, UInt64(5), true, false), (5, UInt64(5), false, true), (3, UInt64(5), false, false),
        (3, UInt64(8), false, false),
    ])
    func zerosAreCutOffOnlyAfterTheCursor(zeroLine: Int, committed: UInt64, cut: Bool, reported: Bool) throws {
        let workspace = try Workspace()
        let events = try workspace.store((0..<8).map(Self.location), first: 1, start: Workspace.day1)
        try workspace.sink().deliverAndFlush(events)
        let path = "\(workspace.logs)/events/2025-11-21.jsonl"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // Four zeros well inside the line, after its `seq`.
        let lineEnd = events[..<zeroLine].reduce(0) { $0 + $1.line.count + 1 } - 1
        bytes.replaceSubrange((lineEnd - 12)..<(lineEnd - 8), with: [0, 0, 0, 0])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reopened = try workspace.sink(committed: committed)
        #expect(reopened.damage.count == (reported ? 1 : 0))
        let kept = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let expected = cut ? Array(bytes[..<events[..<(zeroLine - 1)].reduce(0) { $0 + $1.line.count + 1 }]) : bytes
        let asExpected = kept == expected
        #expect(asExpected, "the log holds \(kept.count) bytes, \(expected.count) expected")
        try reopened.deliverAndFlush(events.filter { $0.seq > committed })
        if cut { #expect(try workspace.lines("events/2025-11-21.jsonl") == events.map(Self.text)) }
    }

    /// A delivery from 23:59:53 to 00:00:02 appends to two days' logs; a cut between their fsyncs keeps one and
    /// loses lines of the other. Whichever it was, the events after the cursor write the lost lines again (the
    /// highest `seq` the logs still hold, what the spool numbers after, is the kept log's last).
    @Test(arguments: [("2025-11-21", 4, UInt64(10)), ("2025-11-22", 0, UInt64(7))])
    func aCutThatKeptOneDaysLogMendsTheOther(lost day: String, keptLines: Int, highest: UInt64) throws {
        let workspace = try Workspace()
        let events = try workspace.store(
            (0..<10).map(Self.location),
            first: 1,
            start: Workspace.day1.advanced(by: .seconds(86_393))
        )
        let sink = try workspace.sink()
        try sink.deliverAndFlush(Array(events[..<4]))
        try sink.deliverAndFlush(Array(events[4...]))
        let path = "\(workspace.logs)/events/\(day).jsonl"
        let keptBytes = events.filter { EventLogName.fileName(day: EventLogName.day(of: $0.time)) == "\(day).jsonl" }
            .prefix(keptLines).reduce(0) { $0 + $1.line.count + 1 }
        try Files.truncate(path, to: Int64(keptBytes))
        let reopened = try workspace.sink(committed: 4)
        #expect(reopened.lastDelivered == highest)
        try reopened.deliverAndFlush(Array(events[4...]))
        #expect(try workspace.lines("events/2025-11-21.jsonl") == events[..<7].map(Self.text))
        #expect(try workspace.lines("events/2025-11-22.jsonl") == events[7...].map(Self.text))
    }

    /// A cut that lost `trips.jsonl`'s new line and the track but kept the day's log with the trip event: both
    /// are written again, the day's log gets no second line.
    @Test func aLostTripSummaryIsWrittenAgain() throws {
        let workspace = try Workspace()
        var events = try workspace.store((0..<9).map(Self.location), first: 1, start: Workspace.day1)
        events += try workspace.store([.trip(Self.trip)], first: 10, start: Workspace.day1.advanced(by: .seconds(8)))
        let sink = try workspace.sink()
        try sink.deliverAndFlush(Array(events[..<5]))
        try sink.deliverAndFlush(Array(events[5...]))
        let track = "\(workspace.logs)/trips/2025-11-21T00-00-00.000Z.gpx"
        try Files.truncate("\(workspace.logs)/trips.jsonl", to: 0)
        try FileManager.default.removeItem(atPath: track)
        let reopened = try workspace.sink(committed: 5)
        try reopened.deliverAndFlush(Array(events[5...]))
        #expect(try workspace.lines("trips.jsonl") == [Self.text(events[9])])
        #expect(FileManager.default.fileExists(atPath: track))
        #expect(try workspace.lines("events/2025-11-21.jsonl") == events.map(Self.text))
    }

    static func text(_ event: StoredEvent) -> String { String(decoding: event.line, as: UTF8.self) }

    static func append(_ bytes: [UInt8], to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }
}
