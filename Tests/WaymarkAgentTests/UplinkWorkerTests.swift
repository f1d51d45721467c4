import Foundation
import Logging
import Synchronization
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport
import WaymarkUplink

@testable import WaymarkAgent

/// A network sink's worker on its own thread, over a real spool, with a transport whose server's answers the test
/// writes and a system clock the test sets: the cursor it publishes, what it sends, in which order.
@Suite struct UplinkWorkerTests {
    /// A server that answers each event as `answer` says; each request costs 300 bytes.
    final class ScriptedTransport: UplinkTransport, @unchecked Sendable {
        let name = "traccar"
        private let state = Mutex<(sent: [UInt64], calls: Int)>(([], 0))
        let answer: @Sendable (StoredEvent) -> DeliveryPolicy.Answer

        init(answer: @escaping @Sendable (StoredEvent) -> DeliveryPolicy.Answer = { _ in .confirmed }) {
            self.answer = answer
        }

        var sent: [UInt64] { state.withLock { $0.sent } }
        var calls: Int { state.withLock { $0.calls } }

        /// Headings: Traccar keeps nothing of them.
        func skippable(_ events: ArraySlice<StoredEvent>) -> Int {
            state.withLock { $0.calls += 1 }
            return events.prefix { $0.kind == .heading }.count
        }

        func send(_ events: ArraySlice<StoredEvent>, wallClock: Timestamp) -> UplinkAttempt {
            let event = events[events.startIndex]
            let answer = answer(event)
            state.withLock { state in
                state.calls += 1
                if answer == .confirmed { state.sent.append(event.seq) }
            }
            return UplinkAttempt(sent: 1, answer: answer, wireBytes: 300)
        }

        func cancel() {}
    }

    /// A spool in a temporary directory holding `kinds` as events 1, 2, …
    static func spool(_ kinds: [StoredEvent.Kind], in directory: URL) throws -> Spool {
        let (spool, _) = try Spool.open(inDirectory: directory.path, now: Timestamp(seconds: 0))
        var commit = SpoolCommit()
        commit.events = kinds.enumerated().map { index, kind in
            StoredEvent(seq: UInt64(index + 1), kind: kind, time: Timestamp(seconds: 0), line: Array("{}".utf8))
        }
        try spool.commit(commit)
        return spool
    }

    /// Waits until `condition` holds, at most 10 s.
    static func eventually(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { throw TestServerError("\(what) did not happen within 10 s") }
            usleep(5_000)
        }
    }

    static let noon = Timestamp(seconds: 20_000 * 86_400 + 43_200)

    /// The system clock as the test sets it.
    final class WallClock: Sendable {
        let now = Mutex(UplinkWorkerTests.noon)
    }

    static func worker(
        _ transport: ScriptedTransport,
        _ spool: Spool,
        budget: Int64? = nil,
        wallClock: WallClock? = nil
    ) -> UplinkWorker {
        let wall = wallClock
        return UplinkWorker(
            transport: transport,
            spool: spool,
            cursor: 0,
            settings: DeliveryPolicy.Settings(retryMin: .milliseconds(1), retryMax: .milliseconds(5)),
            maxBytesPerDay: budget,
            wallClock: { wall?.now.withLock { $0 } ?? noon },
            logger: Logger(label: "test"),
            wake: {}
        )
    }

    @Test("over the budget locations wait and the others go past them; at midnight the locations go, nothing twice")
    func budgetHoldsLocationsUntilMidnight() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kinds: [StoredEvent.Kind] = [.location, .location, .location, .location, .pause, .location, .status]
        let spool = try Self.spool(kinds, in: directory)
        let transport = ScriptedTransport()
        let clock = WallClock()
        let worker = Self.worker(transport, spool, budget: 1000, wallClock: clock)
        worker.start()
        defer { worker.stop() }
        worker.release(through: 7)
        // 4 × 300 bytes spend the 1,000; the pause and the status go past the held location 6.
        try Self.eventually("the events past the held location") { transport.sent.count == 6 }
        #expect(transport.sent == [1, 2, 3, 4, 5, 7])
        #expect(worker.current.overBudget != nil)
        // The cursor waits before the held location, however long.
        usleep(50_000)
        #expect(worker.takeProgress().cursor == 5)
        #expect(transport.sent.count == 6)
        // After midnight (the worker's own wake-up at midnight is on the monotonic clock, hours away here), a new
        // location: a whole budget, the held location first.
        clock.now.withLock { $0 = Self.noon.advanced(by: .seconds(43_200)) }
        var commit = SpoolCommit()
        commit.events = [StoredEvent(seq: 8, kind: .location, time: Timestamp(seconds: 0), line: Array("{}".utf8))]
        try spool.commit(commit)
        worker.release(through: 8)
        try Self.eventually("the held location") { worker.current.cursor == 8 }
        #expect(transport.sent == [1, 2, 3, 4, 5, 7, 6, 8])
        #expect(worker.current.overBudget == nil)
    }

    @Test("over the budget with no location waiting, everything goes: no busy loop")
    func budgetWithoutLocations() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = try Self.spool([.location, .location, .location, .location, .pause, .trip, .status], in: directory)
        let transport = ScriptedTransport()
        let worker = Self.worker(transport, spool, budget: 1000)
        worker.start()
        defer { worker.stop() }
        worker.release(through: 7)
        try Self.eventually("every event") { worker.current.cursor == 7 }
        let calls = transport.calls
        usleep(100_000)
        #expect(transport.calls == calls, "the worker kept calling its transport with nothing to send")
    }

    @Test("refusals in a row are of the settings: taken back, nothing quarantined, the cursor never past them")
    func refusalsInARowAreTakenBack() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = try Self.spool(Array(repeating: .location, count: 6), in: directory)
        let accepting = Mutex(false)
        let transport = ScriptedTransport { _ in
            accepting.withLock { $0 } ? .confirmed : .refused(status: 400, answer: "Unknown device")
        }
        let worker = Self.worker(transport, spool)
        worker.start()
        defer { worker.stop() }
        worker.release(through: 6)
        try Self.eventually("the refusal of the settings") { worker.current.refusal != nil }
        var progress = worker.takeProgress()
        #expect(progress.cursor == 0 && progress.quarantined.isEmpty)
        // The device is registered: everything goes, from the first.
        accepting.withLock { $0 = true }
        try Self.eventually("every event") { worker.current.cursor == 6 }
        #expect(transport.sent == [1, 2, 3, 4, 5, 6])
        progress = worker.takeProgress()
        #expect(progress.cursor == 6 && progress.quarantined.isEmpty && worker.current.refusal == nil)
    }

    @Test("one refused event is quarantined at the next confirmation; the last refused, with nothing after, waits")
    func oneRefusalIsQuarantined() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A heading (skipped) after the refused event, and a gap: nothing the worker may spin on.
        let spool = try Self.spool([.location, .location, .location, .heading], in: directory)
        let transport = ScriptedTransport { $0.seq == 2 ? .refused(status: 422, answer: "no") : .confirmed }
        let worker = Self.worker(transport, spool)
        worker.start()
        defer { worker.stop() }
        worker.release(through: 6)
        try Self.eventually("the events") { worker.current.cursor == 6 }
        let progress = worker.takeProgress()
        #expect(progress.quarantined.map { $0.event.seq } == [2])
        #expect(transport.sent == [1, 3])
        let calls = transport.calls
        usleep(100_000)
        #expect(transport.calls == calls)
    }
}
