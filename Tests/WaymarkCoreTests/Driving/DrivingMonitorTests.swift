import Testing
import WaymarkCore

/// The driving machine on scripted speeds and courses, at explicit GPS times: each step is one fix.
@Suite struct DrivingMonitorTests {
    static let start = Timestamp(seconds: 1_764_000_000)

    /// One fix: seconds after ``start``, measured speed (m/s), course (degrees), speed error (m/s, 95 %).
    struct Step {
        var at: Double
        var speed: Double?
        var course: Double? = 90
        var speedAcc: Double? = nil
    }

    /// `speeds` one every `every` seconds from t = 0, courses `courses` (or due east).
    static func steps(
        _ speeds: [Double],
        every: Double = 1,
        courses: [Double]? = nil,
        speedAcc: Double? = nil
    )
        -> [Step]
    {
        speeds.enumerated().map { index, speed in
            Step(at: Double(index) * every, speed: speed, course: courses?[index] ?? 90, speedAcc: speedAcc)
        }
    }

    /// The events of a drive, readably: `kind@start peak duration speed→after`.
    static func run(
        _ steps: [Step],
        _ settings: DrivingSettings = .init(),
        regionLimit: (Double) -> Double? = { _ in nil }
    ) -> [DrivingReport] {
        var monitor = DrivingMonitor(settings: settings)
        var reports: [DrivingReport] = []
        for step in steps {
            let fix = Location(
                time: start.advanced(by: .milliseconds(Int64((step.at * 1000).rounded()))),
                latitude: 49,
                longitude: 12 + step.at * 1e-4,
                speed: step.speed,
                speedAccuracy: step.speedAcc,
                course: step.course
            )
            reports += monitor.observe(fix, regionLimit: regionLimit(step.at)).compactMap(Self.report)
        }
        reports += monitor.finish().compactMap(Self.report)
        return reports
    }

    static func report(_ event: Event) -> DrivingReport? {
        guard case .driving(let report) = event.kind else { return nil }
        return report
    }

    static func line(_ report: DrivingReport) -> String {
        func text(_ value: Double) -> String { "\((value * 100).rounded() / 100)" }
        var line = "\(report.kind.rawValue) peak \(text(report.peak)) for \(text(report.duration.secondsValue)) s"
        line += " from \(text(report.speed))"
        if let after = report.speedAfter { line += " to \(text(after))" }
        if let direction = report.direction { line += " \(direction)" }
        if let limit = report.limit { line += " limit \(text(limit))" }
        if let reason = report.reason { line += " (\(reason))" }
        return line
    }

    @Test(
        "harsh acceleration and braking at 1 Hz: thresholds, minimum duration, minimum speed",
        arguments: [
            // 3.5 m/s² of braking over two windows: one event, its peak, its time over the threshold.
            ([20, 20, 20, 16.5, 13, 13, 13], ["harsh_braking peak 3.5 for 2.0 s from 20.0 to 13.0"]),
            // 2.6 m/s² is under the braking threshold (2.7), over the acceleration one (2.5).
            ([20, 20, 17.4, 17.4], []),
            ([10, 10, 12.6, 12.6], ["harsh_acceleration peak 2.6 for 1.0 s from 10.0 to 12.6"]),
            ([10, 10, 12.4, 12.4], []),
            // Braking to a stop: the window that reaches the stop is under min_speed (10 km/h) and does not count,
            // so it ends the episode; those before it count.
            ([12, 12, 8, 4, 0, 0], ["harsh_braking peak 4.0 for 2.0 s from 12.0 to 0.0"]),
            // All of it below 10 km/h (2.78 m/s): nothing, however hard.
            ([2.7, 2.7, 0, 0], []),
        ] as [([Double], [String])]
    )
    func longitudinal(speeds: [Double], expected: [String]) {
        #expect(Self.run(Self.steps(speeds)).map(Self.line) == expected)
    }

    @Test("min_duration: a window over the threshold counts only when it lasts")
    func minimumDuration() {
        var settings = DrivingSettings()
        settings.minDuration = .seconds(2)
        #expect(Self.run(Self.steps([20, 20, 16, 16, 16]), settings).isEmpty)
        #expect(
            Self.run(Self.steps([20, 20, 16, 12, 12]), settings).map(Self.line) == [
                "harsh_braking peak 4.0 for 2.0 s from 20.0 to 12.0"
            ]
        )
    }

    @Test(
        "accuracy gating: a speed error that makes the value meaningless gives nothing; the fix's own smaller one counts"
    )
    func accuracyGating() {
        var settings = DrivingSettings()
        // 3 m/s at 1 Hz: the acceleration's 95 % error is 3 × √2 = 4.2 m/s², more than half the threshold.
        settings.speedError = 3
        let braking: [Double] = [20, 20, 16, 16]
        #expect(Self.run(Self.steps(braking), settings).isEmpty)
        #expect(Self.run(Self.steps(braking, speedAcc: 0.2), settings).count == 1)
        // A fix's speed_acc larger than the bound (gpsd's NMEA estimate) is not taken: the bound is.
        #expect(Self.run(Self.steps(braking, speedAcc: 15)).count == 1)
    }

    @Test("10 Hz: the window's least-squares slope; a one-epoch jitter is no event, a real braking is one")
    func tenHertz() {
        // ±0.3 m/s of jitter at a steady 20 m/s: a difference of two epochs would say 6 m/s².
        let jitter = (0..<60).map { 20 + ($0 % 2 == 0 ? 0.3 : -0.3) }
        #expect(Self.run(Self.steps(jitter, every: 0.1)).isEmpty)
        // 2 s of 3.5 m/s² braking, from 20 to 13 m/s, within 3 s of steady speed either side.
        let speeds = (0..<70).map { index -> Double in
            let t = Double(index) * 0.1
            return t < 3 ? 20 : t < 5 ? 20 - 3.5 * (t - 3) : 13
        }
        let reports = Self.run(Self.steps(speeds, every: 0.1))
        #expect(reports.count == 1)
        guard let report = reports.first else { return }
        #expect(report.kind == .harshBraking)
        #expect(abs(report.peak - 3.5) < 0.01)
        // A window's slope is over 2.7 m/s² once about three quarters of it lie on the 3.5 m/s² ramp: from 3.8 s
        // to 5.3 s, 1.5 s of the braking's 2.
        #expect(abs(report.duration.secondsValue - 1.5) < 0.05)
        #expect(report.speed == 20)
    }

    @Test(
        "harsh cornering: speed times the turn rate, across 0/360°, left and right, never at low speed",
        arguments: [
            // 15 m/s turning right at 15 °/s: 3.93 m/s², through north.
            ([330, 345, 0, 15, 30, 30, 30], 15.0, ["harsh_cornering peak 3.93 for 4.0 s from 15.0 to 15.0 right"]),
            // The same to the left.
            ([30, 15, 0, 345, 330, 330, 330], 15.0, ["harsh_cornering peak 3.93 for 4.0 s from 15.0 to 15.0 left"]),
            // 12 °/s at 15 m/s: 3.14 m/s², under 3.4.
            ([0, 12, 24, 36, 48], 15.0, []),
            // A course jumping by 90° a second at 5 m/s (under 30 km/h): noise, never a corner.
            ([0, 90, 180, 270, 0, 90], 5.0, []),
            // A course that jumps across 0/360 by a degree is a degree, not 359.
            ([359.5, 0.5, 359.5, 0.5, 359.5], 20.0, []),
        ] as [([Double], Double, [String])]
    )
    func cornering(courses: [Double], speed: Double, expected: [String]) {
        let steps = Self.steps(Array(repeating: speed, count: courses.count), courses: courses)
        #expect(Self.run(steps).map(Self.line) == expected)
    }

    @Test(
        "a gap in the data: speeds across it are no acceleration; an episode it cuts lasts as one a fix ends",
        arguments: [
            // 20 m/s, 10 s without fixes, then 5 m/s: not braking.
            ([Step(at: 0, speed: 20), Step(at: 1, speed: 20), Step(at: 11, speed: 5), Step(at: 12, speed: 5)], []),
            // Braking at 4 m/s² for two windows, then the data stops for 10 s: as long as the braking ended by a fix.
            (
                [
                    Step(at: 0, speed: 20), Step(at: 1, speed: 20), Step(at: 2, speed: 16), Step(at: 3, speed: 12),
                    Step(at: 13, speed: 12),
                ],
                [DrivingMonitorTests.braking]
            ),
            // One window over, then a gap, or the end of the data: 1 s, as when a steady fix follows it.
            (
                [Step(at: 0, speed: 20), Step(at: 1, speed: 20), Step(at: 2, speed: 16), Step(at: 12, speed: 16)],
                ["harsh_braking peak 4.0 for 1.0 s from 20.0 to 16.0"]
            ),
            (
                DrivingMonitorTests.steps([20, 20, 16]),
                ["harsh_braking peak 4.0 for 1.0 s from 20.0 to 16.0"]
            ),
            (
                DrivingMonitorTests.steps([20, 20, 16, 16]),
                ["harsh_braking peak 4.0 for 1.0 s from 20.0 to 16.0"]
            ),
        ] as [([Step], [String])]
    )
    func gaps(steps: [Step], expected: [String]) {
        #expect(Self.run(steps).map(Self.line) == expected)
    }

    /// 20 m/s braking at 4 m/s² from t = 2 to 3, then steady: one event.
    static let braking = "harsh_braking peak 4.0 for 2.0 s from 20.0 to 12.0"

    @Test(
        "fixes without a measured speed, same-time duplicates and GPS time going back",
        arguments: [
            // A receiver that sends GGA before RMC: each epoch's first fix has no speed, its second has it.
            (
                [20, 20, 16, 12, 12].enumerated().flatMap { second, speed in
                    [Step(at: Double(second), speed: nil), Step(at: Double(second), speed: speed)]
                },
                [DrivingMonitorTests.braking]
            ),
            // A fix without a speed between two with one is no gap: the speeds either side count.
            (
                [
                    Step(at: 0, speed: 20), Step(at: 1, speed: 20), Step(at: 2, speed: nil), Step(at: 3, speed: 14),
                    Step(at: 4, speed: 14),
                ],
                ["harsh_braking peak 3.0 for 1.0 s from 20.0 to 14.0"]
            ),
            // A second fix of the same time is ignored, whatever it says.
            (
                [
                    Step(at: 0, speed: 20), Step(at: 1, speed: 20), Step(at: 1, speed: 5), Step(at: 2, speed: 20),
                    Step(at: 3, speed: 20),
                ],
                []
            ),
            // GPS time going back (a time base reset) starts afresh: what follows is judged.
            (
                [Step(at: 100, speed: 20), Step(at: 101, speed: 20)] + DrivingMonitorTests.steps([20, 20, 16, 12, 12]),
                [DrivingMonitorTests.braking]
            ),
        ] as [([Step], [String])]
    )
    func unmeasuredAndRepeated(steps: [Step], expected: [String]) {
        #expect(Self.run(steps).map(Self.line) == expected)
    }

    @Test(
        "overspeed: minimum duration, hysteresis, the maximum and the duration; never across a gap",
        arguments: [
            // 60 km/h limit (16.67 m/s), hysteresis 5 km/h (15.28 m/s), 5 s minimum: over for 8 s, then down.
            (
                DrivingMonitorTests.steps([15, 17, 18, 17.5, 17, 17, 17, 17, 16, 15, 15]),
                [
                    "overspeed_start peak 18.0 for 5.0 s from 17.0 limit 16.67",
                    "overspeed_end peak 18.0 for 8.0 s from 15.0 limit 16.67",
                ]
            ),
            // Over for 3 s only: nothing.
            (DrivingMonitorTests.steps([15, 17, 17, 17, 15, 15]), []),
            // Hovering around the limit, never below it by the hysteresis: one episode, ended by shutdown.
            (
                DrivingMonitorTests.steps([17, 17, 17, 17, 17, 17, 16, 17, 16, 17, 16]),
                [
                    "overspeed_start peak 17.0 for 5.0 s from 17.0 limit 16.67",
                    "overspeed_end peak 17.0 for 10.0 s from 16.0 limit 16.67 (shutdown)",
                ]
            ),
            // 100 km/h, a 60 s tunnel, then 95 km/h: the overspeed starts after the tunnel, not before it.
            (
                [Step(at: 0, speed: 100 / 3.6)] + (60...66).map { Step(at: Double($0), speed: 95 / 3.6) },
                [
                    "overspeed_start peak 26.39 for 5.0 s from 26.39 limit 16.67",
                    "overspeed_end peak 26.39 for 6.0 s from 26.39 limit 16.67 (shutdown)",
                ]
            ),
            // Confirmed before the tunnel: it ends at the last fix before it, and a new one starts after it.
            (
                (0...6).map { Step(at: Double($0), speed: 100 / 3.6) }
                    + (60...65).map { Step(at: Double($0), speed: 100 / 3.6) },
                [
                    "overspeed_start peak 27.78 for 5.0 s from 27.78 limit 16.67",
                    "overspeed_end peak 27.78 for 6.0 s from 27.78 limit 16.67 (gap)",
                    "overspeed_start peak 27.78 for 5.0 s from 27.78 limit 16.67",
                    "overspeed_end peak 27.78 for 5.0 s from 27.78 limit 16.67 (shutdown)",
                ]
            ),
            // GPS time going back is a gap too.
            (
                (100...106).map { Step(at: Double($0), speed: 100 / 3.6) } + [Step(at: 0, speed: 100 / 3.6)],
                [
                    "overspeed_start peak 27.78 for 5.0 s from 27.78 limit 16.67",
                    "overspeed_end peak 27.78 for 6.0 s from 27.78 limit 16.67 (gap)",
                ]
            ),
        ] as [([Step], [String])]
    )
    func overspeed(steps: [Step], expected: [String]) {
        var settings = DrivingSettings()
        settings.overspeedLimit = 60 / 3.6
        #expect(Self.run(steps, settings).map(Self.line) == expected)
    }

    @Test("a region's limit wins inside it; leaving it ends the overspeed it judged")
    func regionLimit() {
        var settings = DrivingSettings()
        settings.overspeedLimit = 100 / 3.6
        // 40 km/h (11.1 m/s) all along; a 30 km/h zone from 2 s to 12 s.
        let steps = Self.steps(Array(repeating: 40 / 3.6, count: 16))
        let reports = Self.run(steps, settings) { (2..<12).contains($0) ? 30 / 3.6 : nil }
        #expect(
            reports.map(Self.line) == [
                "overspeed_start peak 11.11 for 5.0 s from 11.11 limit 8.33",
                "overspeed_end peak 11.11 for 10.0 s from 11.11 limit 8.33 (limit_changed)",
            ]
        )
        // Without the zone, 40 km/h is under the global limit.
        #expect(Self.run(steps, settings).isEmpty)
    }

    @Test("disabled: nothing")
    func disabled() {
        var settings = DrivingSettings()
        settings.enabled = false
        settings.overspeedLimit = 10
        #expect(Self.run(Self.steps([20, 20, 10, 10, 20, 20, 20, 20, 20, 20]), settings).isEmpty)
    }
}
