import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// The odometer rides in the row of a commit's last event, and `state` holds it only from a commit without events
/// (or before room making removes the row): a reopened spool always gives the newest.
@Suite struct SpoolOdometerTests {
    /// A commit of the events `seqs`, with the odometer (metres) when it moved.
    struct Step: Sendable {
        var seqs: [UInt64]
        var odometer: Double?
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [Step]
        /// The odometer a reopened spool gives.
        var odometer: Double?
        /// Whether `state` holds an odometer of its own.
        var inState: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "with the events", steps: [Step(seqs: [1, 2], odometer: 12.345)], odometer: 12.345, inState: false),
        Case(
            name: "without events, after",
            steps: [Step(seqs: [1, 2], odometer: 10), Step(seqs: [], odometer: 11)],
            odometer: 11,
            inState: true
        ),
        Case(
            name: "with events again",
            steps: [Step(seqs: [1], odometer: 10), Step(seqs: [], odometer: 11), Step(seqs: [2, 3], odometer: 12)],
            odometer: 12,
            inState: true
        ),
        Case(
            name: "events that did not move it",
            steps: [Step(seqs: [1], odometer: 10), Step(seqs: [], odometer: 11), Step(seqs: [2, 3], odometer: nil)],
            odometer: 11,
            inState: true
        ),
        Case(
            name: "only the older row carries it",
            steps: [Step(seqs: [1, 2], odometer: 10), Step(seqs: [3], odometer: nil)],
            odometer: 10,
            inState: false
        ),
        Case(
            name: "an empty spool's",
            steps: [Step(seqs: [], odometer: 5), Step(seqs: [1], odometer: nil)],
            odometer: 5,
            inState: true
        ),
        Case(name: "never moved", steps: [Step(seqs: [1, 2], odometer: nil)], odometer: nil, inState: false),
    ]

    @Test(arguments: cases)
    func theNewestIsLoaded(_ example: Case) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
            for step in example.steps {
                var commit = SpoolSamples.commit(step.seqs.map { SpoolSamples.event($0) })
                commit.odometer = step.odometer
                try spool.commit(commit)
            }
        }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(try spool.load().odometer == example.odometer)
        #expect(try (spool.stateValue(Spool.StateKey.odometerMillimetres) != nil) == example.inState)
    }

    /// Room making removes the row that carried the odometer: `state` took it first.
    @Test func roomMakingKeepsIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        let maxBytes: Int64 = 16 * 1024
        var first = SpoolSamples.commit([SpoolSamples.event(1)], maxBytes: maxBytes, delivered: 1)
        first.odometer = 4321.5
        try spool.commit(first)
        for batch in stride(from: UInt64(2), to: 400, by: 10) {
            try spool.commit(
                SpoolSamples.commit((batch..<batch + 10).map { SpoolSamples.event($0) }, maxBytes: maxBytes)
            )
        }
        #expect(try spool.events(after: 0, through: 1, limit: 1).isEmpty, "the carrying row is gone")
        // Each room making moved `odometer_seq` to the newest row: a look goes back over the rows since, not all.
        let newest = try spool.load().lastSeq
        let looked = try #require(try spool.stateValue(Spool.StateKey.odometerSeq))
        #expect(looked > 300 && looked < Int64(newest), "odometer_seq \(looked), newest \(newest)")
        let (reopened, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(try reopened.load().odometer == 4321.5)
    }

    /// A spool of schema 2 (the odometer in `state` only): read as it is, then migrated; the rows committed after
    /// the migration are newer than what `state` held.
    @Test func aSchemaTwoSpoolIsMigrated() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(Spool.fileName).path
        do {
            let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
            try spool.commit(SpoolSamples.commit([SpoolSamples.event(1), SpoolSamples.event(2)]))
        }
        do {
            // What the agent of schema 2 left: no odometer column, the odometer in `state`.
            let database = try Database(path: path, readOnly: false, busyTimeout: .seconds(1))
            try database.execute(
                """
                ALTER TABLE event DROP COLUMN odometer; DELETE FROM state WHERE key = 'odometer_seq';
                INSERT INTO state (key, value) VALUES ('odometer_mm', 777000); PRAGMA user_version = 2;
                """
            )
        }
        #expect(try Spool(path: path, readOnly: true).load().odometer == 777)
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: SpoolSamples.start)
        #expect(try spool.load().odometer == 777 && spool.pragma("user_version") == "3")
        try spool.commit(SpoolSamples.commit([SpoolSamples.event(3)]))
        #expect(try spool.load().odometer == 777)
        var moved = SpoolSamples.commit([SpoolSamples.event(4)])
        moved.odometer = 778
        try spool.commit(moved)
        #expect(try spool.load().odometer == 778)
    }
}

extension Spool {
    /// The value `state` holds under `key`.
    func stateValue(_ key: String) throws -> Int64? {
        try state.withLock { _ in try database.integer("SELECT value FROM state WHERE key = ?", key) }
    }
}
