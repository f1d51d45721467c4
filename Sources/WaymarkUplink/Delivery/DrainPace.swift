import WaymarkCore

/// The pace of a sink whose broker acknowledges a message before its consumers read it (MQTT's PUBACK): at most
/// ``rate`` messages a second, as a token bucket that holds one second's worth. A backlog then reaches the broker
/// no faster than a consumer behind it reads, and the broker's queue for that consumer (mosquitto's
/// `max_queued_messages`, 1,000 by default) stays short instead of overflowing, which drops messages the broker
/// already acknowledged.
///
/// Pure: every call takes `now`. Messages go in steps of ``step`` (a tenth of a second's worth), so a paced drain
/// wakes ten times a second, not once per message.
public struct DrainPace: Sendable, Equatable {
    /// Messages a second, at least 1.
    public let rate: Int
    /// The fewest messages one step sends once the bucket ran dry: a tenth of ``rate``, at least 1.
    public var step: Int { max(1, rate / 10) }
    /// Messages that may go now; below zero when messages went ahead of the pace (the newest positions during a
    /// drain), which the next ones then wait for.
    private var tokens: Double
    private var updated: MonotonicInstant?

    /// A pace of `rate` messages a second (at least 1), its bucket full.
    public init(rate: Int) {
        precondition(rate > 0, "DrainPace: a rate of at least one message a second")
        self.rate = rate
        tokens = Double(rate)
    }

    /// How many messages may go at `now`: 0 until a whole ``step`` has come back into the bucket.
    public mutating func allowance(now: MonotonicInstant) -> Int {
        refill(now)
        return tokens >= Double(step) ? Int(tokens) : 0
    }

    /// Counts `count` messages sent at `now`.
    public mutating func spend(_ count: Int, now: MonotonicInstant) {
        refill(now)
        tokens -= Double(count)
    }

    /// When ``allowance(now:)`` is next above 0: `now` when it already is.
    public func nextStep(after now: MonotonicInstant) -> MonotonicInstant {
        var pace = self
        pace.refill(now)
        let missing = Double(step) - pace.tokens
        guard missing > 0 else { return now }
        return now + .nanoseconds(Int64((missing / Double(rate) * 1e9).rounded(.up)))
    }

    private mutating func refill(_ now: MonotonicInstant) {
        if let updated, now > updated {
            tokens = min(Double(rate), tokens + Double(rate) * (now - updated).secondsValue)
        }
        if updated.map({ now > $0 }) ?? true { updated = now }
    }
}
