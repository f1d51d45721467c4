import Testing
import WaymarkCore

@testable import WaymarkAgent

/// When a board publishes its status, as a pure schedule with explicit instants: at a connection at once, after a
/// change an operator acts on once `status_interval` passed, after a change of the moving figures only once
/// `status_refresh` passed, and never for nothing.
@Suite struct FleetStatusScheduleTests {
    static func at(_ seconds: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64(seconds) * 1_000_000_000) }

    static let base = FleetStatus(
        device: "bus-1",
        version: "0.1.0",
        configDigest: "c0ff",
        regionCount: 2,
        regionsDigest: "ee"
    )

    /// What happens at each second: a connection (`c`), a loss (`l`), a status offered (its variant); and the
    /// seconds at which a status goes, with status_interval 60 s and status_refresh 600 s.
    enum Step {
        case connect
        case lose
        case offer(Variant)
    }

    enum Variant {
        case base
        case alarm
        case fix(Int)
        case error(String, Int)
        case paused

        var status: FleetStatus {
            var status = FleetStatusScheduleTests.base
            switch self {
            case .base: break
            case .alarm:
                status.alarms = [
                    .init(code: "region_file_rejected", id: "/r.json", message: "bad", since: Timestamp(seconds: 5))
                ]
            case .fix(let second):
                status.lastFix = .init(time: Timestamp(seconds: Int64(second)), horizontalAccuracy: 4)
                status.fixMode = 3
            case .error(let code, let second):
                status.lastError = .init(code: code, message: "at \(second)", time: Timestamp(seconds: Int64(second)))
            case .paused:
                status.activity = "paused"
            }
            return status
        }
    }

    static let cases: [(name: String, steps: [(Int, Step)], publishedAt: [Int])] = [
        ("nothing before a connection", [(0, .offer(.base)), (30, .offer(.alarm))], []),
        ("at the connection at once, then nothing while nothing changes", [(0, .offer(.base)), (1, .connect)], [1]),
        ("a connection before any status waits for the first", [(0, .connect), (5, .offer(.base))], [5]),
        (
            "an alarm 10 s after a publication waits for status_interval",
            [
                (0, .offer(.base)), (0, .connect), (10, .offer(.alarm)),
            ], [0, 60]
        ),
        (
            "an alarm after status_interval goes at once", [(0, .offer(.base)), (0, .connect), (90, .offer(.alarm))],
            [0, 90]
        ),
        (
            "fixes only: once status_refresh passed",
            [
                (0, .offer(.base)), (0, .connect), (1, .offer(.fix(1))), (2, .offer(.fix(2))), (300, .offer(.fix(300))),
            ], [0, 600]
        ),
        (
            "an error repeated with a new time is a moving figure",
            [
                (0, .offer(.error("gpsd_unavailable", 0))), (0, .connect), (8, .offer(.error("gpsd_unavailable", 8))),
            ], [0, 600]
        ),
        (
            "a new error's code is news",
            [
                (0, .offer(.error("gpsd_unavailable", 0))), (0, .connect), (8, .offer(.error("no_device", 8))),
            ], [0, 60]
        ),
        (
            "a reconnection publishes again at once, whatever the interval",
            [
                (0, .offer(.base)), (0, .connect), (5, .lose), (6, .connect),
            ], [0, 6]
        ),
        (
            "a change while disconnected goes at the reconnection",
            [
                (0, .offer(.base)), (0, .connect), (100, .lose), (110, .offer(.paused)), (200, .connect),
            ], [0, 200]
        ),
        (
            "back to what was published: nothing to send",
            [
                (0, .offer(.base)), (0, .connect), (10, .offer(.alarm)), (20, .offer(.base)),
            ], [0]
        ),
    ]

    @Test(arguments: cases.indices)
    func publishesWhenItShould(_ index: Int) {
        let example = Self.cases[index]
        var schedule = FleetStatusSchedule(minimumInterval: .seconds(60), refresh: .seconds(600))
        var published: [Int] = []
        for second in 0...1000 {
            for (time, step) in example.steps where time == second {
                switch step {
                case .connect: schedule.connected(at: Self.at(second))
                case .lose: schedule.disconnected()
                case .offer(let variant): schedule.offer(variant.status)
                }
            }
            while case .publish(let status) = schedule.next(at: Self.at(second)) {
                published.append(second)
                schedule.published(status, at: Self.at(second))
            }
        }
        #expect(published == example.publishedAt, "\(example.name)")
    }

    @Test func aWaitNamesTheInstantOfTheNextPublication() {
        var schedule = FleetStatusSchedule(minimumInterval: .seconds(60), refresh: .seconds(600))
        schedule.offer(Variant.base.status)
        schedule.connected(at: Self.at(0))
        guard case .publish(let first) = schedule.next(at: Self.at(0)) else {
            Issue.record("no publication at the connection")
            return
        }
        schedule.published(first, at: Self.at(0))
        #expect(schedule.next(at: Self.at(1)) == .wait(until: nil))
        schedule.offer(Variant.alarm.status)
        #expect(schedule.next(at: Self.at(10)) == .wait(until: Self.at(60)))
        schedule.offer(Variant.fix(20).status)
        #expect(schedule.next(at: Self.at(20)) == .wait(until: Self.at(600)))
    }

    @Test func zeroRefreshSendsTheMovingFiguresOnlyWithAnotherChange() {
        var schedule = FleetStatusSchedule(minimumInterval: .seconds(60), refresh: .zero)
        schedule.offer(Variant.base.status)
        schedule.connected(at: Self.at(0))
        if case .publish(let status) = schedule.next(at: Self.at(0)) { schedule.published(status, at: Self.at(0)) }
        schedule.offer(Variant.fix(5).status)
        #expect(schedule.next(at: Self.at(100_000)) == .wait(until: nil))
    }
}
