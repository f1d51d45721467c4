import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport
import WaymarkUplink

@testable import WaymarkAgent

extension StorageTests {
    /// A sink whose files hold events up to `highest`, by its own records.
    final class HoldingSink: Sink {
        let name = "file"
        let lastDelivered: UInt64?
        init(highest: UInt64) { lastDelivered = highest }
        func deliver(_ events: [StoredEvent]) throws {}
        func flush() throws {}
    }

    /// A sink starts again from its cursor in the spool, not from the highest `seq` it holds: a cut may have kept
    /// a later file of its last delivery and lost lines of an earlier one, which only the events after the cursor
    /// write again. What it holds still keeps the spool from numbering an event again.
    @Test(arguments: [
        (UInt64(4), UInt64(10), UInt64(6), UInt64(10)), (UInt64(10), UInt64(10), UInt64(0), UInt64(10)),
        (UInt64(4), UInt64(15), UInt64(11), UInt64(15)),
    ])
    func aSinkStartsFromItsCursor(cursor: UInt64, highest: UInt64, unsent: UInt64, lastSeq: UInt64) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = try Spool.open(inDirectory: directory.path, now: Timestamp(seconds: 0)).0
        var commit = SpoolCommit()
        commit.events = (1...10).map { Self.event($0) }
        commit.cursors = ["file": cursor]
        try spool.commit(commit)
        let storage = try Storage(
            spool: spool,
            sinks: [HoldingSink(highest: highest)],
            settings: SpoolSettings(commitInterval: .seconds(1)),
            clock: Clock().read,
            logger: Logger(label: "test")
        )
        #expect(storage.backlog().first { $0.name == "file" }?.unsent == unsent)
        #expect(storage.recovered.lastSeq == lastSeq)
    }
}
