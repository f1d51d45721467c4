import Foundation
import Logging
import Synchronization
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport
import WaymarkUplink

@testable import WaymarkAgent

/// A paced sink's worker (OwnTracks' `drain_rate`) over a real spool, on its own thread: the backlog goes at the
/// pace, and locations released while it waits go ahead of it, once each.
@Suite struct UplinkWorkerPaceTests {
    /// A server that confirms everything, paced at `rate`; it records what came in order, in or ahead of the backlog.
    final class PacedTransport: UplinkTransport, @unchecked Sendable {
        let name = "owntracks"
        let pace: DrainPace?
        private let log = Mutex<[(seq: UInt64, ahead: Bool, at: ContinuousClock.Instant)]>([])

        init(rate: Int) { pace = DrainPace(rate: rate) }

        var sent: [(seq: UInt64, ahead: Bool, at: ContinuousClock.Instant)] { log.withLock { $0 } }

        func skippable(_ events: ArraySlice<StoredEvent>) -> Int { 0 }

        func send(_ events: ArraySlice<StoredEvent>, wallClock: Timestamp) -> UplinkAttempt {
            let now = ContinuousClock.now
            log.withLock { log in log += events.map { ($0.seq, false, now) } }
            return UplinkAttempt(sent: events.count, answer: .confirmed, wireBytes: 0)
        }

        func sendAhead(_ locations: [StoredEvent], in spool: Spool, wallClock: Timestamp) -> UplinkAttempt {
            let now = ContinuousClock.now
            log.withLock { log in log += locations.map { ($0.seq, true, now) } }
            return UplinkAttempt(sent: locations.count, answer: .confirmed, wireBytes: 0)
        }

        func cancel() {}
    }

    @Test("a backlog of 300 at 100 a second takes 2 s; locations released meanwhile go ahead of it, each once")
    func backlogAtThePaceWithTheNewestAhead() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = try UplinkWorkerTests.spool(Array(repeating: .location, count: 300), in: directory)
        let transport = PacedTransport(rate: 100)
        let worker = UplinkWorker(
            transport: transport,
            spool: spool,
            cursor: 0,
            settings: DeliveryPolicy.Settings(retryMin: .milliseconds(1), retryMax: .milliseconds(5)),
            logger: Logger(label: "test"),
            wake: {}
        )
        let started = ContinuousClock.now
        worker.start()
        defer { worker.stop() }
        worker.release(through: 300)
        try UplinkWorkerTests.eventually("the first second's worth") { transport.sent.count >= 100 }
        // While the backlog waits: a live location, then a status (not a location: it keeps its place), then
        // another location.
        for (seq, kind) in [(301, StoredEvent.Kind.location), (302, .status), (303, .location)] {
            var commit = SpoolCommit()
            commit.events = [StoredEvent(seq: UInt64(seq), kind: kind, time: Timestamp(seconds: 0), line: [])]
            try spool.commit(commit)
            worker.release(through: UInt64(seq))
            usleep(150_000)
        }
        try UplinkWorkerTests.eventually("the whole backlog") { worker.current.cursor == 303 }
        let sent = transport.sent
        // Every event once; the live locations ahead, long before the backlog's end; the status in its place.
        #expect(sent.map(\.seq).sorted() == Array(1...303))
        #expect(sent.filter(\.ahead).map(\.seq) == [301, 303])
        let aheadAt = try #require(sent.firstIndex { $0.ahead })
        #expect(aheadAt < 300, "the first live location went after \(aheadAt) of the backlog, at its end")
        #expect(sent.last?.seq == 302)
        // 303 messages at 100 a second, the first 100 at once: about 2 s, never less (a loaded machine may take
        // longer, which the pace does not bound).
        let seconds = (try #require(sent.last?.at) - started) / .seconds(1)
        #expect(seconds > 1.8, "\(seconds) s")
    }
}
