import Glibc

/// Turns attitude readings and measured courses into `heading` events (``HeadingSettings``): Core Location's
/// heading service for a vehicle, with the declination of the World Magnetic Model at the last fix.
///
/// - Attitude (gpsd ATT): `heading` is a true heading, `mheading` (libgps 3.25+) a magnetic one. Values
///   outside 0 ... 360 are raw sensor units, not headings: they are rejected, and a source that sends only
///   those gives one failure per streak, not one per reading.
/// - Course: the course over ground the receiver measured, while the vehicle moves at ``HeadingSettings/minSpeed``
///   or faster; below it the course is noise. gpsd's `magtrack` is never used.
///
/// With `auto`, the attitude sensor drives headings while its readings are fresh (``HeadingSettings/maxAge``,
/// on the monotonic clock), else the course. When the active source stops giving a heading (stale, the
/// vehicle stopped) one event with accuracy -1 says the heading is invalid. A heading is delivered when it
/// turned by ``HeadingSettings/filter`` degrees (359° and 1° are 2° apart), when its source changes, or when
/// it becomes valid again.
///
/// Pure: the caller passes the clocks.
public struct HeadingFilter: Sendable {
    /// What one input gave.
    public struct Step: Hashable, Sendable {
        /// A heading to deliver, and its time: the fix's GPS time, or for an attitude reading the last fix's
        /// GPS time advanced by the monotonic time since it.
        public var heading: Heading?
        public var time: Timestamp?
        /// The input was a reading that is no heading (outside 0 ... 360).
        public var rejectedReading = false
        /// A sentence for a `heading_failure` error: at the first rejected reading, then at most once per
        /// ``HeadingFilter/failureInterval``, however the bad readings alternate with good ones.
        public var failure: String?

        static let nothing = Step()
    }

    /// The shortest time between two `heading_failure` reports for the same bad source.
    public static let failureInterval = Duration.seconds(600)

    public var settings: HeadingSettings {
        didSet { if settings.smoothing != oldValue.smoothing { window.removeAll() } }
    }

    private var declinations = DeclinationCache()
    /// The last current fix and its arrival: the position for the declination, the clock for ATT times.
    private var lastFix: (location: Location, arrival: MonotonicInstant)?
    /// When the last valid attitude reading arrived.
    private var attitudeArrival: MonotonicInstant?
    private var lastDelivered: Heading?
    /// Where the last heading came from; nil before the first.
    public var lastSource: Heading.Source? { lastDelivered?.source }
    /// The GPS-derived time of the last heading delivered: later headings are never stamped before it.
    private var lastDeliveredTime: Timestamp?
    /// When the last valid reading arrived, delivered or held by the filter: past ``HeadingSettings/maxAge``
    /// the heading is stale.
    private var lastReadingArrival: MonotonicInstant?
    private var window: [Sample] = []
    /// When the last `heading_failure` was reported.
    private var failureReportedAt: MonotonicInstant?

    public init(settings: HeadingSettings = .init()) {
        self.settings = settings
    }

    /// An ATT report, arriving at `arrival`; `time` stamps it when no fix has been seen yet.
    public mutating func attitude(_ attitude: Attitude, arrival: MonotonicInstant, time: Timestamp) -> Step {
        guard settings.source != .course else { return .nothing }
        // A true heading first; a magnetic one (libgps 3.25+) when there is no usable true heading.
        let reading: Reading
        if let value = attitude.heading.flatMap(Self.normalized) {
            reading = Reading(value: value, isTrue: true, accuracy: nil, source: .attitude)
        } else if let value = attitude.magneticHeading.flatMap(Self.normalized) {
            reading = Reading(value: value, isTrue: false, accuracy: nil, source: .attitude)
        } else if let bad = attitude.heading ?? attitude.magneticHeading {
            return reject(bad, at: arrival)
        } else {
            return .nothing
        }
        attitudeArrival = arrival
        guard let fix = lastFix else { return step(deliver(reading, arrival: arrival), at: time, fromFix: false) }
        let stamp = fix.location.time.advanced(by: max(.zero, arrival - fix.arrival))
        return step(deliver(reading, arrival: arrival), at: stamp, fromFix: true)
    }

    /// A current fix (fresh and in order), arriving at `arrival`.
    public mutating func location(_ location: Location, arrival: MonotonicInstant) -> Step {
        lastFix = (location, arrival)
        if settings.source != .course, isAttitudeFresh(at: arrival) { return .nothing }
        guard settings.source != .attitude,
            let speed = location.speed, speed >= settings.minSpeed,
            let course = location.course.flatMap(Self.normalized)
        else { return step(invalidate(), at: location.time, fromFix: true) }
        let reading = Reading(value: course, isTrue: true, accuracy: location.courseAccuracy, source: .course)
        return step(deliver(reading, arrival: arrival), at: location.time, fromFix: true)
    }

    /// Time passes without a reading: a heading whose reading is older than ``HeadingSettings/maxAge``
    /// becomes invalid (once). `time` stamps the event: the pipeline's time of the update.
    public mutating func expire(at now: MonotonicInstant, time: Timestamp) -> Step {
        guard settings.maxAge > .zero, let arrival = lastReadingArrival, now - arrival > settings.maxAge else {
            return .nothing
        }
        return step(invalidate(), at: time, fromFix: false)
    }

    /// The fix is lost: a heading from the course is no longer valid (an attitude sensor's still is).
    public mutating func fixLost(time: Timestamp) -> Step {
        guard lastDelivered?.source == .course else { return .nothing }
        return step(invalidate(), at: time, fromFix: false)
    }

    /// gpsd or the receiver went away: no heading is valid until readings come again.
    public mutating func sourceLost(time: Timestamp) -> Step {
        attitudeArrival = nil
        return step(invalidate(), at: time, fromFix: false)
    }

    /// A step delivering `heading` at `time`, never before the heading delivered last. Only times derived
    /// from GPS time hold later ones back: a system clock read before the first fix may be years off.
    private mutating func step(_ heading: Heading?, at time: Timestamp, fromFix: Bool) -> Step {
        guard let heading else { return .nothing }
        let stamp = lastDeliveredTime.map { max($0, time) } ?? time
        if fromFix { lastDeliveredTime = stamp }
        return Step(heading: heading, time: stamp)
    }

    private func isAttitudeFresh(at now: MonotonicInstant) -> Bool {
        guard let attitudeArrival else { return false }
        return settings.maxAge == .zero || now - attitudeArrival <= settings.maxAge
    }

    private mutating func reject(_ value: Double, at now: MonotonicInstant) -> Step {
        var step = Step(rejectedReading: true)
        if failureReportedAt.map({ now - $0 >= Self.failureInterval }) ?? true {
            failureReportedAt = now
            step.failure =
                "the attitude source sends headings outside 0 to 360 degrees (\(value)): raw sensor units, "
                + "not degrees; no heading comes from it until it sends one"
        }
        return step
    }

    /// The heading of a valid reading, if the filter lets it through.
    private mutating func deliver(_ reading: Reading, arrival: MonotonicInstant) -> Heading? {
        let value = smoothed(reading, arrival: arrival)
        let declination = lastFix.flatMap { fix in
            declinations.declination(
                at: fix.location.coordinate,
                altitudeHAE: fix.location.altitudeHAE,
                time: fix.location.time
            )
        }
        var heading: Heading
        if reading.isTrue {
            heading = Heading(
                magnetic: declination.map { Self.wrapped(value - $0.degrees) },
                trueHeading: value,
                accuracy: nil,
                source: reading.source,
                declination: declination?.degrees
            )
        } else {
            heading = Heading(
                magnetic: value,
                trueHeading: declination.map { Self.wrapped(value + $0.degrees) } ?? -1,
                accuracy: nil,
                source: reading.source,
                declination: declination?.degrees
            )
        }
        heading.accuracy = Self.accuracy(of: reading, declination)
        lastReadingArrival = arrival
        guard passesFilter(heading) else { return nil }
        lastDelivered = heading
        return heading
    }

    /// Marks the heading invalid once, when the last one delivered was valid.
    private mutating func invalidate() -> Heading? {
        window.removeAll()
        guard var heading = lastDelivered, heading.isValid else { return nil }
        heading.accuracy = -1
        lastDelivered = heading
        return heading
    }

    /// A heading passes when it turned by ``HeadingSettings/filter``, or when its validity or its source
    /// changed; headings that cannot be compared (one true-only, the other magnetic-only) pass.
    private func passesFilter(_ heading: Heading) -> Bool {
        guard let last = lastDelivered, last.isValid == heading.isValid, last.source == heading.source,
            settings.filter > 0
        else { return true }
        if heading.trueHeading >= 0, last.trueHeading >= 0 {
            return LocationFilter.angle(between: heading.trueHeading, and: last.trueHeading) >= settings.filter
        }
        guard let current = heading.magnetic, let previous = last.magnetic else { return true }
        return LocationFilter.angle(between: current, and: previous) >= settings.filter
    }

    /// The circular mean of the readings of the last ``HeadingSettings/smoothing`` from the same source.
    private mutating func smoothed(_ reading: Reading, arrival: MonotonicInstant) -> Double {
        guard settings.smoothing > .zero else { return reading.value }
        let oldest = arrival + (.zero - settings.smoothing)
        window.removeAll { $0.arrival < oldest || $0.source != reading.source || $0.isTrue != reading.isTrue }
        let radians = reading.value * .pi / 180
        window.append(
            Sample(
                arrival: arrival,
                source: reading.source,
                isTrue: reading.isTrue,
                sine: sin(radians),
                cosine: cos(radians)
            )
        )
        let sine = window.reduce(0) { $0 + $1.sine }
        let cosine = window.reduce(0) { $0 + $1.cosine }
        guard sine != 0 || cosine != 0 else { return reading.value }
        return Self.wrapped(atan2(sine, cosine) * 180 / .pi)
    }

    /// The heading's accuracy: -1 in the magnetic blackout zone; else the source's own accuracy combined
    /// with the declination's uncertainty, when the source reports one and the model is within its validity;
    /// nil (unknown) otherwise: the declination alone says nothing about how well the source points.
    private static func accuracy(of reading: Reading, _ declination: MagneticDeclination?) -> Double? {
        if declination?.zone == .blackout { return -1 }
        guard let source = reading.accuracy else { return nil }
        guard let declination else { return reading.isTrue ? source : nil }
        guard declination.isWithinValidity else { return nil }
        return (source * source + declination.uncertainty * declination.uncertainty).squareRoot()
    }

    /// A heading in 0 ..< 360, or nil for a value that is no heading (outside 0 ... 360, or not finite).
    static func normalized(_ value: Double) -> Double? {
        guard value.isFinite, (0...360).contains(value) else { return nil }
        return value == 360 ? 0 : value
    }

    /// An angle wrapped into 0 ..< 360.
    static func wrapped(_ degrees: Double) -> Double {
        let wrapped = degrees.truncatingRemainder(dividingBy: 360)
        let positive = wrapped < 0 ? wrapped + 360 : wrapped
        return positive >= 360 ? 0 : positive
    }

    private struct Reading {
        var value: Double
        /// True heading; else magnetic.
        var isTrue: Bool
        /// The source's own accuracy, degrees, when it reports one.
        var accuracy: Double?
        var source: Heading.Source
    }

    private struct Sample {
        var arrival: MonotonicInstant
        var source: Heading.Source
        var isTrue: Bool
        var sine: Double
        var cosine: Double
    }
}
