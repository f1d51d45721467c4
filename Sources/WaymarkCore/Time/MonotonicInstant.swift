/// A reading of a monotonic clock: every timeout, interval, dwell and delay is measured with it.
///
/// Live, it comes from `ContinuousClock`; in replay, from a simulated clock driven by the capture's own
/// times. The origin is arbitrary: only differences between two instants mean anything.
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
