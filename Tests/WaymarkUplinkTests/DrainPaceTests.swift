import Testing
import WaymarkCore
import WaymarkUplink

/// `drain_rate`: a token bucket of one second's worth, in steps of a tenth.
@Suite struct DrainPaceTests {
    static func at(_ milliseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: milliseconds * 1_000_000)
    }

    /// (rate, messages sent at 0 ms, when asked, expected allowance, expected next step in ms)
    @Test(arguments: [
        (100, 0, Int64(0), 100, Int64(0)),  // a full bucket: one second's worth at once
        (100, 100, 0, 0, 100),  // empty: a step (10) comes back in 100 ms
        (100, 100, 50, 0, 100),  // half a step back: still nothing
        (100, 100, 100, 10, 100),  // a step back
        (100, 100, 2_000, 100, 2_000),  // never more than a second's worth
        (100, 150, 0, 0, 600),  // 50 went ahead of the pace: 500 ms more
        (5, 5, 0, 0, 200),  // a step is at least one message
        (1, 1, 999, 0, 1_000),
    ])
    func allowance(rate: Int, sent: Int, asked: Int64, allowance: Int, nextStep: Int64) {
        var pace = DrainPace(rate: rate)
        pace.spend(sent, now: Self.at(0))
        // Never early, and late by less than a microsecond of rounding.
        let late = pace.nextStep(after: Self.at(asked)) - Self.at(max(asked, nextStep))
        #expect(late >= .zero && late < .microseconds(1), "\(late)")
        #expect(pace.allowance(now: Self.at(asked)) == allowance)
    }

    @Test func aDrainGoesAtTheRate() {
        var pace = DrainPace(rate: 100)
        var now = Self.at(0)
        var sent = 0
        // Sending whatever is allowed, then waiting for the next step, for 10 s.
        while now < Self.at(10_000) {
            let allowance = pace.allowance(now: now)
            if allowance > 0 {
                pace.spend(allowance, now: now)
                sent += allowance
            }
            now = max(pace.nextStep(after: now), now + .milliseconds(1))
        }
        // A second's worth at first, then the rate.
        #expect((1_090...1_110).contains(sent), "\(sent)")
    }
}
