/// Exponential backoff with jitter for reconnecting: `minimum`, then doubling up to `maximum`, each delay
/// shortened by a random fraction of up to `jitter` so that many boards restarting together spread out.
public struct Backoff: Sendable {
    public let minimum: Duration
    public let maximum: Duration
    public let jitter: Double
    private var attempt = 0

    public init(minimum: Duration = .seconds(1), maximum: Duration = .seconds(30), jitter: Double = 0.2) {
        precondition(minimum > .zero && maximum >= minimum && (0...1).contains(jitter))
        self.minimum = minimum
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The delay before the next attempt; each call doubles the nominal delay until `maximum`.
    public mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Duration {
        let nominal = min(maximum.secondsValue, minimum.secondsValue * Double(1 << min(attempt, 30)))
        attempt += 1
        let factor = 1 - jitter * Double.random(in: 0..<1, using: &generator)
        return .nanoseconds(Int64((nominal * factor * 1e9).rounded()))
    }

    /// Starts again from `minimum`: call after a connection succeeded.
    public mutating func reset() { attempt = 0 }
}
