/// What the location filter decided about one fix.
public enum LocationVerdict: Hashable, Sendable {
    /// Deliver the fix as a `location` event; the trigger says why.
    case deliver(DeliveryTrigger)
    /// Do not deliver it; the reason is counted and logged at debug level.
    case hold(HoldReason)
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
    /// Its GPS time is before the newest fix already accepted.
    case outOfOrder = "out_of_order"
    /// Its GPS time is that of the newest fix already accepted.
    case duplicateEpoch = "duplicate_epoch"
    /// Less accurate than `desired_accuracy`.
    case inaccurate
    /// Closer than `distance_filter` to the last delivery, and no other trigger fired.
    case filteredDistance = "filtered_distance"
    /// No trigger fired (and no distance filter is set).
    case filteredTriggers = "filtered_triggers"
    /// Not yet `significant_distance` and `significant_interval` from the last delivery.
    case filteredSignificantChange = "filtered_significant_change"
}
