/// What the location filter decided about one fix.
public enum LocationVerdict: Hashable, Sendable {
    /// Deliver the fix as a `location` event; the trigger says why.
    case deliver(DeliveryTrigger)
    /// Do not deliver it; the reason is counted and logged at debug level.
    case hold(HoldReason)
}

extension LocationVerdict {
    /// Whether the fix was current when it arrived: fresh and in order, delivered or not.
    public var isCurrent: Bool {
        switch self {
        case .deliver: true
        case .hold(let reason): !reason.isAboutTime
        }
    }
}

/// Why a fix was delivered.
public enum DeliveryTrigger: String, Hashable, Sendable, CaseIterable {
    /// The first fix, or the first after the GPS time base moved.
    case first
    /// No trigger is set: every checked fix is delivered.
    case everyFix = "every_fix"
    case distance
    case heartbeat
    case interval
    case angle
    case speed
    case significantChange = "significant_change"
}

/// Why a fix was not delivered: the name it is counted under.
public enum HoldReason: String, Hashable, Sendable, CaseIterable {
    /// It reached the agent later than `max_fix_age` after the fixes around it.
    case stale
    /// Its GPS time is before that of the newest fresh fix.
    case outOfOrder = "out_of_order"
    /// Its GPS time is that of the newest fresh fix: the receiver (or gpsd, after a reconnect) repeated it.
    case repeatedEpoch = "repeated_epoch"
    /// Its GPS time ran more than an hour ahead of the clock it arrived by: a receiver's date glitch.
    case timeJump = "time_jump"
    /// Less accurate than `desired_accuracy`.
    case inaccurate
    /// Closer than `distance_filter` to the last delivery, and no other trigger fired.
    case filteredDistance = "filtered_distance"
    /// No trigger fired (and no distance filter is set).
    case filteredTriggers = "filtered_triggers"
    /// Not yet `significant_distance` and `significant_interval` from the last delivery.
    case filteredSignificantChange = "filtered_significant_change"
    /// Location updates are paused (stationary, or no fix) and no heartbeat is due.
    case paused

    /// Whether the fix was held for its time (stale, repeated, out of order, ahead), not for what it says.
    public var isAboutTime: Bool {
        switch self {
        case .stale, .outOfOrder, .repeatedEpoch, .timeJump: true
        case .inaccurate, .filteredDistance, .filteredTriggers, .filteredSignificantChange, .paused: false
        }
    }
}
