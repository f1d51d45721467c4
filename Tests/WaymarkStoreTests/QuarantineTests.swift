import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// Events a sink's server refused: kept in the spool beside the events, whatever room making removes, counted in
/// the stats.
@Suite struct QuarantineTests {
    @Test func aRefusedEventIsKeptWithTheAnswerAfterTheEventItselfIsDropped() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        try spool.commit(SpoolSamples.commit((1...100).map { SpoolSamples.event($0) }))
        var commit = SpoolCommit()
        commit.cursors["traccar"] = 40
        let refused = SpoolSamples.event(17)
        let refusedAt = SpoolSamples.start.advanced(by: .seconds(3600))
        commit.quarantined = [
            QuarantinedEvent(sink: "traccar", event: refused, status: 400, answer: "bad", refusedAt: refusedAt)
        ]
        try spool.commit(commit)
        // Room making removes delivered events first: event 17 goes from the events, not from the quarantine.
        var full = SpoolSamples.commit((101...200).map { SpoolSamples.event($0) }, maxBytes: 30_000, delivered: 40)
        full.cursors["traccar"] = 40
        try spool.commit(full)
        #expect(try spool.events(after: 16, through: 17, limit: 1).isEmpty)
        let kept = try spool.quarantined()
        #expect(kept.count == 1)
        #expect(kept.first?.event == refused)
        #expect(kept.first?.status == 400 && kept.first?.answer == "bad" && kept.first?.refusedAt == refusedAt)
        #expect(try spool.quarantined(sink: "http").isEmpty)
        let stats = try spool.stats(sinks: ["traccar", "http"])
        #expect(stats.sinks.map(\.name) == ["http", "traccar"])
        #expect(stats.sinks.map(\.quarantined) == [0, 1])
    }

    @Test func aSpoolOfSchemaOneGainsTheQuarantineAndKeepsItsEvents() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
            try spool.commit(SpoolSamples.commit((1...10).map { SpoolSamples.event($0) }))
        }
        // As version 1 left it: no quarantine table, no odometer column.
        let path = directory.appendingPathComponent(Spool.fileName).path
        do {
            let database = try Database(path: path)
            try database.execute(
                """
                DROP TABLE quarantine; ALTER TABLE event DROP COLUMN odometer;
                DELETE FROM state WHERE key = 'odometer_seq';
                INSERT INTO state (key, value) VALUES ('odometer_mm', 52000); PRAGMA user_version = 1
                """
            )
        }
        let readOnly = try Spool(path: path, readOnly: true)
        #expect(try readOnly.quarantined().isEmpty)
        #expect(try readOnly.stats(sinks: ["file"]).sinks.first?.quarantined == 0)
        let (spool, moved) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(moved == nil)
        #expect(try spool.load().lastSeq == 10 && spool.load().odometer == 52)
        let database = try Database(path: path)
        #expect(try database.integer("PRAGMA user_version") == 3)
        #expect(try database.integer("SELECT COUNT(*) FROM quarantine") == 0)
    }

    @Test func aNewerSchemaIsRefusedByName() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do { _ = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start) }
        let path = directory.appendingPathComponent(Spool.fileName).path
        do { try Database(path: path).execute("PRAGMA user_version = 9") }
        let error = #expect(throws: SpoolError.self) { try Spool(path: path) }
        #expect(error?.message.contains("schema version 9 is newer than 3") == true)
    }
}
