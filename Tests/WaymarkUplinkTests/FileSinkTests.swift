import Foundation
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkSystem
import WaymarkTestSupport

@testable import WaymarkUplink

/// The file sink against real files and a real spool (for the trips' tracks).
@Suite struct FileSinkTests {
    /// A log directory, a spool beside it, and events to put in both.
    final class Workspace {
        let directory: URL
        let spool: Spool
        var logs: String { directory.appendingPathComponent("logs").path }

        init() throws {
            directory = try Fixtures.temporaryDirectory()
            spool = try Spool.open(inDirectory: directory.appendingPathComponent("state").path, now: Self.day1).0
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        static let day1 = Timestamp(seconds: 1_763_683_200)  // 2025-11-21T00:00:00Z

        /// - Parameter committed: the sink's cursor in the spool (0: no line is confirmed).
        func sink(maxAgeDays: Int = 0, maxTotalBytes: Int64 = 1 << 40, committed: UInt64? = 0) throws -> FileSink {
            try FileSink(
                directory: logs,
                retention: .init(maxAgeDays: maxAgeDays, maxTotalBytes: maxTotalBytes),
                tracks: spool,
                committed: committed
            )
        }

        /// Encodes and commits `events`, numbered from `first`.
        func store(
            _ kinds: [Event.Kind],
            first: UInt64,
            start: Timestamp,
            step: Duration = .seconds(1)
        ) throws -> [StoredEvent] {
            let encoder = EventEncoder()
            let stored = kinds.enumerated().map { index, kind in
                StoredEvent(
                    Event(seq: first + UInt64(index), time: start.advanced(by: step * index), kind: kind),
                    encoder: encoder
                )
            }
            var commit = SpoolCommit()
            commit.events = stored
            try spool.commit(commit)
            return stored
        }

        func lines(_ relative: String) throws -> [String] {
            let text = try String(contentsOfFile: "\(logs)/\(relative)", encoding: .utf8)
            return text.split(separator: "\n").map(String.init)
        }
    }

    static func location(_ index: Int) -> Event.Kind {
        .location(
            Location(
                time: Workspace.day1,
                latitude: 49.0 + Double(index) * 0.0001,
                longitude: 12.0 + Double(index) * 0.0001,
                altitudeMSL: 340,
                horizontalAccuracy: 5,
                mode: .threeD
            )
        )
    }

    /// A trip over the first 8 s of ``Workspace/day1``.
    static let trip = TripSummary(
        start: Workspace.day1,
        startPosition: Coordinate(latitude: 49, longitude: 12),
        end: Workspace.day1.advanced(by: .seconds(8)),
        endPosition: Coordinate(latitude: 49.0007, longitude: 12.0007),
        endReason: .stationary,
        distance: 93.2,
        idleTime: .zero,
        stops: 0,
        maxSpeed: 12,
        averageSpeed: 11.6,
        regionsEntered: ["depot & <yard>"]
    )

    @Test func eventsGoToTheFileOfTheirUTCDate() throws {
        let workspace = try Workspace()
        let sink = try workspace.sink()
        // From 23:59:58 to 00:00:02: two days.
        let events = try workspace.store(
            (0..<5).map(Self.location),
            first: 1,
            start: Workspace.day1.advanced(by: .seconds(86_398))
        )
        try sink.deliverAndFlush(events)
        #expect(
            try workspace.lines("events/2025-11-21.jsonl")
                == events[..<2].map { String(decoding: $0.line, as: UTF8.self) }
        )
        #expect(
            try workspace.lines("events/2025-11-22.jsonl")
                == events[2...].map { String(decoding: $0.line, as: UTF8.self) }
        )
        #expect(sink.lastWritten == 5)
    }

    /// A crash after the sink synced but before the spool committed its cursor: the same events come
    /// again, and the logs hold each line once.
    @Test func redeliveryAfterACrashWritesNothingTwice() throws {
        let workspace = try Workspace()
        let events = try workspace.store((0..<10).map(Self.location), first: 1, start: Workspace.day1)
        try workspace.sink().deliverAndFlush(Array(events[..<6]))
        let reopened = try workspace.sink()
        #expect(reopened.lastDelivered == 6)
        try reopened.deliverAndFlush(events)
        #expect(try workspace.lines("events/2025-11-21.jsonl").count == 10)
    }

    /// A delivery that fails halfway (the second day's file cannot be opened): what was written stays, and
    /// the same events again add only what was missing.
    @Test func aFailureHalfwayRepeatsNothing() throws {
        let workspace = try Workspace()
        let sink = try workspace.sink()
        let events = try workspace.store(
            (0..<6).map(Self.location),
            first: 1,
            start: Workspace.day1.advanced(by: .seconds(86_397))
        )
        let obstacle = "\(workspace.logs)/events/2025-11-22.jsonl"
        try FileManager.default.createDirectory(atPath: obstacle, withIntermediateDirectories: false)
        #expect(throws: SystemError.self) { try sink.deliverAndFlush(events) }
        #expect(sink.lastDelivered == 3)
        try FileManager.default.removeItem(atPath: obstacle)
        try sink.deliverAndFlush(events)
        #expect(try workspace.lines("events/2025-11-21.jsonl").count == 3)
        #expect(try workspace.lines("events/2025-11-22.jsonl").count == 3)
    }

    @Test func aTornLastLineIsCutOff() throws {
        let workspace = try Workspace()
        let events = try workspace.store((0..<4).map(Self.location), first: 1, start: Workspace.day1)
        try workspace.sink().deliverAndFlush(Array(events[..<3]))
        let path = "\(workspace.logs)/events/2025-11-21.jsonl"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(events[3].line.prefix(40)))
        try handle.close()
        let reopened = try workspace.sink()
        #expect(reopened.lastDelivered == 3)
        try reopened.deliverAndFlush(events)
        #expect(
            try workspace.lines("events/2025-11-21.jsonl") == events.map { String(decoding: $0.line, as: UTF8.self) }
        )
    }

    @Test func aTripGetsItsTrackAndSummary() throws {
        let workspace = try Workspace()
        let sink = try workspace.sink()
        var kinds = (0..<5).map(Self.location)
        kinds.append(.error(ErrorReport(code: .locationUnknown, message: "the receiver has no fix")))
        kinds += (5..<8).map(Self.location)
        var events = try workspace.store(kinds, first: 1, start: Workspace.day1)
        events += try workspace.store([.trip(Self.trip)], first: 10, start: Workspace.day1.advanced(by: .seconds(8)))
        try sink.deliverAndFlush(events)
        #expect(try workspace.lines("trips.jsonl") == [String(decoding: events.last!.line, as: UTF8.self)])
        let gpx = try String(contentsOfFile: "\(workspace.logs)/trips/2025-11-21T00-00-00.000Z.gpx", encoding: .utf8)
        #expect(gpx.components(separatedBy: "<trkseg>").count == 3)
        #expect(gpx.components(separatedBy: "<trkpt ").count == 9)
        // Delivered again after a crash: one summary still.
        try workspace.sink().deliverAndFlush(events)
        #expect(try workspace.lines("trips.jsonl").count == 1)
    }

    @Test func oldAndExcessFilesArePruned() throws {
        let workspace = try Workspace()
        let sink = try workspace.sink(maxAgeDays: 3, maxTotalBytes: 4 * 1024)
        var seq: UInt64 = 1
        for day in 0..<10 {
            let events = try workspace.store(
                (0..<8).map(Self.location),
                first: seq,
                start: Workspace.day1.advanced(by: .seconds(Int64(day) * 86_400))
            )
            seq += UInt64(events.count)
            try sink.deliverAndFlush(events)
        }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: "\(workspace.logs)/events"))
        // The newest days fit in 4 KB; nothing older than three days is left.
        #expect(names.contains("2025-11-30.jsonl"))
        #expect(!names.contains("2025-11-26.jsonl"))
        let total = try names.reduce(0) { sum, name in
            sum + (try FileManager.default.attributesOfItem(atPath: "\(workspace.logs)/events/\(name)")[.size] as! Int)
        }
        #expect(total <= 4 * 1024)
    }

    @Test("a trip's track description names its ends by their addresses, as the events do")
    func tripDescriptionKeepsAddresses() throws {
        let text = """
            {"type":"trip","seq":9,"time":"2025-11-21T00:10:00.000Z","start_place":{"name":"Kaivokatu 1, 00100 \
            Helsinki","country":"FI","timezone":"Europe/Helsinki","distance":3.2,"address":{"house_number":"1",\
            "street":"Kaivokatu","postcode":"00100","city":"Helsinki","distance":3.2}},"end_place":{"name":\
            "Kaivokatu, Helsinki","country":"FI","distance":41.5,"address":{"street":"Kaivokatu","city":"Helsinki",\
            "distance":41.5}}}
            """
        let trip = try EventLine(Array(text.utf8))
        #expect(trip.place("start_place")?.address?.houseNumber == "1")
        #expect(
            FileSink.placesDescription(trip) == "From Kaivokatu 1, 00100 Helsinki to Kaivokatu, Helsinki."
        )
    }
}

extension FileSink {
    /// A delivery as the sink driver makes it: the events, then the sync.
    func deliverAndFlush(_ events: [StoredEvent]) throws {
        try deliver(events)
        try flush()
    }
}
