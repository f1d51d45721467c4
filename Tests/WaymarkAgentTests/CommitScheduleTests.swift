import Testing
import WaymarkCore

@testable import WaymarkAgent

/// The spool's commit cadence as a pure schedule, with explicit instants: what waits goes `commit_interval` after
/// the first of it, an urgent event at once, and the input at hand carries the commit when it comes up to
/// ``CommitSchedule/early`` before the deadline.
@Suite struct CommitScheduleTests {
    static func at(_ milliseconds: Int) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Int64(milliseconds) * 1_000_000)
    }

    /// When events come and when other inputs wake the loop (a `SKY`, a beacon batch), in ms after the first event
    /// (its deadline is at 1,000), and when the commit goes: with a fast receiver the last input before the
    /// deadline carries it; with fixes at 1 Hz only one within ``CommitSchedule/earlyCommit`` of it does, whatever
    /// else comes in between.
    static let cadences: [(name: String, events: [Int], others: [Int], commitsAt: Int)] = [
        ("5 Hz", [0, 200, 400, 600, 800, 1000], [], 800),
        ("10x paced: a SKY 10 ms before each fix", [0, 200, 400, 600, 800, 1000], [190, 390, 590, 790, 990], 800),
        ("1 Hz, a SKY 200 ms before the fix", [0, 1000], [800], 1000),
        ("1 Hz, the fix 40 ms early", [0, 960], [], 960),
        ("1 Hz, beacon batches every 250 ms", [0, 1000], [250, 500, 750], 1000),
        ("2 Hz", [0, 500, 1000], [], 1000),
        ("4 Hz, gaps of a quarter", [0, 250, 500, 750, 1000], [], 750),
        ("a gap of 300 ms among fast ones", [0, 100, 400, 500, 600, 700, 800, 900], [920], 1000),
    ]

    @Test(arguments: cadences.indices)
    func aFastReceiversLastInputBeforeTheDeadlineCarriesTheCommit(_ index: Int) {
        let cadence = Self.cadences[index]
        var schedule = CommitSchedule(interval: .seconds(1))
        var committedAt: Int?
        for time in Set(cadence.events + cadence.others + [1000]).sorted() {
            if cadence.events.contains(time) { schedule.eventWaits(at: Self.at(time), urgent: false) }
            if committedAt == nil && schedule.isDue(at: Self.at(time)) {
                committedAt = time
                schedule.taken()
            }
        }
        #expect(committedAt == cadence.commitsAt, "\(cadence.name)")
    }

    @Test("the deadline: none while nothing waits, the interval after the first, at once for an urgent event")
    func deadline() {
        var schedule = CommitSchedule(interval: .seconds(5))
        #expect(schedule.deadline == nil && !schedule.isDue(at: Self.at(100_000)))
        schedule.somethingWaits(at: Self.at(1000))
        schedule.eventWaits(at: Self.at(2000), urgent: false)
        #expect(schedule.deadline == Self.at(6000))
        #expect(!schedule.isDue(at: Self.at(5949)) && schedule.isDue(at: Self.at(5950)))
        schedule.eventWaits(at: Self.at(3000), urgent: true)
        #expect(schedule.deadline == Self.at(1000) && schedule.isDue(at: Self.at(3000)))
        schedule.taken()
        #expect(schedule.deadline == nil)
        schedule.eventWaits(at: Self.at(4000), urgent: false)
        #expect(schedule.deadline == Self.at(9000), "urgency ends with the commit that took it")
    }

    @Test(
        "early: the longest gap between events, at least 50 ms, at most a quarter of the interval",
        arguments: [
            (1000, [0, 200, 400], 200), (1000, [0, 1000], 50), (1000, [0, 10, 20], 50), (1000, [0, 300], 50),
            (400, [0, 90, 180], 90), (10_000, [0, 2000, 4000], 2000),
        ] as [(Int, [Int], Int)]
    )
    func early(_ interval: Int, _ events: [Int], _ expected: Int) {
        var schedule = CommitSchedule(interval: .milliseconds(interval))
        for time in events { schedule.eventWaits(at: Self.at(time), urgent: false) }
        #expect(schedule.early == .milliseconds(expected))
    }
}
