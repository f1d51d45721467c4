/// Decides which fixes become `location` events (``LocationSettings``): Core Location's standard and
/// significant-change services with the triggers of fleet trackers.
///
/// Every fix is first checked: fresh and in order (``FixFreshness``), then accurate enough
/// (``DesiredAccuracy``). A fix that passes is *accepted*: it is the last known location, whether or not a
/// trigger delivers it. Pure: the caller passes the clocks.
public struct LocationFilter: Sendable {
    public var settings: LocationSettings {
        didSet { freshness.maxAge = settings.maxFixAge }
    }
    /// The last location delivered.
    public private(set) var lastDelivered: Location?
    /// The newest fix that passed the checks, delivered or not.
    public private(set) var lastAccepted: Location?
    /// The most accurate fix held back as inaccurate since the last accepted one (a newer one replaces it
    /// when it is as accurate, or when the remembered one is older than ``inaccurateMemory``).
    public private(set) var bestInaccurate: Location?
    /// The newest fix that was fresh and in order, accurate or not: the GPS time events are stamped after.
    public private(set) var newestFix: Location?
    /// The jump of the GPS time base found at the last fix, if that fix restarted the freshness check.
    public private(set) var timeBaseJump: Duration?

    /// How long a held-back fix is remembered as the best before a newer, less accurate one replaces it.
    public static let inaccurateMemory = Duration.seconds(60)

    private var freshness: FixFreshness
    /// GPS time of the last delivery, nanoseconds since 1970.
    private var lastDeliveredTime: Int64 = 0
    /// Where and when significant-change mode last delivered for a significant change (or first): a
    /// heartbeat in between does not move it.
    private var significantOrigin: Location?
    /// The course and speed that the angle and speed triggers compare with: those of the last delivery, or
    /// the first measured after it when it had none.
    private var referenceCourse: Double?
    private var referenceSpeed: Double?

    public init(settings: LocationSettings = .init()) {
        self.settings = settings
        freshness = FixFreshness(maxAge: settings.maxFixAge)
    }

    /// The last known location (Core Location's `location`): the newest accepted fix, or the best fix held
    /// back since it.
    public var lastKnown: Location? { bestInaccurate ?? lastAccepted }

    /// How far arrivals trail GPS time in the current stream (``FixFreshness/arrivalDelay``).
    public var arrivalDelay: Duration? { freshness.arrivalDelay }

    /// A new stream of fixes begins (a connection to gpsd): freshness and order are judged afresh, and if
    /// its GPS time is behind the last delivery, delivery starts again as for the first fix.
    public mutating func startNewStream() {
        freshness.startNewStream()
    }

    /// Decides about one fix: ``vet(_:arrival:wallClock:wallClockSynchronized:)``, then ``decide(_:)``.
    public mutating func consider(
        _ location: Location,
        arrival: MonotonicInstant,
        wallClock: Timestamp,
        wallClockSynchronized: Bool
    ) -> LocationVerdict {
        let held = vet(location, arrival: arrival, wallClock: wallClock, wallClockSynchronized: wallClockSynchronized)
        return held.map(LocationVerdict.hold) ?? decide(location)
    }

    /// Checks one fix: fresh, in order and accurate enough. Returns why it is held back, or nil when it is
    /// accepted (the last known location) and ``decide(_:)`` is to be asked whether it is delivered.
    public mutating func vet(
        _ location: Location,
        arrival: MonotonicInstant,
        wallClock: Timestamp,
        wallClockSynchronized: Bool
    ) -> HoldReason? {
        timeBaseJump = nil
        switch freshness.judge(
            location.time,
            arrival: arrival,
            wallClock: wallClock,
            wallClockSynchronized: wallClockSynchronized
        ) {
        case .fresh: break
        case .stale: return .stale
        case .outOfOrder: return .outOfOrder
        case .ahead: return .timeJump
        case .duplicate: return .repeatedEpoch
        case .timeBaseReset(let jump):
            timeBaseJump = jump
            lastDelivered = nil
            significantOrigin = nil
        }
        if let lastDelivered, location.time < lastDelivered.time {
            // A new stream whose time is behind the last delivery: intervals from it would be negative.
            self.lastDelivered = nil
            significantOrigin = nil
        }
        newestFix = location
        guard settings.desiredAccuracy.accepts(location.horizontalAccuracy, mode: location.mode) else {
            if Self.replaces(bestInaccurate, with: location) { bestInaccurate = location }
            return .inaccurate
        }
        lastAccepted = location
        bestInaccurate = nil
        return nil
    }

    /// Whether an accepted fix is delivered: by a trigger, or, while location updates are `paused`
    /// (``ActivityMonitor``), by the heartbeat only.
    public mutating func decide(_ location: Location, paused: Bool = false) -> LocationVerdict {
        guard let trigger = trigger(for: location, paused: paused) else {
            noteReferences(of: location)
            if paused { return .hold(.paused) }
            switch settings.mode {
            case .significantChange: return .hold(.filteredSignificantChange)
            case .standard: return .hold(settings.distanceFilter > 0 ? .filteredDistance : .filteredTriggers)
            }
        }
        lastDelivered = location
        lastDeliveredTime = location.time.nanosecondsSince1970
        if trigger == .first || trigger == .significantChange { significantOrigin = location }
        referenceCourse = isMoving(location) ? location.course : nil
        referenceSpeed = location.speed
        return .deliver(trigger)
    }

    /// The trigger that delivers an accepted fix, if any; the cheap ones are tried first.
    private func trigger(for location: Location, paused: Bool) -> DeliveryTrigger? {
        let heartbeat = settings.heartbeat.nanoseconds
        guard let last = lastDelivered else {
            guard paused else { return .first }
            return heartbeat > 0 ? .heartbeat : nil
        }
        let time = location.time.nanosecondsSince1970
        let elapsed = time &- lastDeliveredTime
        if paused { return heartbeat > 0 && elapsed >= heartbeat ? .heartbeat : nil }
        switch settings.mode {
        case .significantChange:
            let origin = significantOrigin ?? last
            if time &- origin.time.nanosecondsSince1970 >= settings.significantInterval.nanoseconds,
                Self.hasMoved(settings.significantDistance, from: origin, to: location)
            {
                return .significantChange
            }
            return heartbeat > 0 && elapsed >= heartbeat ? .heartbeat : nil
        case .standard:
            guard settings.hasTrigger else { return .everyFix }
            if heartbeat > 0 && elapsed >= heartbeat { return .heartbeat }
            if isMoving(location) {
                let interval = settings.minInterval.nanoseconds
                if interval > 0 && elapsed >= interval { return .interval }
                if settings.angleFilter > 0, let course = location.course, let reference = referenceCourse,
                    Self.angle(between: course, and: reference) >= settings.angleFilter
                {
                    return .angle
                }
            }
            if settings.speedDelta > 0, let speed = location.speed, let reference = referenceSpeed,
                abs(speed - reference) >= settings.speedDelta
            {
                return .speed
            }
            if settings.distanceFilter > 0, Self.hasMoved(settings.distanceFilter, from: last, to: location) {
                return .distance
            }
            return nil
        }
    }

    /// After a delivery without a measured course or speed, the first ones measured become the reference.
    private mutating func noteReferences(of location: Location) {
        if referenceCourse == nil, isMoving(location) { referenceCourse = location.course }
        if referenceSpeed == nil { referenceSpeed = location.speed }
    }

    private func isMoving(_ location: Location) -> Bool {
        guard let speed = location.speed else { return false }
        return speed >= settings.movingSpeed
    }

    /// How many times a distance threshold the jitter allowance may reach.
    static let jitterLimit = 3.0

    /// Whether the vehicle has moved at least `threshold` metres from `last` to `location`. A displacement
    /// within the new fix's own 95 % error circle is not evidence of movement (a parked receiver's positions
    /// wander by tens of metres, inside the accuracy it reports), up to ``jitterLimit`` times the threshold:
    /// however poor the accuracy, a vehicle that moved that far is delivered.
    static func hasMoved(_ threshold: Double, from last: Location, to location: Location) -> Bool {
        let jitter = min((location.horizontalAccuracy ?? 0).nextUp, threshold * jitterLimit)
        return Geodesic.isDistance(from: last.coordinate, to: location.coordinate, atLeast: max(threshold, jitter))
    }

    /// The smaller angle between two courses in degrees, 0 ... 180: 359° and 1° are 2° apart.
    public static func angle(between first: Double, and second: Double) -> Double {
        let difference = abs(first - second).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    /// Whether a held-back fix replaces the one remembered: it is at least as accurate (an unknown accuracy
    /// counts as the worst), or the remembered one is older than ``inaccurateMemory``.
    private static func replaces(_ remembered: Location?, with location: Location) -> Bool {
        guard let remembered else { return true }
        if location.time.duration(since: remembered.time) > inaccurateMemory { return true }
        guard let accuracy = location.horizontalAccuracy else { return remembered.horizontalAccuracy == nil }
        guard let rememberedAccuracy = remembered.horizontalAccuracy else { return true }
        return accuracy <= rememberedAccuracy
    }
}
