import Testing
import WaymarkCore
import WaymarkTestSupport

/// The connection side of ``GPSDSession``: reconnect delays, which peers are gpsd, why a connection ends, when a
/// `WATCH` is sent. Instants are milliseconds from an arbitrary origin; nothing waits.
@Suite struct GPSDSessionTests {
    static func ms(_ milliseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: milliseconds * 1_000_000)
    }

    /// One connection attempt, as the thread sees it.
    enum Attempt: Sendable {
        /// gpsd could not be reached.
        case refused
        /// The connection opened and `lines` foreign lines came, then the peer closed it.
        case foreign(lines: Int)
        /// The connection opened, gpsd spoke, then closed it.
        case gpsd
        /// The owner changed the configuration to this backoff (milliseconds).
        case reconfigured(minimum: Int64, maximum: Int64)
    }

    struct Reconnects: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let attempts: [Attempt]
        /// Milliseconds, one per attempt that ends in a wait.
        let delays: [Int64]
    }

    static let reconnects: [Reconnects] = [
        .init(
            testDescription: "unreachable: delays double from the minimum to the maximum",
            attempts: Array(repeating: .refused, count: 6),
            delays: [100, 200, 400, 800, 800, 800]
        ),
        .init(
            testDescription: "a connection where gpsd spoke starts the delays over",
            attempts: [.refused, .refused, .refused, .gpsd, .refused, .refused],
            delays: [100, 200, 400, 100, 200, 400]
        ),
        .init(
            testDescription: "connections where gpsd never spoke keep backing off",
            attempts: [.refused, .foreign(lines: 0), .foreign(lines: 3), .refused],
            delays: [100, 200, 400, 800]
        ),
        .init(
            testDescription: "a new configuration starts over from its own minimum",
            attempts: [.refused, .refused, .reconfigured(minimum: 250, maximum: 1000), .refused, .refused, .refused],
            delays: [100, 200, 250, 500, 1000]
        ),
    ]

    @Test(arguments: reconnects)
    func reconnectDelays(_ row: Reconnects) {
        var session = GPSDSession(
            configuration: .init(reconnectMinimum: .milliseconds(100), reconnectMaximum: .milliseconds(800))
        )
        // Pins the jitter at its shortest: the nominal delays.
        var generator = ConstantGenerator(word: .min)
        var delays: [Duration] = []
        for attempt in row.attempts {
            switch attempt {
            case .refused:
                break
            case .foreign(let lines):
                _ = session.opened(watching: true)
                for _ in 0..<lines { #expect(session.lineRead(.foreign) == .skip) }
                _ = session.readFailed(.closed)
            case .gpsd:
                _ = session.opened(watching: true)
                #expect(session.lineRead(.gpsd(release: "3.22")) == .announce(release: "3.22"))
                #expect(session.readFailed(.closed) == "gpsd closed the connection")
            case .reconfigured(let minimum, let maximum):
                session.reconfigure(
                    .init(reconnectMinimum: .milliseconds(minimum), reconnectMaximum: .milliseconds(maximum))
                )
                continue
            }
            delays.append(session.closed(using: &generator))
        }
        #expect(delays == row.delays.map { .milliseconds($0) })
    }

    @Test func jitterShortensTheDelayByAtMostAFifth() {
        var session = GPSDSession(configuration: .init(reconnectMinimum: .seconds(1), reconnectMaximum: .seconds(30)))
        var generator = ConstantGenerator(word: .max)
        let delay = session.closed(using: &generator)
        #expect(delay < .seconds(1) && delay >= .milliseconds(800))
    }

    struct Ending: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let lines: [GPSDSession.Line]
        /// What the session makes of each line.
        let actions: [GPSDSession.LineAction]
        /// How the read after the lines failed, nil when the last line closed the connection.
        let failure: GPSDSession.ReadFailure?
        /// Why the connection ended: the reason of the last line's `close`, or the failed read's.
        let reason: String
    }

    static let beforeGPSD = "the server closed the connection before speaking gpsd's protocol; check host and port"
    static func notGPSD(_ lines: Int) -> String {
        "the server does not speak gpsd's protocol (\(lines) lines that are not gpsd JSON); check host and port"
    }
    static let reset = "Connection reset by peer"
    static let version = GPSDSession.Line.gpsd(release: "3.22")
    static let tpv = GPSDSession.Line.gpsd(release: nil)

    static let endings: [Ending] = [
        .init(testDescription: "closed before a line", lines: [], actions: [], failure: .closed, reason: beforeGPSD),
        .init(testDescription: "an error before a line", lines: [], actions: [], failure: .error(reset), reason: reset),
        .init(
            testDescription: "closed after foreign lines",
            lines: Array(repeating: .foreign, count: 3),
            actions: Array(repeating: .skip, count: 3),
            failure: .closed,
            reason: notGPSD(3)
        ),
        .init(
            testDescription: "an error after foreign lines",
            lines: [.foreign],
            actions: [.skip],
            failure: .error(reset),
            reason: notGPSD(1)
        ),
        .init(
            testDescription: "the eighth foreign line ends it",
            lines: Array(repeating: .foreign, count: 8),
            actions: Array(repeating: .skip, count: 7) + [.close(reason: notGPSD(8))],
            failure: nil,
            reason: notGPSD(8)
        ),
        .init(
            testDescription: "seven foreign lines, then gpsd: gpsd, and foreign lines after are handled",
            lines: Array(repeating: .foreign, count: 7) + [tpv, version] + Array(repeating: .foreign, count: 10),
            actions: Array(repeating: .skip, count: 7) + [.announce(release: nil)]
                + Array(repeating: .handle, count: 11),
            failure: .closed,
            reason: "gpsd closed the connection"
        ),
        .init(
            testDescription: "gpsd, then an error",
            lines: [version, tpv],
            actions: [.announce(release: "3.22"), .handle],
            failure: .error(reset),
            reason: reset
        ),
    ]

    @Test(arguments: endings)
    func connectionEnds(_ row: Ending) {
        var session = GPSDSession()
        _ = session.opened(watching: true)
        let actions = row.lines.map { session.lineRead($0) }
        #expect(actions == row.actions)
        if let failure = row.failure {
            #expect(session.readFailed(failure) == row.reason)
        } else {
            #expect(actions.last == .close(reason: row.reason))
        }
    }

    @Test func aNewConnectionCountsForeignLinesAgain() {
        var session = GPSDSession()
        _ = session.opened(watching: true)
        for _ in 0..<7 { _ = session.lineRead(.foreign) }
        var generator = SplitMix64(seed: 1)
        _ = session.closed(using: &generator)
        _ = session.opened(watching: true)
        #expect((0..<7).map { _ in session.lineRead(.foreign) } == Array(repeating: .skip, count: 7))
        #expect(session.readFailed(.closed) == Self.notGPSD(7))
    }

    struct Watching: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let openedWatching: Bool
        let requests: [Bool]
        let actions: [GPSDSession.WatchAction]
    }

    static let watching: [Watching] = [
        .init(testDescription: "watching from the start", openedWatching: true, requests: [], actions: [.send(true)]),
        .init(testDescription: "paused from the start", openedWatching: false, requests: [], actions: [.none]),
        .init(
            testDescription: "each change is sent once",
            openedWatching: true,
            requests: [false, false, true, true, false],
            actions: [.send(true), .send(false), .none, .send(true), .none, .send(false)]
        ),
        .init(
            testDescription: "paused, then resumed",
            openedWatching: false,
            requests: [false, true],
            actions: [.none, .none, .send(true)]
        ),
    ]

    @Test(arguments: watching)
    func watchRequests(_ row: Watching) {
        var session = GPSDSession()
        var actions = [session.opened(watching: row.openedWatching)]
        for (index, on) in row.requests.enumerated() {
            actions.append(session.watchRequested(on, at: Self.ms(Int64(index) * 100)))
        }
        #expect(actions == row.actions)
    }
}
