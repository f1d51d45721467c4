import Foundation
import Logging
import Synchronization
import Testing
import WaymarkCore
import WaymarkGPSD
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

    /// A commit waits for `commit_interval`, or goes with an input that comes up to ``CommitSchedule/earlyCommit``
    /// before it, never later (the loop wakes for it alone at its deadline); a pause goes at once.
    @Test func groupCommitWaitsForTheIntervalButNotForAPause() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let storage = try Self.storage(directory, interval: .seconds(1), clock: clock)
        let start = clock.read()
        #expect(storage.nextDeadline == nil)
        storage.append(Self.event(1))
        storage.append(Self.event(2))
        #expect(storage.commitIfDue().isEmpty && storage.commits == 0)
        #expect(storage.nextDeadline == start + .seconds(1))
        clock.advance(by: .milliseconds(949))
        #expect(storage.commitIfDue().isEmpty && storage.commits == 0)
        clock.advance(by: .milliseconds(1))
        _ = storage.commitIfDue()
        #expect(storage.commits == 1 && storage.committed == 2)
        #expect(storage.nextDeadline == nil)
        storage.append(Self.event(3, .pause(PauseReport(reason: .stationary, position: nil, since: nil))))
        _ = storage.commitIfDue()
        #expect(storage.commits == 2 && storage.committed == 3)
    }

    /// The odometer alone (a parked agent whose filter holds every fix) is committed within `commit_interval`; a
    /// `waymark odometer set` request is removed by the commit that saves it, not before, and not when a newer
    /// request replaced it meanwhile.
    @Test func theOdometerIsCommittedAndItsRequestRemovedAfter() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let storage = try Self.storage(directory, interval: .seconds(1), clock: clock)
        let request = OdometerRequest(stateDirectory: directory.path)
        try request.write(metres: 5000)
        storage.saveOdometer(5000, asked: request)
        #expect(storage.nextDeadline == clock.read() + .seconds(1))
        #expect(request.read() == 5000)
        clock.advance(by: .seconds(1))
        _ = storage.commitIfDue()
        #expect(try storage.spool.load().odometer == 5000)
        #expect(request.read() == nil)

        try request.write(metres: 7000)
        storage.saveOdometer(7000, asked: request)
        try request.write(metres: 8000)
        clock.advance(by: .seconds(1))
        _ = storage.commitIfDue()
        #expect(try storage.spool.load().odometer == 7000)
        #expect(request.read() == 8000)
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

    /// A core over `storage` that drove the first `seconds` of the Regensburg drive, and the time of its last fix.
    static func drive(
        seconds: Int64,
        storage: Storage,
        configuration: Configuration
    ) throws -> (core: AgentCore, lastTime: Timestamp?) {
        var core = AgentCore(
            configuration: configuration,
            clockFloor: nil,
            storage: storage,
            sink: DiscardingSink(),
            logger: Logger(label: "test")
        )
        let replay = try Replay.open(contentsOf: Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk"))
        var lastTime: Timestamp?
        while let update = replay.next() {
            core.process(update)
            core.commit(now: update.monotonic, wallClock: update.wallClock)
            if case .location(let fix) = update.event { lastTime = fix.time }
            if let lastTime, lastTime.seconds - 1_890_320_264 > seconds { break }
        }
        return (core, lastTime)
    }

    /// A power cut in the middle of a trip: the next start reports the trip as far as it was saved, with
    /// reason `interrupted`, once.
    @Test func aTripCutByAPowerLossIsReportedAtTheNextStart() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let logger = Logger(label: "test")
        var configuration = Configuration()
        // Never the board's gazetteer, which an installed package brings.
        configuration.places.file = directory.appendingPathComponent("no-places.bin").path
        var lastTime: Timestamp?
        do {
            // Ten minutes into the drive, on the move; then the power goes: no finish, no close.
            let storage = try Self.storage(directory, interval: .zero, clock: clock)
            let (core, last) = try Self.drive(seconds: 600, storage: storage, configuration: configuration)
            lastTime = last
            #expect(core.pipeline.activity.isOnTrip)
        }
        let storage = try Self.storage(directory, interval: .zero, clock: clock)
        var trip = try #require(storage.recovered.openTrip)
        #expect(trip.endReason == .interrupted && trip.distance > 1_000)
        // The odometer last committed, from 0, to its `odometer_m`: the trip's saved distance and at most the
        // minute driven since it was saved (under 2 km at the drive's 29 m/s at most).
        let odometer = try #require(storage.recovered.odometer)
        #expect(odometer >= trip.distance && odometer < trip.distance + 60 * 29, "\(odometer) m, trip \(trip.distance)")
        trip.odometer = odometer
        #expect(trip.end.seconds > (lastTime?.seconds ?? 0) - 61, "saved at most a minute before the cut")
        let printed = Collector()
        var core = AgentCore(
            configuration: configuration,
            clockFloor: nil,
            storage: storage,
            sink: printed,
            logger: logger
        )
        core.start(reports: [], at: Timestamp(seconds: 0), now: clock.read())
        // Dated by its own end, it goes on at once: it does not wait for a fix to date it.
        let trips = printed.events.withLock { $0 }.filter { $0.type == "trip" }
        #expect(trips.count == 1 && trips.first?.kind == .trip(trip) && trips.first?.time == trip.end)
        core.finish(now: clock.read(), wallClock: Timestamp(seconds: 0))
        #expect(try storage.spool.load().openTrip == nil, "reported once")
    }

    /// The odometer is kept outside the spool at each trip's end: a spool set aside (here: removed) does not take it.
    @Test func theOdometerOutlivesTheSpool() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let logger = Logger(label: "test")
        var configuration = Configuration()
        configuration.places.enabled = false  // never the board's gazetteer
        do {
            // Five minutes of the drive, then a clean stop: the trip ends.
            let storage = try Self.storage(directory, interval: .seconds(1), clock: clock)
            var (core, _) = try Self.drive(seconds: 300, storage: storage, configuration: configuration)
            core.finish(now: clock.read(), wallClock: Timestamp(seconds: 0))
        }
        let kept = OdometerFile(stateDirectory: directory.path, name: "odometer").read()
        #expect(kept.map { $0 > 1_000 } == true, "\(String(describing: kept))")
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(Spool.fileName + suffix))
        }
        let fresh = try Self.storage(directory, interval: .seconds(1), clock: clock)
        #expect(fresh.recovered.odometer == nil)
        let core = AgentCore(
            configuration: configuration,
            clockFloor: nil,
            storage: fresh,
            sink: DiscardingSink(),
            logger: logger
        )
        #expect(core.pipeline.activity.odometer == kept)
    }

    /// Without a fix, the first events wait; the core's own deadline lets them go after the longest wait,
    /// with the system time raised to the floor, in order and numbered from 1.
    @Test func eventsWaitingForAFixGoOnAtTheCoresDeadline() {
        let printed = Collector()
        let floor = Timestamp(iso8601: "2026-11-24T00:00:00Z")!
        var configuration = Configuration()
        configuration.places.enabled = false  // never the board's gazetteer
        var core = AgentCore(
            configuration: configuration,
            clockFloor: floor,
            sink: printed,
            logger: Logger(label: "test")
        )
        let boot = Timestamp(seconds: 30)
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        core.start(reports: [], at: boot, now: start)
        core.process(
            SourceUpdate(
                .unavailable(server: "127.0.0.1:2947", reason: "refused", retryIn: .seconds(1)),
                monotonic: start,
                wallClock: boot
            )
        )
        #expect(printed.events.withLock { $0 }.isEmpty)
        #expect(core.nextDeadline == start + UntimedEvents.longestWait)
        let deadline = start + UntimedEvents.longestWait
        core.advance(to: deadline, wallClock: boot.advanced(by: UntimedEvents.longestWait))
        let events = printed.events.withLock { $0 }
        #expect(events.map(\.type) == ["error", "status"])
        #expect(events.map(\.seq) == [1, 2])
        #expect(events.allSatisfy { $0.time == floor })
        #expect(core.nextDeadline.map { $0 > deadline } ?? true, "the wait's deadline is gone")
    }

    final class Collector: EventSink {
        let events = Mutex<[Event]>([])
        var wantsLines: Bool { false }
        func deliver(_ events: [Event], lines: [[UInt8]]) { self.events.withLock { $0 += events } }
        func flush() {}
    }
}
