import Testing
import WaymarkCore
import WaymarkTestSupport

@Suite struct BackoffTests {
    /// The delays of `count` consecutive attempts.
    static func delays(
        _ backoff: inout Backoff,
        count: Int,
        using generator: inout some RandomNumberGenerator
    )
        -> [Duration]
    {
        (0..<count).map { _ in backoff.nextDelay(using: &generator) }
    }

    /// What the delay of attempt `attempt` (0-based) is before jitter.
    static func nominal(_ attempt: Int, minimum: Duration, maximum: Duration) -> Duration {
        var delay = minimum
        for _ in 0..<attempt where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }

    @Test func withoutJitterDelaysDoubleFromOneSecondToThirty() {
        var backoff = Backoff(jitter: 0)
        var generator = SplitMix64(seed: 1)
        let seconds = Self.delays(&backoff, count: 9, using: &generator)
        #expect(seconds == [1, 2, 4, 8, 16, 30, 30, 30, 30].map { Duration.seconds($0) })
    }

    @Test func withoutJitterCustomBoundsAreExact() {
        var backoff = Backoff(minimum: .milliseconds(250), maximum: .seconds(2), jitter: 0)
        var generator = SplitMix64(seed: 1)
        let delays = Self.delays(&backoff, count: 6, using: &generator)
        #expect(delays == [250, 500, 1000, 2000, 2000, 2000].map { Duration.milliseconds($0) })
    }

    @Test func equalMinimumAndMaximumNeverGrow() {
        var backoff = Backoff(minimum: .seconds(5), maximum: .seconds(5), jitter: 0)
        var generator = SplitMix64(seed: 1)
        #expect(Self.delays(&backoff, count: 4, using: &generator) == Array(repeating: .seconds(5), count: 4))
    }

    @Test func defaultsAreOneSecondToThirtyWithTwentyPercentJitter() {
        let backoff = Backoff()
        #expect(backoff.minimum == .seconds(1))
        #expect(backoff.maximum == .seconds(30))
        #expect(backoff.jitter == 0.2)
    }

    struct Jittered: Sendable, CustomTestStringConvertible {
        let seed: UInt64
        let jitter: Double
        var testDescription: String { "seed \(seed), jitter \(jitter)" }
    }

    static let jittered: [Jittered] = [1, 42, 0xDEAD_BEEF, .max].flatMap { seed in
        [0.1, 0.2, 0.5, 1.0].map { Jittered(seed: seed, jitter: $0) }
    }

    @Test(arguments: jittered)
    func jitteredDelaysStayBetweenTheShortenedAndTheNominalDelay(_ row: Jittered) {
        var backoff = Backoff(minimum: .seconds(1), maximum: .seconds(30), jitter: row.jitter)
        var generator = SplitMix64(seed: row.seed)
        let delays = Self.delays(&backoff, count: 40, using: &generator)
        for (attempt, delay) in delays.enumerated() {
            let nominal = Self.nominal(attempt, minimum: .seconds(1), maximum: .seconds(30))
            #expect(delay <= nominal, "attempt \(attempt)")
            #expect(delay <= .seconds(30), "attempt \(attempt)")
            // One nanosecond of slack for the rounding to whole nanoseconds.
            #expect(delay.secondsValue >= (1 - row.jitter) * nominal.secondsValue - 1e-9, "attempt \(attempt)")
        }
    }

    @Test func jitterShortensDelaysByDifferentAmounts() {
        var firstDelays: [Double] = []
        for seed in UInt64(0)..<200 {
            var backoff = Backoff(jitter: 0.2)
            var generator = SplitMix64(seed: seed)
            firstDelays.append(backoff.nextDelay(using: &generator).secondsValue)
        }
        #expect(Set(firstDelays).count > 150)
        #expect(firstDelays.min()! < 0.82)
        #expect(firstDelays.max()! > 0.98)
        let mean = firstDelays.reduce(0, +) / Double(firstDelays.count)
        #expect(abs(mean - 0.9) < 0.02)
    }

    @Test func jitterAtEitherEndOfTheRandomRange() {
        var shortest = Backoff(jitter: 0.2)
        var high = ConstantGenerator(word: .max)
        let short = Self.delays(&shortest, count: 6, using: &high)
        let expected = [0.8, 1.6, 3.2, 6.4, 12.8, 24.0]
        for (delay, seconds) in zip(short, expected) {
            #expect(abs(delay.secondsValue - seconds) < 1e-6)
        }

        var longest = Backoff(jitter: 0.2)
        var low = ConstantGenerator(word: 0)
        #expect(Self.delays(&longest, count: 6, using: &low) == [1, 2, 4, 8, 16, 30].map { Duration.seconds($0) })
    }

    @Test func sameSeedGivesTheSameDelays() {
        var first = Backoff()
        var second = Backoff()
        var generator1 = SplitMix64(seed: 2_024)
        var generator2 = SplitMix64(seed: 2_024)
        let delays = Self.delays(&first, count: 10, using: &generator1)
        #expect(delays == Self.delays(&second, count: 10, using: &generator2))
    }

    @Test func resetStartsOverFromTheMinimum() {
        var backoff = Backoff(jitter: 0)
        var generator = SplitMix64(seed: 7)
        _ = Self.delays(&backoff, count: 7, using: &generator)
        #expect(backoff.nextDelay(using: &generator) == .seconds(30))
        backoff.reset()
        #expect(Self.delays(&backoff, count: 3, using: &generator) == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test func resetWithJitterStartsNearTheMinimumAgain() {
        var backoff = Backoff(jitter: 0.2)
        var generator = SplitMix64(seed: 99)
        _ = Self.delays(&backoff, count: 10, using: &generator)
        backoff.reset()
        let delay = backoff.nextDelay(using: &generator)
        #expect(delay <= .seconds(1))
        #expect(delay >= .milliseconds(800))
    }

    @Test func manyAttemptsNeverExceedTheMaximum() {
        var backoff = Backoff(minimum: .milliseconds(1), maximum: .seconds(60), jitter: 0)
        var generator = SplitMix64(seed: 3)
        let delays = Self.delays(&backoff, count: 100, using: &generator)
        #expect(delays.max() == .seconds(60))
        #expect(delays.suffix(50).allSatisfy { $0 == .seconds(60) })
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
