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
    /// The most accurate fix held back as inaccurate since the last accepted one.
    public private(set) var bestInaccurate: Location?
    /// The jump of the GPS time base found at the last fix, if that fix restarted the freshness check.
    public private(set) var timeBaseJump: Duration?

    private var freshness: FixFreshness
    /// GPS time of the last delivery, nanoseconds since 1970.
    private var lastDeliveredTime: Int64 = 0
    /// The course and speed that the angle and speed triggers compare with: those of the last delivery, or
    /// the first measured after it when it had none.
    private var referenceCourse: Double?
    private var referenceSpeed: Double?

    public init(settings: LocationSettings = .init()) {
        self.settings = settings
        freshness = FixFreshness(maxAge: settings.maxFixAge)
    }

    /// The last known location: the newest accepted fix, else the best one held back as inaccurate.
    public var lastKnown: Location? { lastAccepted ?? bestInaccurate }

    /// Decides about one fix.
    public mutating func consider(
        _ location: Location,
        arrival: MonotonicInstant,
        wallClock: Timestamp,
        wallClockSynchronized: Bool
    ) -> LocationVerdict {
        timeBaseJump = nil
        switch freshness.judge(
            location.time,
            arrival: arrival,
            wallClock: wallClock,
            wallClockSynchronized: wallClockSynchronized
        ) {
        case .fresh: break
        case .stale: return .hold(.stale)
        case .outOfOrder: return .hold(.outOfOrder)
        case .duplicate: return .hold(.duplicateEpoch)
        case .timeBaseReset(let jump):
            timeBaseJump = jump
            lastDelivered = nil
        }
        guard settings.desiredAccuracy.accepts(location.horizontalAccuracy, mode: location.mode) else {
            if Self.isMoreAccurate(location, than: bestInaccurate) { bestInaccurate = location }
            return .hold(.inaccurate)
        }
        lastAccepted = location
        bestInaccurate = nil

        guard let trigger = trigger(for: location) else {
            noteReferences(of: location)
            switch settings.mode {
            case .significantChange: return .hold(.filteredSignificantChange)
            case .standard: return .hold(settings.distanceFilter > 0 ? .filteredDistance : .filteredTriggers)
            }
        }
        lastDelivered = location
        lastDeliveredTime = location.time.nanosecondsSince1970
        referenceCourse = isMoving(location) ? location.course : nil
        referenceSpeed = location.speed
        return .deliver(trigger)
    }

    /// The trigger that delivers an accepted fix, if any; the cheap ones are tried first.
    private func trigger(for location: Location) -> DeliveryTrigger? {
        guard let last = lastDelivered else { return .first }
        let elapsed = location.time.nanosecondsSince1970 &- lastDeliveredTime
        let heartbeat = settings.heartbeat.nanoseconds
        switch settings.mode {
        case .significantChange:
            if elapsed >= settings.significantInterval.nanoseconds,
                last.distance(to: location) >= settings.significantDistance
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

    /// Whether the vehicle has moved at least `threshold` metres from `last` to `location`. A displacement
    /// within the new fix's own 95 % error circle is not evidence of movement: a parked receiver's positions
    /// wander by tens of metres, inside the accuracy it reports.
    static func hasMoved(_ threshold: Double, from last: Location, to location: Location) -> Bool {
        Geodesic.isDistance(
            from: last.coordinate,
            to: location.coordinate,
            atLeast: max(threshold, (location.horizontalAccuracy ?? 0).nextUp)
        )
    }

    /// The smaller angle between two courses in degrees, 0 ... 180: 359° and 1° are 2° apart.
    public static func angle(between first: Double, and second: Double) -> Double {
        let difference = abs(first - second).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    private static func isMoreAccurate(_ location: Location, than other: Location?) -> Bool {
        guard let other else { return true }
        guard let accuracy = location.horizontalAccuracy else { return false }
        guard let otherAccuracy = other.horizontalAccuracy else { return true }
        return accuracy <= otherAccuracy
    }
}
