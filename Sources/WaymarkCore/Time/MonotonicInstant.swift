/// A reading of a monotonic clock: every timeout, interval, dwell and delay is measured with it.
///
/// Live, it comes from `SystemClocks` (`CLOCK_MONOTONIC`); in replay, from a simulated clock driven by the
/// capture's own times. The origin is arbitrary: only differences between two instants mean anything.
public struct MonotonicInstant: Hashable, Comparable, Sendable {
    /// Nanoseconds since the clock's arbitrary origin.
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// Saturates instead of trapping: a time from a broken receiver must not end the process.
    public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? (rhs < .zero ? .min : .max) : sum)
    }

    public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
        return .nanoseconds(overflow ? (lhs < rhs ? .min : .max) : difference)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating far beyond any interval Waymark uses).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, sumOverflow) = product.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !sumOverflow else { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The duration in seconds as a floating-point number.
    public var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension MonotonicInstant {
    /// The earliest of the deadlines that are set, nil when none is: for a loop's next wake-up, asked at every
    /// input, so its arguments go in place and no array is made.
    public static func earliest(
        _ first: Self?,
        _ second: Self?,
        _ third: Self? = nil,
        _ fourth: Self? = nil,
        _ fifth: Self? = nil
    ) -> Self? {
        func earlier(_ one: Self?, _ other: Self?) -> Self? {
            guard let one else { return other }
            guard let other else { return one }
            return min(one, other)
        }
        return earlier(earlier(earlier(first, second), earlier(third, fourth)), fifth)
    }
}
