import WaymarkCore

/// A network sink's byte budget per UTC day (`max_bytes_per_day`), for a metered cellular link: what it sent today,
/// and whether locations must wait for tomorrow. The day is the system clock's: a board whose clock is wrong
/// spends its budget on the wrong day, never twice in one.
///
/// Pure: the caller passes the system time.
public struct DailyBudget: Hashable, Sendable {
    /// The most bytes (on the wire, both ways) a day.
    public let limit: Int64
    /// The day counted, in days since 1970; nil before anything was spent.
    public private(set) var day: Int64?
    /// Bytes spent on ``day``.
    public private(set) var spent: Int64 = 0

    public init(limit: Int64) { self.limit = limit }

    /// Counts `bytes` sent at `wallClock`; a new day starts from nothing.
    public mutating func spend(_ bytes: Int, at wallClock: Timestamp) {
        let today = Self.day(of: wallClock)
        if day != today {
            day = today
            spent = 0
        }
        spent += Int64(bytes)
    }

    /// Whether today's budget is used up at `wallClock`.
    public func isExhausted(at wallClock: Timestamp) -> Bool {
        day == Self.day(of: wallClock) && spent >= limit
    }

    /// How long from `wallClock` until the next UTC midnight, when the budget is whole again.
    public static func untilTomorrow(from wallClock: Timestamp) -> Duration {
        let midnight = Timestamp(seconds: (day(of: wallClock) + 1) * 86_400)
        return midnight.duration(since: wallClock)
    }

    private static func day(of time: Timestamp) -> Int64 {
        let (quotient, remainder) = time.seconds.quotientAndRemainder(dividingBy: 86_400)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
