import Testing
import WaymarkCore
import WaymarkTestSupport

/// The deferral policy on scripted streams of events, each step at its own second on the monotonic clock.
@Suite struct DeferralPolicyTests {
    static let start = Timestamp(seconds: 1_764_000_000)  // 2025-11-24
    static let origin = Coordinate(latitude: 49.0, longitude: 12.1)
    /// The WGS84 meridian arc per degree at 49° N: positions north of the origin are this many metres apart,
    /// to well under a millimetre over the few kilometres of a script.
    static let metresPerDegreeLatitude = 111_209.738

    /// One step of a script, at a second of the monotonic clock.
    enum Step: Sendable {
        /// A `location` event `north` metres north of the origin (300 bytes).
        case location(at: Int, north: Double)
        /// A `status` event of `bytes` bytes.
        case status(at: Int, bytes: Int = 100)
        case pause(at: Int)
        case region(at: Int)
        /// A `deferred_finished` event from elsewhere (a restart's report): ignored.
        case deferredFinished(at: Int)
        case advance(at: Int)
        case finish(at: Int)
        case apply(at: Int, DeferralSettings)
    }

    static func instant(_ second: Int) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Int64(second) * 1_000_000_000)
    }

    static func event(_ kind: Event.Kind, at second: Int) -> Event {
        Event(time: start.advanced(by: .seconds(second)), kind: kind)
    }

    static func location(north: Double, at second: Int) -> Event {
        let time = start.advanced(by: .seconds(second))
        let latitude = origin.latitude + north / metresPerDegreeLatitude
        return event(.location(Location(time: time, latitude: latitude, longitude: origin.longitude)), at: second)
    }

    static func status(at second: Int) -> Event { event(.status(Status(gpsd: .connected)), at: second) }

    static func pause(at second: Int) -> Event {
        event(.pause(PauseReport(reason: .stationary, position: origin, since: nil)), at: second)
    }

    static func region(at second: Int) -> Event {
        let crossing = RegionEvent(id: "depot", crossing: .enter, position: origin, confirmed: start)
        return event(.region(crossing), at: second)
    }

    static func deferredFinished(at second: Int) -> Event {
        event(.deferredFinished(DeferralReport(reason: .restart, events: 7, distance: nil, duration: nil)), at: second)
    }

    /// Settings with every threshold off, then those given.
    static func settings(
        enabled: Bool = true,
        untilTraveled: Double? = nil,
        timeout: Duration? = nil,
        maxEvents: Int? = nil,
        maxBytes: Int? = nil,
        endsOnRegion: Bool = false
    ) -> DeferralSettings {
        DeferralSettings(
            enabled: enabled,
            untilTraveled: untilTraveled,
            timeout: timeout,
            maxEvents: maxEvents,
            maxBytes: maxBytes,
            endsOnRegion: endsOnRegion
        )
    }

    /// A report as a reader checks it: `traveled @30: 4 events, 1200 m, 30 s` (`-` m when unknown).
    static func describe(_ report: DeferralReport, at second: Int) -> String {
        let metres = report.distance.map { "\(Int($0.rounded()))" } ?? "-"
        let seconds = report.duration.map { "\(Int($0.secondsValue.rounded()))" } ?? "-"
        return "\(report.reason.rawValue) @\(second): \(report.events) events, \(metres) m, \(seconds) s"
    }

    /// Plays `steps` on a policy and returns its reports, described.
    static func play(_ steps: [Step], on policy: inout DeferralPolicy) -> [String] {
        var reports: [String] = []
        for step in steps {
            let report: DeferralReport?
            let second: Int
            switch step {
            case .location(let at, let north):
                (report, second) = (policy.observe(location(north: north, at: at), bytes: 300, now: instant(at)), at)
            case .status(let at, let bytes):
                (report, second) = (policy.observe(status(at: at), bytes: bytes, now: instant(at)), at)
            case .pause(let at):
                (report, second) = (policy.observe(pause(at: at), bytes: 150, now: instant(at)), at)
            case .region(let at):
                (report, second) = (policy.observe(region(at: at), bytes: 150, now: instant(at)), at)
            case .deferredFinished(let at):
                (report, second) = (policy.observe(deferredFinished(at: at), bytes: 120, now: instant(at)), at)
            case .advance(let at):
                (report, second) = (policy.advance(to: instant(at)), at)
            case .finish(let at):
                (report, second) = (policy.finish(now: instant(at)), at)
            case .apply(let at, let settings):
                (report, second) = (policy.apply(settings, now: instant(at)), at)
            }
            if let report { reports.append(describe(report, at: second)) }
        }
        return reports
    }

    static func play(_ steps: [Step], _ settings: DeferralSettings) -> (reports: [String], policy: DeferralPolicy) {
        var policy = DeferralPolicy(settings: settings)
        let reports = play(steps, on: &policy)
        return (reports, policy)
    }

    @Test(
        "each threshold ends the window with its reason",
        arguments: [
            // Metres along the locations, from the window's first when none came before it.
            (
                settings(untilTraveled: 1000),
                [.location(at: 0, north: 0), .location(at: 10, north: 400), .location(at: 20, north: 800)]
                    + [.location(at: 30, north: 1200), .location(at: 40, north: 1300)],
                ["traveled @30: 4 events, 1200 m, 30 s"]
            ),
            // The timeout counts from the window's first event; the next event opens the next window.
            (
                settings(timeout: .seconds(60)),
                [.location(at: 0, north: 0), .status(at: 30), .advance(at: 59), .advance(at: 60)]
                    + [.advance(at: 61), .status(at: 100), .advance(at: 159), .advance(at: 160)],
                ["timeout @60: 2 events, 0 m, 60 s", "timeout @160: 1 events, 0 m, 60 s"]
            ),
            // A window without any location known has no distance.
            (
                settings(maxEvents: 3),
                [.status(at: 0), .status(at: 1), .status(at: 2), .status(at: 3)],
                ["max_events @2: 3 events, - m, 2 s"]
            ),
            (
                settings(maxBytes: 1000),
                [.status(at: 0, bytes: 400), .status(at: 1, bytes: 400), .status(at: 2, bytes: 199)]
                    + [.status(at: 3, bytes: 1), .status(at: 4, bytes: 999), .status(at: 5, bytes: 1_000)],
                ["max_bytes @3: 4 events, - m, 3 s", "max_bytes @5: 2 events, - m, 1 s"]
            ),
            (
                settings(),
                [.location(at: 0, north: 0), .status(at: 2), .pause(at: 5), .status(at: 6)],
                ["pause @5: 3 events, 0 m, 5 s"]
            ),
            (
                settings(endsOnRegion: true),
                [.status(at: 0), .region(at: 5), .region(at: 6)],
                ["region @5: 2 events, - m, 5 s", "region @6: 1 events, - m, 0 s"]
            ),
            // Without endsOnRegion a crossing is just one more event of the window.
            (
                settings(),
                [.status(at: 0), .region(at: 5), .status(at: 6), .finish(at: 10), .finish(at: 11)],
                ["shutdown @10: 3 events, - m, 10 s"]
            ),
            // Shutdown with no window open says nothing.
            (settings(), [.finish(at: 0), .advance(at: 100)], []),
            // Turning deferral off ends the window; while off nothing is deferred; turned on, the next event
            // opens a window.
            (
                settings(),
                [.status(at: 0), .apply(at: 7, settings(enabled: false)), .status(at: 8), .pause(at: 9)]
                    + [.finish(at: 10), .apply(at: 20, settings()), .status(at: 21), .finish(at: 30)],
                ["disabled @7: 1 events, - m, 7 s", "shutdown @30: 1 events, - m, 9 s"]
            ),
            // Disabled from the start: no window, no report, whatever comes.
            (
                settings(
                    enabled: false,
                    untilTraveled: 1,
                    timeout: .zero,
                    maxEvents: 1,
                    maxBytes: 1,
                    endsOnRegion: true
                ),
                [.location(at: 0, north: 0), .location(at: 1, north: 500), .pause(at: 2), .region(at: 3)]
                    + [.advance(at: 1_000), .apply(at: 1_001, settings(enabled: false)), .finish(at: 1_002)],
                []
            ),
            // `deferred_finished` events are not counted, nor do they open a window.
            (
                settings(maxEvents: 2),
                [.deferredFinished(at: 0), .status(at: 1), .deferredFinished(at: 2), .status(at: 3)]
                    + [.deferredFinished(at: 4), .finish(at: 5)],
                ["max_events @3: 2 events, - m, 2 s"]
            ),
        ] as [(DeferralSettings, [Step], [String])]
    )
    func reasons(settings: DeferralSettings, steps: [Step], expected: [String]) {
        #expect(Self.play(steps, settings).reports == expected)
    }

    @Test(
        "when several reasons hold, the first in the order of the reasons' cases",
        arguments: [
            // traveled before max_events
            (
                settings(untilTraveled: 100, maxEvents: 2),
                [.location(at: 0, north: 0), .location(at: 1, north: 200)],
                ["traveled @1: 2 events, 200 m, 1 s"]
            ),
            // timeout before max_events, for a caller that does not advance first: the event ends the window
            (
                settings(timeout: .seconds(10), maxEvents: 2),
                [.status(at: 0), .status(at: 15)],
                ["timeout @15: 2 events, - m, 15 s"]
            ),
            // ... and a caller that advances first ends the window before the event, which opens the next.
            (
                settings(timeout: .seconds(10), maxEvents: 2),
                [.status(at: 0), .advance(at: 15), .status(at: 15), .finish(at: 16)],
                ["timeout @15: 1 events, - m, 15 s", "shutdown @16: 1 events, - m, 1 s"]
            ),
            // max_events before max_bytes before pause before region
            (
                settings(maxEvents: 2, maxBytes: 100, endsOnRegion: true),
                [.status(at: 0, bytes: 1), .pause(at: 1)],
                ["max_events @1: 2 events, - m, 1 s"]
            ),
            (
                settings(maxBytes: 150, endsOnRegion: true),
                [.pause(at: 0), .region(at: 1), .region(at: 2)],
                ["max_bytes @0: 1 events, - m, 0 s", "max_bytes @1: 1 events, - m, 0 s"]
                    + ["max_bytes @2: 1 events, - m, 0 s"]
            ),
        ] as [(DeferralSettings, [Step], [String])]
    )
    func order(settings: DeferralSettings, steps: [Step], expected: [String]) {
        #expect(Self.play(steps, settings).reports == expected)
    }

    @Test("distance runs along the locations, from the last one before the window opened")
    func distanceFromBeforeTheWindow() {
        let settings = Self.settings(maxEvents: 2)
        let (reports, _) = Self.play(
            [
                .location(at: 0, north: 0), .location(at: 1, north: 100),
                // The next window measures from north 100, where the last one ended.
                .location(at: 2, north: 600), .location(at: 3, north: 1000),
                // Back and forth counts both ways; a status event in between changes nothing.
                .status(at: 4), .location(at: 5, north: 700),
                .location(at: 6, north: 1000), .location(at: 7, north: 1100),
            ],
            settings
        )
        #expect(
            reports == [
                "max_events @1: 2 events, 100 m, 1 s", "max_events @3: 2 events, 900 m, 1 s",
                "max_events @5: 2 events, 300 m, 1 s", "max_events @7: 2 events, 400 m, 1 s",
            ]
        )
        // Locations seen while deferral is off still say where the next window starts.
        let (afterOff, _) = Self.play(
            [
                .location(at: 0, north: 0), .apply(at: 1, Self.settings()), .location(at: 2, north: 500),
                .status(at: 3), .finish(at: 4),
            ],
            Self.settings(enabled: false)
        )
        #expect(afterOff == ["shutdown @4: 2 events, 500 m, 2 s"])
    }

    @Test("new thresholds keep the open window and judge it from the next event or advance on")
    func applyKeepsTheWindow() {
        var policy = DeferralPolicy(settings: Self.settings(timeout: .seconds(300), maxEvents: 10))
        #expect(Self.play([.status(at: 0), .status(at: 1), .status(at: 2)], on: &policy).isEmpty)
        #expect(policy.nextDeadline == Self.instant(300))
        // A limit lowered below what the window holds ends it at its next event.
        #expect(policy.apply(Self.settings(timeout: .seconds(60), maxEvents: 2), now: Self.instant(3)) == nil)
        #expect(policy.isDeferring && policy.settings.maxEvents == 2)
        #expect(policy.nextDeadline == Self.instant(60))
        #expect(Self.play([.status(at: 4)], on: &policy) == ["max_events @4: 4 events, - m, 4 s"])

        // A timeout shortened to one already passed ends the window at the next advance.
        #expect(Self.play([.status(at: 100)], on: &policy).isEmpty)
        #expect(policy.apply(Self.settings(timeout: .seconds(10)), now: Self.instant(150)) == nil)
        #expect(policy.nextDeadline == Self.instant(110))
        #expect(Self.play([.advance(at: 150)], on: &policy) == ["timeout @150: 1 events, - m, 50 s"])
        #expect(!policy.isDeferring && policy.nextDeadline == nil)

        // A window without a timeout has no deadline.
        var untimed = DeferralPolicy(settings: Self.settings())
        _ = untimed.observe(Self.status(at: 0), bytes: 10, now: Self.instant(0))
        #expect(untimed.isDeferring && untimed.nextDeadline == nil)
    }

    @Test("exactly one report per window over a long random stream")
    func oneReportPerWindow() {
        var generator = SplitMix64(seed: 0x5EED_DEFE)
        var policy = DeferralPolicy(settings: DeferralSettings(untilTraveled: 800, timeout: .seconds(40)))
        var opened = 0
        var reports = 0
        var counted = 0
        var north = 0.0
        var now = MonotonicInstant.zero
        for second in 0..<20_000 {
            now = Self.instant(second)
            let roll = Int.random(in: 0..<100, using: &generator)
            let wasOpen = policy.isDeferring
            // As the agent does, time is advanced before every event.
            if let report = policy.advance(to: now) {
                #expect(wasOpen && report.reason == .timeout && report.events == counted)
                reports += 1
                counted = 0
            }
            let before = policy.isDeferring
            let report: DeferralReport?
            var isCounted = true
            switch roll {
            case 0..<50:
                north += Double.random(in: 0..<60, using: &generator)
                report = policy.observe(Self.location(north: north, at: second), bytes: 300, now: now)
            case 50..<80:
                report = policy.observe(
                    Self.status(at: second),
                    bytes: Int.random(in: 0..<4000, using: &generator),
                    now: now
                )
            case 80..<84:
                report = policy.observe(Self.pause(at: second), bytes: 150, now: now)
            case 84..<88:
                report = policy.observe(Self.region(at: second), bytes: 150, now: now)
            case 88..<92:
                isCounted = false
                report = policy.observe(Self.deferredFinished(at: second), bytes: 120, now: now)
            case 92..<97:
                isCounted = false
                var settings = DeferralSettings(
                    enabled: Int.random(in: 0..<4, using: &generator) > 0,
                    untilTraveled: Bool.random(using: &generator) ? 800 : nil,
                    timeout: .seconds(Int.random(in: 1..<90, using: &generator)),
                    maxEvents: Int.random(in: 1..<30, using: &generator),
                    maxBytes: 20_000
                )
                settings.endsOnRegion = Bool.random(using: &generator)
                report = policy.apply(settings, now: now)
                #expect(report == nil || report?.reason == .disabled)
            default:
                isCounted = false
                report = policy.finish(now: now)
                #expect(report == nil || report?.reason == .shutdown)
            }
            let opensWindow = isCounted && !before && policy.settings.enabled
            if opensWindow { opened += 1 }
            if isCounted && policy.settings.enabled { counted += 1 }
            if let report {
                #expect(before || opensWindow, "a report without a window at \(second)")
                #expect(report.reason != .timeout, "observe ended a window by its timeout at \(second)")
                #expect(report.events == counted && report.duration.map { $0 >= .zero } == true)
                #expect(!policy.isDeferring)
                reports += 1
                counted = 0
            } else {
                #expect(policy.isDeferring == (before || opensWindow))
            }
        }
        if policy.finish(now: now + .seconds(1)) != nil { reports += 1 }
        #expect(opened > 1_000, "the stream should open many windows")
        #expect(reports == opened)
    }
}
