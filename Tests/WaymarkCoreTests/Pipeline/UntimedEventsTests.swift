import Testing
import WaymarkCore

/// The first events wait for a clock the agent can trust (docs/architecture.md, "Clocks").
@Suite struct UntimedEventsTests {
    /// A board without a real-time clock: the system clock says 1970.
    static let bootClock = Timestamp(seconds: 20)
    /// The last time the spool recorded.
    static let floor = Timestamp(iso8601: "2026-11-23T18:00:00Z")!
    /// GPS time is this much behind the monotonic clock: monotonic 0 is 2026-11-24T07:00:00Z.
    static let delay = Duration.nanoseconds(-Timestamp(iso8601: "2026-11-24T07:00:00Z")!.nanosecondsSince1970)

    static func at(_ seconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: seconds * 1_000_000_000) }

    /// An event made `seconds` after boot, stamped by the boot clock.
    static func status(_ seconds: Int64) -> Event {
        Event(time: bootClock.advanced(by: .seconds(seconds)), kind: .status(Status(gpsd: .connected)))
    }

    enum Step: Sendable {
        /// Events made at this second, and the clock then.
        case admit([Int64], at: Int64, EventClock)
        case stop
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let floor: Timestamp?
        let steps: [Step]
        /// The times of the events each step lets go on.
        let released: [[String]]
    }

    static let scenarios: [Scenario] = [
        Scenario(
            testDescription: "the first fix dates the waiting events back along the monotonic clock",
            floor: floor,
            steps: [
                .admit([1], at: 1, .unknown), .admit([2], at: 2, .unknown), .admit([30], at: 30, .unknown),
                .admit([31], at: 31, .gps(delay: delay)),
            ],
            released: [
                [], [], [],
                [
                    "2026-11-24T07:00:01.000Z", "2026-11-24T07:00:02.000Z", "2026-11-24T07:00:30.000Z",
                    "1970-01-01T00:00:51.000Z",
                ],
            ]
        ),
        Scenario(
            testDescription: "no fix within the longest wait: released then, never before the floor",
            floor: floor,
            steps: [
                .admit([3], at: 3, .unknown), .admit([], at: 122, .unknown), .admit([], at: 123, .unknown),
                .admit([130], at: 130, .unknown),
            ],
            released: [[], [], ["2026-11-23T18:00:00.000Z"], ["2026-11-23T18:00:00.000Z"]]
        ),
        Scenario(
            testDescription: "a replay sets no floor: the recording's clock is kept",
            floor: nil,
            steps: [.admit([3], at: 3, .unknown), .admit([200], at: 200, .unknown)],
            released: [[], ["1970-01-01T00:00:23.000Z", "1970-01-01T00:03:40.000Z"]]
        ),
        Scenario(
            testDescription: "a stop before any fix releases what waits, floored",
            floor: floor,
            steps: [.admit([1, 4], at: 4, .unknown), .stop, .stop],
            released: [[], ["2026-11-23T18:00:00.000Z", "2026-11-23T18:00:00.000Z"], []]
        ),
        Scenario(
            testDescription: "once released, events are never held again",
            floor: floor,
            steps: [.admit([1], at: 1, .gps(delay: delay)), .admit([2], at: 2, .unknown)],
            released: [["1970-01-01T00:00:21.000Z"], ["2026-11-23T18:00:00.000Z"]]
        ),
    ]

    @Test(arguments: scenarios)
    func releases(_ scenario: Scenario) {
        var untimed = UntimedEvents(floor: scenario.floor)
        let released = scenario.steps.map { step -> [String] in
            switch step {
            case .admit(let made, let now, let clock):
                untimed.admit(made.map(Self.status), at: Self.at(now), clock: clock).map(\.time.iso8601)
            case .stop:
                untimed.release().map(\.time.iso8601)
            }
        }
        #expect(released == scenario.released)
    }

    @Test func theDeadlineIsTheLongestWaitAfterTheFirstWaitingEvent() {
        var untimed = UntimedEvents(floor: Self.floor)
        #expect(untimed.deadline == nil)
        _ = untimed.admit([Self.status(7)], at: Self.at(7), clock: .unknown)
        _ = untimed.admit([Self.status(9)], at: Self.at(9), clock: .unknown)
        #expect(untimed.deadline == Self.at(7) + UntimedEvents.longestWait)
        _ = untimed.admit([], at: Self.at(10), clock: .gps(delay: Self.delay))
        #expect(untimed.deadline == nil)
        #expect(!untimed.isWaiting)
    }
}

/// The time of events not derived from a fix (``EventPipeline/eventTime(at:wallClock:)``).
@Suite struct EventTimeTests {
    static let server = "localhost:2947"
    /// The system clock at boot on a board without a real-time clock.
    static let bootClock = Timestamp(seconds: 20)
    static let gpsTime = Timestamp(iso8601: "2026-11-24T07:00:10Z")!

    static func update(_ event: SourceEvent, at seconds: Int64, synchronized: Bool = false) -> SourceUpdate {
        SourceUpdate(
            event,
            monotonic: MonotonicInstant(nanoseconds: seconds * 1_000_000_000),
            wallClock: bootClock.advanced(by: .seconds(seconds)),
            wallClockSynchronized: synchronized
        )
    }

    static func fix(at seconds: Int64, gps: Timestamp) -> SourceUpdate {
        update(.location(Location(time: gps, latitude: 49.0123, longitude: 12.0987, mode: .threeD)), at: seconds)
    }

    @Test func beforeTheFirstFixItIsTheSystemClock() {
        var pipeline = EventPipeline()
        let events = pipeline.handle(Self.update(.connected(server: Self.server, release: "3.25"), at: 5))
        #expect(events.map(\.time) == [Self.bootClock.advanced(by: .seconds(5))])
        #expect(pipeline.gpsClockDelay == nil)
    }

    @Test func afterAFixItIsGPSTimeCarriedOnTheMonotonicClock() {
        var pipeline = EventPipeline()
        _ = pipeline.handle(Self.update(.connected(server: Self.server, release: "3.25"), at: 5))
        // The fix of 07:00:10 arrives at second 10, half a second late.
        _ = pipeline.handle(Self.fix(at: 10, gps: Self.gpsTime.advanced(by: .milliseconds(-500))))
        #expect(
            pipeline.eventTime(at: MonotonicInstant(nanoseconds: 70_000_000_000), wallClock: Self.bootClock)
                == Timestamp(iso8601: "2026-11-24T07:01:09.500Z")!
        )
        // gpsd goes away at second 40 and comes back: the receiver's time base stays.
        let lost = pipeline.handle(
            Self.update(.unavailable(server: Self.server, reason: "connection refused", retryIn: .seconds(2)), at: 40)
        )
        _ = pipeline.handle(Self.update(.connected(server: Self.server, release: "3.25"), at: 45))
        #expect(lost.map(\.time.iso8601).allSatisfy { $0 == "2026-11-24T07:00:39.500Z" })
        #expect(
            pipeline.eventTime(at: MonotonicInstant(nanoseconds: 46_000_000_000), wallClock: Self.bootClock)
                == Timestamp(iso8601: "2026-11-24T07:00:45.500Z")!
        )
    }

    @Test func itFollowsTheTimeliestFix() {
        var pipeline = EventPipeline()
        // The first fix arrives late (gpsd held it); the next, 0.9 s quicker, becomes the reference.
        _ = pipeline.handle(Self.fix(at: 10, gps: Self.gpsTime))
        _ = pipeline.handle(Self.fix(at: 11, gps: Self.gpsTime.advanced(by: .milliseconds(1_900))))
        #expect(
            pipeline.eventTime(at: MonotonicInstant(nanoseconds: 21_000_000_000), wallClock: Self.bootClock)
                == Self.gpsTime.advanced(by: .milliseconds(11_900))
        )
    }
}
