import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// A spool written by the GRDB build of Waymark (`Tests/Fixtures/spool-grdb`, see its README), opened by
/// this one: every event, the cursor, the regions inside and the trip in progress carry over, and
/// numbering goes on.
@Suite struct EarlierSpoolTests {
    static let fixture = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/spool-grdb")

    /// A copy of the fixture's database and WAL in a fresh directory (opening recovers the WAL into it).
    static func copy() throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        for name in [Spool.fileName, Spool.fileName + "-wal"] {
            try FileManager.default.copyItem(
                at: fixture.appendingPathComponent(name),
                to: directory.appendingPathComponent(name)
            )
        }
        return directory
    }

    @Test func theGRDBSpoolIsReadAndContinued() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, moved) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(moved == nil)

        let state = try spool.load()
        #expect(state.lastSeq == 614 && state.cursors == ["file": 585] && state.windowStart == nil)
        #expect(state.insideRegions == ["yard"] && state.drops.isEmpty)
        #expect(state.odometer == nil, "that agent kept no odometer")
        let trip = try #require(state.openTrip)
        #expect(trip.start.iso8601 == "2029-11-25T16:57:54.000Z" && trip.end.iso8601 == "2029-11-25T17:13:14.000Z")
        #expect(trip.startPosition == Coordinate(latitude: 49.026566667, longitude: 12.065271667))
        #expect(trip.endPosition == Coordinate(latitude: 49.035155, longitude: 12.042721667))
        #expect(trip.distance == 11921.810063054694 && trip.idleTime == .seconds(140) && trip.stops == 5)
        #expect(trip.maxSpeed == 29.015 && trip.averageSpeed == 12.485640624999997)
        #expect(trip.regionsEntered == ["yard"] && trip.endReason == .interrupted)

        // Every line is what that agent printed, byte for byte.
        let printed = try String(contentsOf: Self.fixture.appendingPathComponent("events.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { Array($0.utf8) }
        let events = try spool.events(after: 0, through: 1000, limit: 1000)
        #expect(events.map(\.seq) == Array(1...614))
        #expect(events.map(\.line) == printed)
        #expect(events.filter { $0.kind == .region }.map(\.seq) == [57, 534])
        let stats = try spool.stats(sinks: ["file"])
        #expect(stats.events == 614 && stats.sinks.first?.unsent == 29 && stats.sinks.first?.oldestUnsentSeq == 586)

        var next = SpoolSamples.commit([SpoolSamples.event(615)])
        next.cursors = ["file": 615]
        next.openTrip = .clear
        next.odometer = 1234.5
        try spool.commit(next)
        let (reopened, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        let after = try reopened.load()
        #expect(after.lastSeq == 615 && after.cursors == ["file": 615] && after.openTrip == nil)
        #expect(after.odometer == 1234.5)
        #expect(try reopened.pragma("page_size") == "1024")
    }
}
