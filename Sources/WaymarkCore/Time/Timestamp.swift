/// An instant in UTC, to the nanosecond: GPS time of a fix, or the system time an event was received.
///
/// Waymark keeps its own type instead of `Date` so that it parses and prints ISO 8601 without Foundation's
/// formatters (replay runs at hundreds of thousands of fixes per second) and never loses nanoseconds.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// Nanoseconds within the second, 0 ..< 1_000_000_000.
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        precondition((0..<1_000_000_000).contains(nanoseconds), "nanoseconds out of range")
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public init(secondsSince1970 value: Double) {
        let whole = value.rounded(.down)
        var nanos = ((value - whole) * 1e9).rounded()
        var seconds = Int64(whole)
        if nanos >= 1e9 {
            nanos -= 1e9
            seconds += 1
        }
        self.init(seconds: seconds, nanoseconds: Int32(nanos))
    }

    public var secondsSince1970: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// The time from `other` to `self`.
    public func duration(since other: Timestamp) -> Duration {
        .seconds(seconds - other.seconds) + .nanoseconds(Int64(nanoseconds) - Int64(other.nanoseconds))
    }

    public func advanced(by duration: Duration) -> Timestamp {
        let (whole, attoseconds) = duration.components
        var seconds = self.seconds + whole
        var nanos = Int64(nanoseconds) + attoseconds / 1_000_000_000
        if nanos >= 1_000_000_000 {
            nanos -= 1_000_000_000
            seconds += 1
        } else if nanos < 0 {
            nanos += 1_000_000_000
            seconds -= 1
        }
        return Timestamp(seconds: seconds, nanoseconds: Int32(nanos))
    }
}

extension Timestamp: CustomStringConvertible {
    public var description: String { iso8601 }
}

extension Timestamp {
    /// Nanoseconds since 1970, saturating beyond the years 1677 ... 2262 that `Int64` holds.
    public var nanosecondsSince1970: Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, sumOverflow) = product.addingReportingOverflow(Int64(nanoseconds))
        guard !overflow, !sumOverflow else { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The instant `value` nanoseconds after 1970 (before it when negative).
    public init(nanosecondsSince1970 value: Int64) {
        let (seconds, remainder) = value.quotientAndRemainder(dividingBy: 1_000_000_000)
        self =
            remainder < 0
            ? Timestamp(seconds: seconds - 1, nanoseconds: Int32(remainder + 1_000_000_000))
            : Timestamp(seconds: seconds, nanoseconds: Int32(remainder))
    }
}
