import Testing
import WaymarkCore
import WaymarkTestSupport

/// The timing side of ``GPSDSession``: how long the thread waits for gpsd, when a batch is handed over, when the
/// system clock is read again. Instants are milliseconds from an arbitrary origin; nothing waits.
@Suite struct GPSDSessionTimingTests {
    static func ms(_ milliseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: milliseconds * 1_000_000)
    }

    /// An input to a connected session, at milliseconds where it takes an instant.
    enum Step: Sendable {
        case added(at: Int64)
        case handedOver
        case watch(Bool, at: Int64)
        case peeked(lineWaiting: Bool)
        case lineRead
        case partialLineRead(at: Int64)
    }

    static func session(coalescing: Duration = .milliseconds(2), watching: Bool = true, _ steps: [Step]) -> GPSDSession
    {
        var session = GPSDSession(configuration: .init(coalescing: coalescing))
        _ = session.opened(watching: watching)
        for step in steps {
            switch step {
            case .added(let at): _ = session.updateAdded(at: ms(at))
            case .handedOver: session.handedOver()
            case .watch(let on, let at): _ = session.watchRequested(on, at: ms(at))
            case .peeked(let lineWaiting): session.peeked(lineWaiting: lineWaiting)
            case .lineRead: _ = session.lineRead(.gpsd(release: nil))
            case .partialLineRead(let at): _ = session.partialLineRead(at: ms(at), epochDeadline: nil)
            }
        }
        return session
    }

    struct Wait: Sendable, CustomTestStringConvertible {
        let testDescription: String
        var coalescing: Duration = .milliseconds(2)
        var watching = true
        let steps: [Step]
        let at: Int64
        var epochDeadline: Int64?
        let expected: GPSDSession.WaitAction
    }

    static func poll(peek: Bool, _ timeout: Duration?) -> GPSDSession.WaitAction {
        .poll(.init(peekFirst: peek, timeout: timeout))
    }
    static let sleep = GPSDSession.WaitAction.sleep(.seconds(30), then: .init(peekFirst: true, timeout: .zero))

    static let waits: [Wait] = [
        .init(
            testDescription: "idle: ask libgps, then wait without limit",
            steps: [],
            at: 0,
            expected: poll(peek: true, nil)
        ),
        .init(
            testDescription: "libgps held no line: the wait alone looks",
            steps: [.peeked(lineWaiting: false)],
            at: 0,
            expected: poll(peek: false, nil)
        ),
        .init(
            testDescription: "libgps held a line: ask it again",
            steps: [.peeked(lineWaiting: true)],
            at: 0,
            expected: poll(peek: true, nil)
        ),
        .init(
            testDescription: "a line read since libgps held none: ask it again",
            steps: [.peeked(lineWaiting: false), .lineRead],
            at: 0,
            expected: poll(peek: true, nil)
        ),
        .init(
            testDescription: "part of a line read since libgps held none: ask it again",
            steps: [.peeked(lineWaiting: false), .partialLineRead(at: 0)],
            at: 0,
            expected: poll(peek: true, nil)
        ),
        .init(
            testDescription: "an epoch pending: until its deadline",
            steps: [.peeked(lineWaiting: false)],
            at: 100,
            epochDeadline: 600,
            expected: poll(peek: false, .milliseconds(500))
        ),
        .init(
            testDescription: "an epoch overdue: no wait, ask libgps",
            steps: [.peeked(lineWaiting: false)],
            at: 700,
            epochDeadline: 600,
            expected: poll(peek: true, .zero)
        ),
        .init(
            testDescription: "a batch started: 2 ms for the rest of the burst",
            steps: [.peeked(lineWaiting: false), .added(at: 0)],
            at: 0,
            expected: poll(peek: false, .milliseconds(2))
        ),
        .init(
            testDescription: "a batch 19 ms old: the 1 ms left of its 20",
            steps: [.added(at: 0), .peeked(lineWaiting: false), .added(at: 15)],
            at: 19,
            expected: poll(peek: false, .milliseconds(1))
        ),
        .init(
            testDescription: "a batch 20 ms old: no wait",
            steps: [.added(at: 0), .peeked(lineWaiting: false)],
            at: 20,
            expected: poll(peek: true, .zero)
        ),
        .init(
            testDescription: "a batch and an earlier epoch deadline: the deadline",
            steps: [.added(at: 0), .peeked(lineWaiting: false)],
            at: 10,
            epochDeadline: 11,
            expected: poll(peek: false, .milliseconds(1))
        ),
        .init(
            testDescription: "a batch handed over: no limit again",
            steps: [.added(at: 0), .handedOver, .peeked(lineWaiting: false)],
            at: 30,
            expected: poll(peek: false, nil)
        ),
        .init(
            testDescription: "inline, a batch: no wait",
            coalescing: .zero,
            steps: [.peeked(lineWaiting: false), .added(at: 0)],
            at: 0,
            expected: poll(peek: true, .zero)
        ),
        .init(
            testDescription: "watch stopped: what gpsd already sent is read for 250 ms",
            steps: [.watch(false, at: 1000), .peeked(lineWaiting: false)],
            at: 1100,
            expected: poll(peek: false, .milliseconds(150))
        ),
        .init(
            testDescription: "watch stopped 250 ms ago, nothing pending: sleep 30 s, then look without waiting",
            steps: [.watch(false, at: 1000), .peeked(lineWaiting: false)],
            at: 1250,
            expected: sleep
        ),
        .init(
            testDescription: "a second stop does not extend the drain",
            steps: [.watch(false, at: 1000), .watch(false, at: 1200)],
            at: 1300,
            expected: sleep
        ),
        .init(
            testDescription: "drained, but a batch pending: no sleep",
            steps: [.watch(false, at: 1000), .peeked(lineWaiting: false), .added(at: 1240)],
            at: 1250,
            expected: poll(peek: false, .milliseconds(2))
        ),
        .init(
            testDescription: "drained, but an epoch pending: no sleep",
            steps: [.watch(false, at: 1000), .peeked(lineWaiting: false)],
            at: 1300,
            epochDeadline: 1400,
            expected: poll(peek: false, .milliseconds(100))
        ),
        .init(
            testDescription: "watching again: no sleep",
            steps: [.watch(false, at: 1000), .watch(true, at: 1100), .peeked(lineWaiting: false)],
            at: 5000,
            expected: poll(peek: false, nil)
        ),
        .init(
            testDescription: "connected while paused: sleep at once",
            watching: false,
            steps: [],
            at: 0,
            expected: sleep
        ),
    ]

    @Test(arguments: waits)
    func nextWait(_ row: Wait) {
        let session = Self.session(coalescing: row.coalescing, watching: row.watching, row.steps)
        #expect(session.nextWait(at: Self.ms(row.at), epochDeadline: row.epochDeadline.map(Self.ms)) == row.expected)
    }

    struct PartialLine: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let epochDeadline: Int64?
        let timeout: Duration?
    }

    static let partialLines: [PartialLine] = [
        .init(testDescription: "no epoch pending: wait for bytes without limit", epochDeadline: nil, timeout: nil),
        .init(testDescription: "an epoch pending: until its deadline", epochDeadline: 600, timeout: .milliseconds(500)),
        .init(testDescription: "an epoch overdue: no wait", epochDeadline: 50, timeout: .zero),
    ]

    @Test(arguments: partialLines)
    func partialLineRead(_ row: PartialLine) {
        var session = Self.session([])
        #expect(session.partialLineRead(at: Self.ms(100), epochDeadline: row.epochDeadline.map(Self.ms)) == row.timeout)
    }

    struct HandOver: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let steps: [Step]
        let at: Int64
        let expected: GPSDSession.BatchAction
    }

    static let handOvers: [HandOver] = [
        .init(testDescription: "nothing pending", steps: [], at: 1000, expected: .keep),
        .init(
            testDescription: "a batch just under 20 ms old",
            steps: [.added(at: 0), .added(at: 10)],
            at: 19,
            expected: .keep
        ),
        .init(
            testDescription: "a batch 20 ms old",
            steps: [.added(at: 0), .added(at: 10)],
            at: 20,
            expected: .handOver
        ),
        .init(
            testDescription: "255 updates",
            steps: Array(repeating: .added(at: 0), count: 255),
            at: 0,
            expected: .keep
        ),
        .init(
            testDescription: "256 updates",
            steps: Array(repeating: .added(at: 0), count: 256),
            at: 0,
            expected: .handOver
        ),
        .init(
            testDescription: "a batch handed over, then a new one: its age counts from its first update",
            steps: [.added(at: 0), .handedOver, .added(at: 50)],
            at: 60,
            expected: .keep
        ),
        .init(
            testDescription: "255 updates handed over, then one",
            steps: Array(repeating: .added(at: 0), count: 255) + [.handedOver, .added(at: 0)],
            at: 0,
            expected: .keep
        ),
    ]

    @Test(arguments: handOvers)
    func lineHandled(_ row: HandOver) {
        let session = Self.session(row.steps)
        #expect(session.lineHandled(at: Self.ms(row.at)) == row.expected)
    }

    @Test func theClockIsCheckedAtMostOncePerSecondAcrossConnections() {
        var session = GPSDSession()
        var actions: [GPSDSession.UpdateAction] = []
        var generator = SplitMix64(seed: 1)
        for at: Int64 in [0, 500, 999, 1000, 1500, 1999, 2000, 4000, 4001] {
            // Updates outside a connection (the thread's `unavailable`) count too.
            if at == 1500 { _ = session.opened(watching: true) }
            if at == 4000 { _ = session.closed(using: &generator) }
            actions.append(session.updateAdded(at: Self.ms(at)))
        }
        let check = GPSDSession.UpdateAction.checkClockAndAppend
        #expect(actions == [check, .append, .append, check, .append, .append, check, check, .append])
    }
}
