import Foundation
import Logging
import Synchronization
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

@testable import WaymarkAgent

/// The storage's commits on a clock the test moves: group commit, every event alone, and a spool that
/// refuses a commit.
@Suite struct StorageTests {
    final class Clock: Sendable {
        let now = Mutex(MonotonicInstant(nanoseconds: 1_000_000_000))
        func read() -> MonotonicInstant { now.withLock { $0 } }
        func advance(by duration: Duration) { now.withLock { $0 = $0 + duration } }
    }

    static func event(_ seq: UInt64, _ kind: Event.Kind? = nil) -> StoredEvent {
        let time = Timestamp(seconds: 1_700_000_000 + Int64(seq))
        let location = Location(time: time, latitude: 49, longitude: 12)
        return StoredEvent(Event(seq: seq, time: time, kind: kind ?? .location(location)), encoder: EventEncoder())
    }

    static func storage(_ directory: URL, interval: Duration, clock: Clock) throws -> Storage {
        let spool = try Spool.open(inDirectory: directory.path, now: Timestamp(seconds: 0)).0
        return try Storage(
            spool: spool,
            sinks: [],
            settings: SpoolSettings(commitInterval: interval),
            clock: clock.read,
            logger: Logger(label: "test")
        )
    }

    @Test func groupCommitWaitsForTheIntervalButNotForAPause() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let storage = try Self.storage(directory, interval: .seconds(1), clock: clock)
        storage.append(Self.event(1))
        storage.append(Self.event(2))
        #expect(storage.commitIfDue().isEmpty && storage.commits == 0)
        clock.advance(by: .milliseconds(999))
        #expect(storage.commitIfDue().isEmpty && storage.commits == 0)
        clock.advance(by: .milliseconds(1))
        _ = storage.commitIfDue()
        #expect(storage.commits == 1 && storage.committed == 2)
        storage.append(Self.event(3, .pause(PauseReport(reason: .stationary, position: nil, since: nil))))
        _ = storage.commitIfDue()
        #expect(storage.commits == 2 && storage.committed == 3)
    }

    /// Every event alone: one transaction each, the window's state with the last of them.
    @Test func everyEventAlone() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let storage = try Self.storage(directory, interval: .zero, clock: clock)
        for seq in UInt64(1)...5 { storage.append(Self.event(seq)) }
        storage.windowOpened(at: 3)
        _ = storage.commitIfDue()
        #expect(storage.commits == 5)
        var state = try storage.spool.load()
        #expect(state.lastSeq == 5 && state.windowStart == 3)
        storage.release(through: 5, closingWindow: true)
        _ = storage.close()
        state = try storage.spool.load()
        #expect(state.windowStart == nil)
    }

    /// A commit the spool refuses (here a `seq` it holds already): the events stay in memory, the failure is
    /// reported once, and the next try waits 5 s rather than spinning.
    @Test func aRefusedCommitIsKeptReportedOnceAndRetriedLater() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let storage = try Self.storage(directory, interval: .seconds(1), clock: clock)
        storage.append(Self.event(1))
        clock.advance(by: .seconds(1))
        _ = storage.commitIfDue()
        storage.append(Self.event(1))
        storage.append(Self.event(2))
        clock.advance(by: .seconds(1))
        let reports = storage.commitIfDue()
        #expect(reports.map(\.code) == [.spoolUnavailable])
        #expect(storage.nextDeadline == clock.read() + .seconds(5))
        clock.advance(by: .seconds(5))
        #expect(storage.commitIfDue().isEmpty, "reported once")
        #expect(storage.committed == 1)
    }
}
