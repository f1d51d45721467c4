import CLinux
import Glibc

/// The system's clocks, read in one place: the only clock reads of the agent, its commands and its sources.
///
/// The modules above WaymarkCore read them as its `MonotonicInstant` and `Timestamp` through a small extension
/// of their own (`SystemClocks+Core.swift`); this module knows no Waymark type.
public enum SystemClocks {
    /// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`) since its arbitrary origin: every timeout,
    /// interval and deadline, never set back.
    public static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Whether the kernel reports the system clock synchronized; a board without a real-time clock is not
    /// until NTP (or gpsd's own time service) has set it.
    public static func wallClockSynchronized() -> Bool { waymark_wall_clock_synchronized() }

    /// The system clock (`CLOCK_REALTIME`): seconds and nanoseconds since 1970-01-01 UTC, as it is set.
    public static func wallTime() -> (seconds: Int64, nanoseconds: Int32) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int64(now.tv_sec), Int32(now.tv_nsec))
    }
}
