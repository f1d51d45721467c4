import WaymarkCore
import WaymarkSystem

// WaymarkSystem's clocks read as WaymarkCore's instants, for this module's own use (WaymarkGPSD's is the same:
// WaymarkSystem knows no Waymark type, and WaymarkCore reads no clock).

extension SystemClocks {
    /// Now, on the monotonic clock.
    static func monotonic() -> MonotonicInstant { MonotonicInstant(nanoseconds: monotonicNanoseconds()) }

    /// Now, on the system clock.
    static func wall() -> Timestamp {
        let now = wallTime()
        return Timestamp(seconds: now.seconds, nanoseconds: now.nanoseconds)
    }
}

extension MonotonicCondition {
    /// MonotonicCondition/wait(untilNanoseconds:) with a deadline on the monotonic clock; true when it passed.
    func wait(until deadline: MonotonicInstant?) -> Bool { wait(untilNanoseconds: deadline?.nanoseconds) }
}
