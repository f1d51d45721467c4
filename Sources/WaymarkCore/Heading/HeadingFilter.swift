#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        /// The first rejection of a streak of ``HeadingFilter/failureStreak``: a sentence for an error event.
        public var failure: String?

        static let nothing = Step()
    }

    /// How many readings in a row must be rejected before the source is reported as failing.
    public static let failureStreak = 5

    public var settings: HeadingSettings {
        didSet { if settings.smoothing != oldValue.smoothing { window.removeAll() } }
    }

    private var declinations = DeclinationCache()
    /// The last current fix and its arrival: the position for the declination, the clock for ATT times.
    private var lastFix: (location: Location, arrival: MonotonicInstant)?
    /// When the last valid attitude reading arrived.
    private var attitudeArrival: MonotonicInstant?
    private var lastDelivered: Heading?
    private var lastDeliveredTime: Timestamp?
    private var window: [Sample] = []
    private var invalidStreak = 0

    public init(settings: HeadingSettings = .init()) {
        self.settings = settings
    }

    /// An ATT report, arriving at `arrival`; `time` stamps it when no fix has been seen yet.
    public mutating func attitude(_ attitude: Attitude, arrival: MonotonicInstant, time: Timestamp) -> Step {
        guard settings.source != .course else { return .nothing }
        let reading: Reading
        if let heading = attitude.heading {
            reading = Reading(value: heading, isTrue: true, accuracy: nil, source: .attitude)
        } else if let magnetic = attitude.magneticHeading {
            reading = Reading(value: magnetic, isTrue: false, accuracy: nil, source: .attitude)
        } else {
            return .nothing
        }
        guard let normalized = Self.normalized(reading.value) else { return reject(reading.value) }
        invalidStreak = 0
        attitudeArrival = arrival
        var valid = reading
        valid.value = normalized
        let stamp = lastFix.map { $0.location.time.advanced(by: max(.zero, arrival - $0.arrival)) } ?? time
        return step(deliver(valid, arrival: arrival), at: stamp)
    }

    /// A current fix (fresh and in order), arriving at `arrival`.
    public mutating func location(_ location: Location, arrival: MonotonicInstant) -> Step {
        lastFix = (location, arrival)
        if settings.source != .course, isAttitudeFresh(at: arrival) { return .nothing }
        guard settings.source != .attitude,
            let speed = location.speed, speed >= settings.minSpeed,
            let course = location.course.flatMap(Self.normalized)
        else { return step(invalidate(), at: location.time) }
        let reading = Reading(value: course, isTrue: true, accuracy: location.courseAccuracy, source: .course)
        return step(deliver(reading, arrival: arrival), at: location.time)
    }

    /// A step delivering `heading` at `time` (never before the heading delivered last).
    private mutating func step(_ heading: Heading?, at time: Timestamp) -> Step {
        guard let heading else { return .nothing }
        let stamp = lastDeliveredTime.map { max($0, time) } ?? time
        lastDeliveredTime = stamp
        return Step(heading: heading, time: stamp)
    }

    private func isAttitudeFresh(at now: MonotonicInstant) -> Bool {
        guard let attitudeArrival else { return false }
        return settings.maxAge == .zero || now - attitudeArrival <= settings.maxAge
    }

    private mutating func reject(_ value: Double) -> Step {
        invalidStreak += 1
        var step = Step(rejectedReading: true)
        if invalidStreak == Self.failureStreak {
            step.failure =
                "the attitude source sent \(Self.failureStreak) headings in a row outside 0 to 360 degrees "
                + "(last: \(value)): raw sensor units, not degrees; no heading comes from it until it sends one"
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

    private func passesFilter(_ heading: Heading) -> Bool {
        guard let last = lastDelivered, last.isValid, last.source == heading.source else { return true }
        guard settings.filter > 0 else { return true }
        let (current, previous) =
            heading.trueHeading >= 0 && last.trueHeading >= 0
            ? (heading.trueHeading, last.trueHeading) : (heading.magnetic ?? 0, last.magnetic ?? 0)
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

    /// The heading's accuracy: -1 in the magnetic blackout zone, else the source's own accuracy and the
    /// declination's uncertainty combined; nil when neither is known.
    private static func accuracy(of reading: Reading, _ declination: MagneticDeclination?) -> Double? {
        if declination?.zone == .blackout { return -1 }
        switch (reading.accuracy, declination?.uncertainty) {
        case (nil, nil): return nil
        case (let source, let model): return ((source ?? 0) * (source ?? 0) + (model ?? 0) * (model ?? 0)).squareRoot()
        }
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
