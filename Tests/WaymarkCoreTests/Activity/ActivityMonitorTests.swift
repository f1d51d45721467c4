import Testing
import WaymarkCore

/// The activity machine on scripted drives: one fix a second unless a step says otherwise, each fix
/// arriving at its own GPS second on the monotonic clock.
@Suite struct ActivityMonitorTests {
    static let start = Timestamp(seconds: 1_764_000_000)  // 2025-11-24
    static let origin = Coordinate(latitude: 49.0, longitude: 12.1)
    static let metresPerDegreeLatitude = 111_200.0
    static let metresPerDegreeLongitude = 111_320.0 * 0.656  // cos 49°

    /// One step of a script.
    enum Step {
        /// Parked for `seconds`: positions wander up to `wander` metres around the spot, at a measured speed.
        case park(seconds: Int, wander: Double = 3, speed: Double? = 0, accuracy: Double = 10)
        /// Driving east at `speed` m/s for `seconds` (measured speed, or none when `measured` is false).
        case drive(seconds: Int, speed: Double, measured: Bool = true, accuracy: Double = 10)
        /// One fix `metres` north of the spot (an outlier), then the script goes on from the spot.
        case outlier(metres: Double)
        /// No fix for `seconds`: the agent's timer ticks every second.
        case silence(seconds: Int)
        /// Epochs without a position for `seconds`, each with its GPS time.
        case noFix(seconds: Int)
    }

    /// What a script produced: its events, readably, and the monitor at the end.
    struct Run {
        var events: [String] = []
        var trips: [TripSummary] = []
        var monitor: ActivityMonitor
        var second = 0
        /// Seconds the GPS time is ahead of the monotonic clock's count (a jump in the receiver's time).
        var gpsOffset = 0
        var east = 0.0
        var north = 0.0
        var watchLog: [String] = []

        init(_ settings: ActivitySettings) { monitor = ActivityMonitor(settings: settings) }

        var now: MonotonicInstant { MonotonicInstant(nanoseconds: Int64(second) * 1_000_000_000) }
        var time: Timestamp { ActivityMonitorTests.start.advanced(by: .seconds(second + gpsOffset)) }

        mutating func fix(east: Double, north: Double, speed: Double?, accuracy: Double) {
            let location = Location(
                time: time,
                latitude: ActivityMonitorTests.origin.latitude + north / ActivityMonitorTests.metresPerDegreeLatitude,
                longitude: ActivityMonitorTests.origin.longitude + east / ActivityMonitorTests.metresPerDegreeLongitude,
                horizontalAccuracy: accuracy,
                speed: speed
            )
            record(monitor.observe(location, arrival: now))
        }

        mutating func tick() { record(monitor.advance(to: now, time: time)) }

        mutating func record(_ produced: [Event]) {
            for event in produced {
                let at = Int(event.time.duration(since: ActivityMonitorTests.start).secondsValue.rounded())
                switch event.kind {
                case .pause(let pause): events.append("pause \(pause.reason.rawValue) @\(at)")
                case .resume(let resume): events.append("resume \(resume.reason.rawValue) @\(at)")
                case .trip(let trip):
                    trips.append(trip)
                    events.append("trip \(trip.endReason.rawValue) @\(at)")
                default: Issue.record("unexpected event \(event)")
                }
            }
        }

        mutating func play(_ steps: [Step]) {
            for step in steps {
                switch step {
                case .park(let seconds, let wander, let speed, let accuracy):
                    for index in 0..<seconds {
                        tick()
                        let phase = Double(second + index)
                        fix(
                            east: east + wander * sin(phase * 1.3),
                            north: north + wander * cos(phase * 0.7),
                            speed: speed,
                            accuracy: accuracy
                        )
                        second += 1
                    }
                case .drive(let seconds, let speed, let measured, let accuracy):
                    for _ in 0..<seconds {
                        tick()
                        east += speed
                        fix(east: east, north: north, speed: measured ? speed : nil, accuracy: accuracy)
                        second += 1
                    }
                case .outlier(let metres):
                    tick()
                    fix(east: east, north: north + metres, speed: 0, accuracy: 10)
                    second += 1
                case .silence(let seconds):
                    for _ in 0..<seconds {
                        tick()
                        second += 1
                    }
                case .noFix(let seconds):
                    for _ in 0..<seconds {
                        record(monitor.noFix(time: time, arrival: now))
                        second += 1
                    }
                }
            }
        }
    }

    static func settings(
        pauseAfter: Duration = .seconds(30),
        noFixPauseAfter: Duration = .seconds(60),
        powerSave: Bool = false,
        pausesAutomatically: Bool = true
    ) -> ActivitySettings {
        var settings = ActivitySettings(type: .automotiveNavigation)
        settings.pauseAfter = pauseAfter
        settings.noFixPauseAfter = noFixPauseAfter
        settings.powerSave = powerSave
        settings.pausesAutomatically = pausesAutomatically
        return settings
    }

    static func run(_ steps: [Step], _ settings: ActivitySettings = Self.settings()) -> Run {
        var run = Run(settings)
        run.play(steps)
        return run
    }

    static func sin(_ x: Double) -> Double { x.sine }
    static func cos(_ x: Double) -> Double { (x + .pi / 2).sine }

    @Test(
        "pauses, resumes and trips from the receiver's data",
        arguments: [
            // A parked vehicle pauses once after pause_after, whatever its wander inside the radius.
            ([.park(seconds: 1800, wander: 20)], ["pause stationary @30"]),
            // Parked, then driving away: the trip starts with the first movement; nothing was paused.
            ([.park(seconds: 10), .drive(seconds: 60, speed: 10)], []),
            // A stop shorter than pause_after keeps the trip; a longer one ends it where the vehicle stopped.
            (
                [
                    .park(seconds: 5), .drive(seconds: 60, speed: 10), .park(seconds: 20),
                    .drive(seconds: 60, speed: 10),
                    .park(seconds: 40),
                ],
                ["trip stationary @145", "pause stationary @175"]
            ),
            // ... and moving again resumes after three fixes over 2 s, the trip starting where it stood.
            (
                [.park(seconds: 40), .drive(seconds: 30, speed: 8)],
                ["pause stationary @30", "resume speed @42"]
            ),
            // Without measured speeds, displacement beyond the radius resumes.
            (
                [.park(seconds: 40, speed: nil), .drive(seconds: 30, speed: 8, measured: false)],
                ["pause stationary @30", "resume displacement @48"]
            ),
            // One or two wild positions do not resume; a third in a row would.
            (
                [.park(seconds: 40), .outlier(metres: 300), .outlier(metres: 300), .park(seconds: 600)],
                ["pause stationary @30"]
            ),
            // Noisy speeds in ones and twos at a standstill do not resume.
            (
                [
                    .park(seconds: 40), .park(seconds: 1, speed: 3), .park(seconds: 2), .park(seconds: 2, speed: 2.5),
                    .park(seconds: 100),
                ],
                ["pause stationary @30"]
            ),
            // Never a usable fix: the wait counts from the first epoch's GPS time.
            ([.park(seconds: 100, accuracy: 400)], ["pause no_fix @60"]),
            // Fixes too inaccurate to tell movement from drift count as no fix.
            (
                [.park(seconds: 40), .drive(seconds: 100, speed: 3, accuracy: 400)],
                ["pause stationary @30"]
            ),
        ] as [([Step], [String])]
    )
    func scripts(steps: [Step], expected: [String]) {
        #expect(Self.run(steps).events == expected)
    }

    @Test("crawling in a jam below stationary_speed for pause_after is movement: it leaves the radius")
    func crawling() {
        let run = Self.run(
            [.park(seconds: 10), .drive(seconds: 900, speed: 1)],
            Self.settings(pauseAfter: .seconds(300))
        )
        #expect(run.events.isEmpty)
        #expect(run.monitor.isOnTrip)
    }

    @Test("a trip sums its distance without the wander of its stops, and counts stops and idle time")
    func tripSummary() throws {
        let run = Self.run([
            .park(seconds: 5, wander: 0), .drive(seconds: 100, speed: 10), .park(seconds: 20, wander: 15),
            .drive(seconds: 50, speed: 20), .park(seconds: 40, wander: 15),
        ])
        let trip = try #require(run.trips.first)
        #expect(run.trips.count == 1)
        // 1000 m + 1000 m driven. The stops' wander is not distance: what remains is the way into and out
        // of each stop's first fix, which is off the spot by up to the wander (15 m): at most 4 × 15 m.
        #expect(abs(trip.distance - 2000) < 60, "\(trip.distance)")
        #expect(trip.stops == 1)
        #expect(trip.idleTime >= .seconds(18) && trip.idleTime <= .seconds(22), "\(trip.idleTime)")
        #expect(trip.maxSpeed == 20)
        #expect(trip.endReason == .stationary)
        #expect(trip.start == Self.start.advanced(by: .seconds(4)))
        #expect(trip.duration.secondsValue > 160 && trip.duration.secondsValue < 180)
    }

    @Test("no usable fix for no_fix_pause_after pauses; a fix far away, confirmed, resumes")
    func fixLoss() throws {
        var run = Run(Self.settings())
        run.play([.park(seconds: 5), .drive(seconds: 20, speed: 10), .silence(seconds: 90)])
        #expect(run.events == ["trip no_fix @24", "pause no_fix @84"])
        #expect(run.trips.first?.endReason == .noFix)
        run.east += 2000
        run.play([.drive(seconds: 10, speed: 10)])
        #expect(run.events.last == "resume displacement @117")
    }

    @Test("a gap in GPS time longer than no_fix_pause_after pauses as the wait would have, before the next fix")
    func gapInTheCapture() {
        var run = Run(Self.settings())
        run.play([.park(seconds: 5), .drive(seconds: 20, speed: 10)])
        run.second += 1200
        run.play([.park(seconds: 3)])
        #expect(run.events == ["trip no_fix @24", "pause no_fix @84"])
        // Epochs without a position carry GPS time too.
        var other = Run(Self.settings())
        other.play([.park(seconds: 5), .noFix(seconds: 70)])
        #expect(other.events == ["pause no_fix @64"])
    }

    @Test("power saving: a pause found from a gap in arriving fixes keeps watching them, as a probe would")
    func gapWhilePowerSaving() {
        var run = Run(Self.settings(powerSave: true))
        run.play([.park(seconds: 5), .drive(seconds: 20, speed: 10)])
        // The next fix arrives 20 minutes of GPS time later, 5 km east, before any timer fired.
        run.second += 1200
        run.east += 5000
        run.fix(east: run.east, north: 0, speed: 10, accuracy: 10)
        #expect(run.events == ["trip no_fix @24", "pause no_fix @84"])
        #expect(run.monitor.wantsWatch && run.monitor.probes == 1)
        run.second += 1
        run.play([.drive(seconds: 3, speed: 10)])
        #expect(run.events.last == "resume displacement @1227")
        // The trip starts at the first fix seen moving, not back where the fix was lost.
        run.play([.park(seconds: 40, wander: 0)])
        #expect(run.trips.last.map { Int($0.distance.rounded()) } == 30)
    }

    @Test("a new stream starts the GPS-time gap afresh: a source switch is not a loss of fix")
    func newStream() {
        var run = Run(Self.settings())
        run.play([.park(seconds: 5)])
        // Another receiver (or gpsd restarted on a capture) 20 minutes later in GPS time, at once.
        var switched = run
        switched.monitor.startNewStream()
        switched.gpsOffset += 1200
        switched.play([.park(seconds: 5)])
        // Still standing where it stood: that is a stop of 20 minutes, not a loss of fix.
        #expect(switched.events == ["pause stationary @1205"])
        // Within one stream the same jump is a loss of fix, from the last fix before it.
        run.gpsOffset += 1200
        run.play([.park(seconds: 5)])
        #expect(run.events == ["pause no_fix @64"])
    }

    @Test("with pausing off there is no pause, but a long stop still ends the trip")
    func pausingOff() {
        let settings = Self.settings(pausesAutomatically: false)
        let run = Self.run([.park(seconds: 5), .drive(seconds: 20, speed: 10), .park(seconds: 60)], settings)
        #expect(run.events == ["trip stationary @25"])
        #expect(run.monitor.wantsWatch)
    }

    @Test("power saving: the watch stops while paused, probes at the interval, and a moving probe resumes")
    func probes() {
        var settings = Self.settings(powerSave: true)
        settings.probeInterval = .seconds(120)
        settings.probeTimeout = .seconds(30)
        var run = Run(settings)
        run.play([.park(seconds: 31)])
        #expect(run.events == ["pause stationary @30"])
        #expect(!run.monitor.wantsWatch)
        #expect(run.monitor.nextDeadline == MonotonicInstant(nanoseconds: 150 * 1_000_000_000))
        run.play([.silence(seconds: 119)])
        #expect(!run.monitor.wantsWatch)
        run.play([.silence(seconds: 1)])
        #expect(run.monitor.wantsWatch && run.monitor.probes == 1)
        // While the probe runs, the next deadline is its timeout, never a moment already past.
        #expect(run.monitor.nextDeadline == MonotonicInstant(nanoseconds: 180 * 1_000_000_000))
        // Three quiet fixes: still parked, back to sleep until two minutes after the probe began.
        run.play([.park(seconds: 3)])
        #expect(!run.monitor.wantsWatch)
        #expect(run.monitor.nextDeadline == MonotonicInstant(nanoseconds: 270 * 1_000_000_000))
        // A probe without fixes gives up after probe_timeout.
        run.play([.silence(seconds: 117)])
        #expect(run.monitor.wantsWatch && run.monitor.probes == 2)
        run.play([.silence(seconds: 30)])
        #expect(!run.monitor.wantsWatch && run.monitor.probeTimeouts == 1)
        // The next probe finds the vehicle moving: it resumes and keeps watching.
        run.play([.silence(seconds: 90), .drive(seconds: 5, speed: 10)])
        #expect(run.events.last == "resume speed @393")
        #expect(run.monitor.wantsWatch && run.monitor.nextDeadline != nil)
    }

    @Test("power saving turned on while paused schedules a probe at the next tick; turned off, the watch is back")
    func powerSavingReloadedWhilePaused() {
        var run = Run(Self.settings(powerSave: false))
        run.play([.park(seconds: 31)])
        #expect(run.events == ["pause stationary @30"])
        #expect(run.monitor.wantsWatch && run.monitor.nextDeadline == nil)
        #expect(run.monitor.apply(Self.settings(powerSave: true), time: run.time).isEmpty)
        // Pending: the next call that knows the time schedules it.
        #expect(run.monitor.wantsWatch && run.monitor.nextDeadline == nil)
        run.play([.silence(seconds: 1)])
        #expect(!run.monitor.wantsWatch)
        #expect(run.monitor.nextDeadline == MonotonicInstant(nanoseconds: 151 * 1_000_000_000))
        #expect(run.monitor.apply(Self.settings(powerSave: false), time: run.time).isEmpty)
        #expect(run.monitor.isPaused && run.monitor.wantsWatch && run.monitor.nextDeadline == nil)
    }

    @Test("a reload that ends a pause drops the probe that a change of power saving had asked for")
    func pendingProbeEndsWithThePause() {
        var run = Run(Self.settings(powerSave: false))
        run.play([.park(seconds: 31)])
        _ = run.monitor.apply(Self.settings(powerSave: true), time: run.time)
        run.record(run.monitor.apply(Self.settings(powerSave: true, pausesAutomatically: false), time: run.time))
        #expect(run.events == ["pause stationary @30", "resume settings @31"])
        // Past the probe interval and the no-fix wait: no probe while active, and nothing left to wake for.
        run.play([.silence(seconds: 200)])
        #expect(run.monitor.probes == 0 && run.monitor.probeTimeouts == 0)
        #expect(run.monitor.wantsWatch && run.monitor.nextDeadline == nil)
    }

    @Test("turning pausing off on a reload ends the pause; finishing ends the trip; regions entered are kept")
    func reloadAndShutdown() throws {
        var run = Run(Self.settings(powerSave: true))
        run.play([.park(seconds: 40)])
        #expect(run.monitor.isPaused)
        run.record(run.monitor.apply(Self.settings(pausesAutomatically: false), time: run.time))
        #expect(run.events == ["pause stationary @30", "resume settings @40"])
        #expect(!run.monitor.isPaused && run.monitor.wantsWatch)

        var driving = Run(Self.settings())
        driving.play([.park(seconds: 3), .drive(seconds: 10, speed: 10)])
        driving.monitor.entered(region: "depot")
        driving.monitor.entered(region: "yard")
        driving.monitor.entered(region: "depot")
        driving.play([.drive(seconds: 10, speed: 10)])
        driving.record(driving.monitor.finish())
        let trip = try #require(driving.trips.first)
        #expect(trip.endReason == .shutdown && trip.regionsEntered == ["depot", "yard"])
        #expect(driving.monitor.finish().isEmpty)
    }
}

extension Double {
    /// A sine good enough for test positions, without Foundation.
    fileprivate var sine: Double {
        var x = self.truncatingRemainder(dividingBy: 2 * .pi)
        if x > .pi { x -= 2 * .pi }
        if x < -.pi { x += 2 * .pi }
        var term = x
        var sum = x
        for n in 1..<12 {
            term *= -x * x / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }
}
