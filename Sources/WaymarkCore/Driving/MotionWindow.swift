/// The receiver's measured speeds and courses over the last ``DrivingSettings/window``: the longitudinal
/// acceleration (the least-squares slope of the speeds) and the lateral one (the mean speed times the slope of
/// the course, unwrapped across 0/360°), each with its 95 % error (docs/driving.md, "Definitions").
struct MotionWindow: Sendable {
    struct Sample: Sendable {
        var time: Timestamp
        var speed: Double
        /// Degrees, unwrapped: it differs from the sample before by less than 180°.
        var course: Double?
        /// m/s, 95 %: what the speed is taken to be good to.
        var speedError: Double
        var position: Coordinate
    }

    /// The values of a full window.
    struct Values: Sendable {
        /// m/s²: positive speeding up.
        var longitudinal: Double
        /// m/s²: positive turning right (the course increasing); nil when a fix of the window had no course.
        var lateral: Double?
        /// m/s², 95 %: the error of either value.
        var error: Double
        var slowest: Double
        /// The speed at the start of the window.
        var startSpeed: Double
    }

    private(set) var samples: [Sample] = []

    /// Forgets what was measured: a gap in the data.
    mutating func reset() { samples.removeAll() }

    /// The newest sample, if any.
    var last: Sample? { samples.last }

    /// Adds a fix with a measured speed. A second fix of the same time is ignored (the first measured speed of an
    /// epoch counts); one older than the last (GPS time went back), or more than ``DrivingSettings/maxStep``
    /// newer, starts the window afresh: a gap.
    mutating func add(_ sample: Sample) -> Added {
        var sample = sample
        if let last = samples.last {
            let step = sample.time.duration(since: last.time)
            if step == .zero { return .ignored }
            if step < .zero || step > DrivingSettings.maxStep {
                samples = [sample]
                return .afterGap
            }
            if let course = sample.course, let previous = last.course {
                var turn = (course - previous).truncatingRemainder(dividingBy: 360)
                if turn > 180 { turn -= 360 } else if turn <= -180 { turn += 360 }
                sample.course = previous + turn
            }
        }
        samples.append(sample)
        return .added
    }

    enum Added {
        case added, afterGap, ignored
    }

    /// Drops what the window no longer needs: it keeps the newest sample at least `window` older than the last.
    mutating func trim(to window: Duration) {
        guard let last = samples.last else { return }
        guard let reference = samples.lastIndex(where: { last.time.duration(since: $0.time) >= window }) else { return }
        samples.removeFirst(reference)
    }

    /// The values over the window ending at the last sample, once it spans `window`.
    func values(over window: Duration) -> Values? {
        guard let first = samples.first, let last = samples.last, samples.count >= 2,
            last.time.duration(since: first.time) >= window
        else { return nil }
        let times = samples.map { $0.time.duration(since: first.time).secondsValue }
        let meanTime = times.reduce(0, +) / Double(times.count)
        let spread = times.reduce(0) { $0 + ($1 - meanTime) * ($1 - meanTime) }
        guard spread > 0 else { return nil }
        func slope(_ values: [Double]) -> Double {
            let mean = values.reduce(0, +) / Double(values.count)
            var sum = 0.0
            for (time, value) in zip(times, values) { sum += (time - meanTime) * (value - mean) }
            return sum / spread
        }
        let speeds = samples.map(\.speed)
        let meanSpeed = speeds.reduce(0, +) / Double(speeds.count)
        let courses = samples.compactMap(\.course)
        let turnRate = courses.count == samples.count ? slope(courses) * .pi / 180 : nil
        let worstError = samples.map(\.speedError).max() ?? 0
        return Values(
            longitudinal: slope(speeds),
            lateral: turnRate.map { $0 * meanSpeed },
            error: worstError / spread.squareRoot(),
            slowest: speeds.min() ?? 0,
            startSpeed: first.speed
        )
    }
}
