import CLibGPS
import Glibc
import WaymarkCore

/// The system's clocks, read in one place: the only clock reads of the live source and of `waymark locate`.
public enum SystemClocks {
    public static func monotonic() -> MonotonicInstant {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return MonotonicInstant(nanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
    }

    /// Whether the kernel reports the system clock synchronized; a board without a real-time clock is not
    /// until NTP (or gpsd's own time service) has set it.
    public static func wallClockSynchronized() -> Bool { waymark_wall_clock_synchronized() }

    public static func wall() -> Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(seconds: Int64(now.tv_sec), nanoseconds: Int32(now.tv_nsec))
    }
}
