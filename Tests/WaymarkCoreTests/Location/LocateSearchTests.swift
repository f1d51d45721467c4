import Testing
import WaymarkCore

@Suite struct LocateSearchTests {
    /// The search starts at this monotonic instant; every step is an offset in seconds from it.
    static let start = MonotonicInstant(nanoseconds: 7_000_000_000_000)
    /// System time at the start: 2026-01-01T00:00:00Z.
    static let wallStart = Timestamp(seconds: 1_767_225_600)
    static let threeYears = Duration.seconds(3 * 365 * 86_400)
    static let server = "127.0.0.1:2947"
    static let path = "/dev/ttyACM0"
    /// Degrees of latitude per metre near 49° N (111,212 m per degree).
    static let degreesPerMetre = 1 / 111_212.0

    /// The system clock of a run: `offset` from the truth, synchronized or not.
    struct SystemClock: Sendable, CustomTestStringConvertible {
        var offset: Duration = .zero
        var synchronized = true
        var testDescription: String {
            "clock \(Int((offset.secondsValue / 86_400).rounded())) days off, synchronized: \(synchronized)"
        }
    }

    enum Step: Sendable {
        /// A fix arriving `at` seconds, `lag` seconds after its GPS time, `north` metres from the home point.
        case fix(at: Double, accuracy: Double?, north: Double = 0, lag: Double = 0.2, mode: FixMode = .threeD)
        /// A fix with these coordinates, for the range checks.
        case position(at: Double, latitude: Double, longitude: Double)
        case event(at: Double, SourceEvent)
        case tick(at: Double)
        /// SIGTERM or SIGINT: the search is stopped.
        case stop(at: Double)
    }

    static func instant(_ seconds: Double) -> MonotonicInstant { start + milliseconds(seconds) }

    /// Whole milliseconds, so that 3 - 0.2 s is 2.8 s and not a nanosecond less.
    static func milliseconds(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    static func location(at seconds: Double, accuracy: Double?, north: Double = 0, lag: Double = 0.2) -> Location {
        Location(
            time: wallStart.advanced(by: milliseconds(seconds - lag)),
            latitude: 49 + north * degreesPerMetre,
            longitude: 12,
            horizontalAccuracy: accuracy
        )
    }

    static func update(_ event: SourceEvent, at seconds: Double, clock: SystemClock) -> SourceUpdate {
        let wall = wallStart.advanced(by: milliseconds(seconds) + clock.offset)
        return SourceUpdate(
            event,
            monotonic: instant(seconds),
            wallClock: wall,
            received: wall,
            wallClockSynchronized: clock.synchronized
        )
    }

    /// Runs `steps` in order; fails if the search ends before the last one. Returns the search and what it told.
    static func run(
        _ steps: [Step],
        _ configuration: LocateSearch.Configuration = .init(),
        clock: SystemClock = .init()
    ) -> (search: LocateSearch, progress: [LocateProgress]) {
        var search = LocateSearch(configuration, start: start)
        var progress: [LocateProgress] = []
        for (index, step) in steps.enumerated() {
            if let outcome = search.outcome {
                Issue.record("ended before step \(index): \(outcome)")
                break
            }
            switch step {
            case .fix(let at, let accuracy, let north, let lag, let mode):
                var fix = location(at: at, accuracy: accuracy, north: north, lag: lag)
                fix.mode = mode
                progress += search.handle(update(.location(fix), at: at, clock: clock))
            case .position(let at, let latitude, let longitude):
                let fix = Location(
                    time: wallStart.advanced(by: milliseconds(at - 0.2)),
                    latitude: latitude,
                    longitude: longitude,
                    horizontalAccuracy: 5
                )
                progress += search.handle(update(.location(fix), at: at, clock: clock))
            case .event(let at, let event):
                progress += search.handle(update(event, at: at, clock: clock))
            case .tick(let at):
                search.tick(at: instant(at), wallClock: wallStart.advanced(by: milliseconds(at) + clock.offset))
            case .stop(let at):
                search.stop(at: instant(at), wallClock: wallStart.advanced(by: milliseconds(at) + clock.offset))
            }
        }
        return (search, progress)
    }

    /// What an operator sees of an outcome.
    enum Expected: Hashable, Sendable, CustomStringConvertible {
        case found(LocateOutcome.StopReason, accuracy: Double?, meets: Bool, at: Double)
        case failed(String, at: Double)

        init(_ outcome: LocateOutcome) {
            let at = ((outcome.elapsed.secondsValue) * 1000).rounded() / 1000
            switch outcome.result {
            case .found(let found):
                self = .found(
                    found.stopReason,
                    accuracy: found.location.horizontalAccuracy,
                    meets: found.meetsAccuracy,
                    at: at
                )
            case .failed(let report):
                self = .failed(report.code.rawValue, at: at)
            }
        }

        var description: String {
            switch self {
            case .found(let reason, let accuracy, let meets, let at):
                "\(reason.rawValue) ±\(accuracy.map { "\($0)" } ?? "?") meets: \(meets) at \(at) s"
            case .failed(let code, let at): "\(code) at \(at) s"
            }
        }
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let testDescription: String
        var configuration = LocateSearch.Configuration()
        let steps: [Step]
        let expected: Expected
        var fixesSeen: Int?
        var fixesIgnored: Int?
    }

    static let connected = Step.event(at: 0.01, .connected(server: server, release: "3.22"))
    static let active = Step.event(at: 0.02, .deviceActive(path: path))
    static let fiveMetres = LocateSearch.Configuration(desiredAccuracy: .meters(5))

    static let scenarios: [Scenario] = [
        Scenario(
            testDescription: "a stop ends the search with the best fix so far",
            configuration: fiveMetres,
            steps: [connected, active, .fix(at: 1, accuracy: 50), .fix(at: 2, accuracy: 30, north: 5), .stop(at: 4)],
            expected: .found(.interrupted, accuracy: 30, meets: false, at: 4),
            fixesSeen: 2
        ),
        Scenario(
            testDescription: "a stop before any usable fix ends the search with the error interrupted",
            steps: [connected, active, .fix(at: 1, accuracy: 50, mode: .noFix), .stop(at: 3)],
            expected: .failed("interrupted", at: 3),
            fixesSeen: 0,
            fixesIgnored: 1
        ),
        Scenario(
            testDescription: "a fix that meets the accuracy ends the search at once",
            steps: [connected, active, .fix(at: 1, accuracy: 120), .fix(at: 2, accuracy: 100)],
            expected: .found(.accuracy, accuracy: 100, meets: true, at: 2)
        ),
        Scenario(
            testDescription: "the most accurate fix is kept, and returned at the timeout",
            configuration: fiveMetres,
            steps: [
                connected, .fix(at: 1, accuracy: 50), .fix(at: 2, accuracy: 30, north: 5),
                .fix(at: 3, accuracy: 40, north: 10), .tick(at: 59.999), .tick(at: 60),
            ],
            expected: .found(.timeout, accuracy: 30, meets: false, at: 60),
            fixesSeen: 3
        ),
        Scenario(
            testDescription: "an unknown accuracy is worse than any known one",
            configuration: fiveMetres,
            steps: [
                connected, .fix(at: 1, accuracy: nil), .fix(at: 2, accuracy: 80, north: 5),
                .fix(at: 3, accuracy: nil, north: 10), .tick(at: 60),
            ],
            expected: .found(.timeout, accuracy: 80, meets: false, at: 60)
        ),
        Scenario(
            testDescription: "fixes of unknown accuracy only: the first is kept",
            configuration: fiveMetres,
            steps: [connected, .fix(at: 1, accuracy: nil), .fix(at: 2, accuracy: nil, north: 5), .tick(at: 60)],
            expected: .found(.timeout, accuracy: nil, meets: false, at: 60)
        ),
        Scenario(
            testDescription: "a bound of a kilometre accepts an unknown accuracy, as the location filter does",
            configuration: .init(desiredAccuracy: .meters(1000)),
            steps: [connected, .fix(at: 1, accuracy: nil)],
            expected: .found(.accuracy, accuracy: nil, meets: true, at: 1)
        ),
        Scenario(
            testDescription: "invalid fixes are ignored: no fix mode, bad accuracy, position out of range",
            steps: [
                connected, .fix(at: 1, accuracy: 3, mode: .noFix), .fix(at: 2, accuracy: -1),
                .fix(at: 3, accuracy: .nan), .fix(at: 4, accuracy: .infinity),
                .position(at: 5, latitude: 90.5, longitude: 12), .position(at: 6, latitude: 49, longitude: -180.5),
                .position(at: 7, latitude: .nan, longitude: 12), .tick(at: 60),
            ],
            expected: .failed("timeout", at: 60),
            fixesSeen: 0,
            fixesIgnored: 7
        ),
        Scenario(
            testDescription: "a stale fix is ignored, however accurate",
            configuration: .init(desiredAccuracy: .meters(20)),
            steps: [
                connected, .fix(at: 1, accuracy: 3, lag: 30), .fix(at: 2, accuracy: 50, north: 5),
                .fix(at: 3, accuracy: 4, north: 3, lag: 9), .fix(at: 4, accuracy: 15, north: 2),
            ],
            expected: .found(.accuracy, accuracy: 15, meets: true, at: 4),
            fixesSeen: 2,
            fixesIgnored: 2
        ),
        Scenario(
            testDescription: "a repeated or older epoch is ignored",
            configuration: fiveMetres,
            steps: [
                connected, .fix(at: 1, accuracy: 20), .fix(at: 1.5, accuracy: 6, lag: 0.7),
                .fix(at: 2, accuracy: 7, lag: 1.5), .tick(at: 60),
            ],
            expected: .found(.timeout, accuracy: 20, meets: false, at: 60),
            fixesIgnored: 2
        ),
        Scenario(
            testDescription: "force done: within 1 m of the best for more than 10 s, not at exactly 10 s",
            configuration: fiveMetres,
            steps: [
                connected, .fix(at: 1, accuracy: 20), .fix(at: 6, accuracy: 25, north: 0.5),
                .fix(at: 11, accuracy: 25, north: 0.5), .fix(at: 11.001, accuracy: 25, north: -0.5),
            ],
            expected: .found(.forceDone, accuracy: 20, meets: false, at: 11.001)
        ),
        Scenario(
            testDescription: "force done with best: the settled fix is the best available",
            configuration: .init(desiredAccuracy: .best),
            steps: [connected, .fix(at: 1, accuracy: 3), .fix(at: 11.5, accuracy: 3, north: 0.3)],
            expected: .found(.forceDone, accuracy: 3, meets: true, at: 11.5)
        ),
        Scenario(
            testDescription: "best never ends early on accuracy, and at the timeout does not meet it",
            configuration: .init(desiredAccuracy: .best),
            steps: [connected, .fix(at: 1, accuracy: 0.5), .fix(at: 2, accuracy: 0.4, north: 3), .tick(at: 60)],
            expected: .found(.timeout, accuracy: 0.4, meets: false, at: 60)
        ),
        Scenario(
            testDescription: "a fix more than 1 m from the best starts the 10 s again",
            configuration: fiveMetres,
            steps: [
                connected, .fix(at: 1, accuracy: 20), .fix(at: 12, accuracy: 25, north: 2),
                .fix(at: 13, accuracy: 25, north: 0.5), .fix(at: 22, accuracy: 25, north: 0.5),
                .fix(at: 22.5, accuracy: 25, north: 0.5),
            ],
            expected: .found(.forceDone, accuracy: 20, meets: false, at: 22.5)
        ),
        Scenario(
            testDescription: "a better fix starts the 10 s again",
            configuration: fiveMetres,
            steps: [
                connected, .fix(at: 1, accuracy: 20), .fix(at: 9, accuracy: 19, north: 0.5),
                .fix(at: 12, accuracy: 25, north: 0.5), .fix(at: 19.5, accuracy: 25, north: 0.5),
            ],
            expected: .found(.forceDone, accuracy: 19, meets: false, at: 19.5)
        ),
        Scenario(
            testDescription: "no fix before the timeout: a timeout error",
            steps: [
                connected, active, .event(at: 1, .noFix(mode: .noFix, time: nil)), .tick(at: 30), .tick(at: 60),
            ],
            expected: .failed("timeout", at: 60)
        ),
        Scenario(
            testDescription: "an accurate fix after the timeout comes too late",
            steps: [connected, .fix(at: 60.5, accuracy: 10)],
            expected: .failed("timeout", at: 60.5)
        ),
        Scenario(
            testDescription: "a shorter timeout",
            configuration: .init(timeout: .seconds(3)),
            steps: [connected, .tick(at: 3)],
            expected: .failed("timeout", at: 3)
        ),
        Scenario(
            testDescription: "gpsd unreachable at the first attempt fails at once, without waiting for a retry",
            steps: [
                .event(at: 0.001, .unavailable(server: server, reason: "connection refused", retryIn: .seconds(1)))
            ],
            expected: .failed("gpsd_unavailable", at: 0.001)
        ),
        Scenario(
            testDescription: "gpsd that never answers: gpsd_unavailable at the timeout",
            steps: [.tick(at: 60)],
            expected: .failed("gpsd_unavailable", at: 60)
        ),
        Scenario(
            testDescription: "gpsd lost after connecting and still away at the timeout",
            steps: [
                connected,
                .event(at: 1, .unavailable(server: server, reason: "gpsd closed the connection", retryIn: nil)),
                .tick(at: 60),
            ],
            expected: .failed("gpsd_unavailable", at: 60)
        ),
        Scenario(
            testDescription: "gpsd lost and back: the search goes on",
            steps: [
                connected,
                .event(at: 1, .unavailable(server: server, reason: "gpsd closed the connection", retryIn: nil)),
                .event(at: 3, .connected(server: server, release: "3.22")), .fix(at: 4, accuracy: 8),
            ],
            expected: .found(.accuracy, accuracy: 8, meets: true, at: 4)
        ),
        Scenario(
            testDescription: "gpsd lost after a fix: the fix at the timeout",
            configuration: fiveMetres,
            steps: [
                connected, .fix(at: 1, accuracy: 50),
                .event(at: 2, .unavailable(server: server, reason: "gpsd closed the connection", retryIn: nil)),
                .tick(at: 60),
            ],
            expected: .found(.timeout, accuracy: 50, meets: false, at: 60)
        ),
        Scenario(
            testDescription: "gpsd without a receiver: no_device after the 2 s grace",
            steps: [connected, .event(at: 0.1, .deviceGone(path: nil)), .tick(at: 2.0), .tick(at: 2.1)],
            expected: .failed("no_device", at: 2.1)
        ),
        Scenario(
            testDescription: "a receiver that appears within the grace",
            steps: [
                connected, .event(at: 0.1, .deviceGone(path: nil)), .event(at: 1, .deviceActive(path: path)),
                .tick(at: 2.5), .fix(at: 3, accuracy: 20),
            ],
            expected: .found(.accuracy, accuracy: 20, meets: true, at: 3)
        ),
        Scenario(
            testDescription: "a receiver that goes away is waited for until the timeout",
            steps: [
                connected, active, .event(at: 1, .noFix(mode: .noFix, time: nil)),
                .event(at: 2, .deviceGone(path: path)), .tick(at: 10), .tick(at: 60),
            ],
            expected: .failed("timeout", at: 60)
        ),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) throws {
        let (search, _) = Self.run(scenario.steps, scenario.configuration)
        let outcome = try #require(search.outcome, "still searching after the last step")
        #expect(Expected(outcome) == scenario.expected)
        if let seen = scenario.fixesSeen { #expect(outcome.fixesSeen == seen) }
        if let ignored = scenario.fixesIgnored { #expect(outcome.fixesIgnored == ignored) }
    }

    /// A stale fix among fresh ones, then force done: judged the same whatever the system clock says.
    static let clockScript: [Step] = [
        connected, .fix(at: 1, accuracy: 30), .fix(at: 5, accuracy: 5, north: 3, lag: 8),
        .fix(at: 6, accuracy: 25, north: 0.5), .fix(at: 16.5, accuracy: 28, north: 0.9),
    ]

    @Test(
        "a system clock years off, synchronized or not, changes nothing",
        arguments: [
            SystemClock(offset: .zero, synchronized: false), SystemClock(offset: threeYears, synchronized: true),
            SystemClock(offset: threeYears, synchronized: false), SystemClock(offset: .zero - threeYears),
        ]
    )
    func systemClock(_ clock: SystemClock) throws {
        let reference = try #require(Self.run(Self.clockScript, .init(desiredAccuracy: .meters(10))).search.outcome)
        #expect(Expected(reference) == .found(.forceDone, accuracy: 25, meets: false, at: 16.5))
        #expect(reference.fixesIgnored == 1)
        let outcome = try #require(
            Self.run(Self.clockScript, .init(desiredAccuracy: .meters(10)), clock: clock).search.outcome
        )
        #expect(Expected(outcome) == Expected(reference))
        #expect(outcome.found?.location == reference.found?.location)
        #expect(outcome.found?.age == reference.found?.age)
        #expect(outcome.fixesSeen == reference.fixesSeen && outcome.fixesIgnored == reference.fixesIgnored)
        // Only the system times move: the end, and when the fix was received.
        #expect(outcome.time == reference.time.advanced(by: clock.offset))
        #expect(outcome.found?.received == reference.found?.received?.advanced(by: clock.offset))
    }

    @Test("the deadline: the timeout, or the end of the grace for a missing receiver; none after the end")
    func deadline() {
        var search = LocateSearch(.init(timeout: .seconds(30)), start: Self.start)
        #expect(search.deadline == Self.instant(30))
        _ = search.handle(Self.update(.connected(server: Self.server, release: nil), at: 0.01, clock: .init()))
        _ = search.handle(Self.update(.deviceGone(path: nil), at: 0.5, clock: .init()))
        #expect(search.deadline == Self.instant(2.5))
        _ = search.handle(Self.update(.deviceActive(path: Self.path), at: 1, clock: .init()))
        #expect(search.deadline == Self.instant(30))
        search.tick(at: Self.instant(29.9), wallClock: Self.wallStart)
        #expect(search.outcome == nil)
        search.tick(at: Self.instant(30), wallClock: Self.wallStart)
        #expect(search.outcome != nil)
        #expect(search.deadline == nil)
    }

    @Test("progress: one line per improvement; a receiver, the wait for a fix and an outage told once")
    func progress() {
        let steps: [Step] = [
            Self.connected, Self.active, .event(at: 0.03, .deviceActive(path: Self.path)),
            .event(at: 0.5, .noFix(mode: .noFix, time: nil)), .event(at: 0.8, .noFix(mode: .noFix, time: nil)),
            .event(at: 0.85, .unavailable(server: Self.server, reason: "gpsd closed the connection", retryIn: nil)),
            .event(at: 0.9, .unavailable(server: Self.server, reason: "connection refused", retryIn: .seconds(1))),
            .event(at: 0.95, .connected(server: Self.server, release: "3.22")),
            .event(at: 0.96, .deviceActive(path: Self.path)),
            .fix(at: 1, accuracy: 150), .fix(at: 2, accuracy: 160, north: 3), .fix(at: 3, accuracy: 41.8, north: 1),
        ]
        let lines = Self.run(steps).progress.map(\.description)
        #expect(
            lines == [
                "connected to gpsd 3.22 at 127.0.0.1:2947",
                "receiver /dev/ttyACM0 is active",
                "the receiver has no fix yet; waiting",
                "lost gpsd at 127.0.0.1:2947: gpsd closed the connection; reconnecting until the timeout",
                "connected to gpsd 3.22 at 127.0.0.1:2947",
                "receiver /dev/ttyACM0 is active",
                "1 s: 49.000000, 12.000000 ±150.0 m (3D fix of 2026-01-01T00:00:00.800Z): best so far",
                "3 s: 49.000009, 12.000000 ±41.8 m (3D fix of 2026-01-01T00:00:02.800Z): meets the desired accuracy",
            ]
        )
    }
}
