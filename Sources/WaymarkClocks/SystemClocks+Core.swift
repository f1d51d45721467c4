import WaymarkCore
import WaymarkSystem

// WaymarkSystem's clocks read as WaymarkCore's instants: a module of its own because WaymarkSystem knows no
// Waymark type and WaymarkCore reads no clock, and both the gpsd connection and the agent read them.

extension SystemClocks {
    /// Now, on the monotonic clock.
    public static func monotonic() -> MonotonicInstant { MonotonicInstant(nanoseconds: monotonicNanoseconds()) }

    /// Now, on the system clock.
    public static func wall() -> Timestamp {
        let now = wallTime()
        return Timestamp(seconds: now.seconds, nanoseconds: now.nanoseconds)
    }
}
