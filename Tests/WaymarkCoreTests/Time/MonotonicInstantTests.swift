import Testing
import WaymarkCore

@Suite struct MonotonicInstantTests {
    @Test func addingADurationMovesTheInstantByItsNanoseconds() {
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        #expect(start + .milliseconds(500) == MonotonicInstant(nanoseconds: 5_500_000_000))
        #expect(start + .seconds(-6) == MonotonicInstant(nanoseconds: -1_000_000_000))
        #expect(start + .nanoseconds(1) == MonotonicInstant(nanoseconds: 5_000_000_001))
        #expect(start + .zero == start)
        #expect(MonotonicInstant.zero + .microseconds(3) == MonotonicInstant(nanoseconds: 3_000))
    }

    /// A deadline (a sleep's, `GlobalExecutor.sleep(for:)`) is held at the clock's ends, not wrapped past them.
    @Test func addingSaturatesAtTheEnds() {
        let now = MonotonicInstant(nanoseconds: 12_345_000_000_000)
        #expect(now + .seconds(Int64.max) == MonotonicInstant(nanoseconds: .max))
        #expect(now + .seconds(9_223_372_036) == MonotonicInstant(nanoseconds: .max))
        #expect(MonotonicInstant(nanoseconds: -5) + .seconds(Int64.min) == MonotonicInstant(nanoseconds: .min))
        #expect(now + .seconds(-1) < now)
        #expect(now + .milliseconds(1500) == MonotonicInstant(nanoseconds: 12_346_500_000_000))
    }

    @Test func subtractingInstantsGivesTheSignedDurationBetweenThem() {
        let earlier = MonotonicInstant(nanoseconds: 1_250_000_000)
        let later = MonotonicInstant(nanoseconds: 3_000_000_001)
        #expect(later - earlier == .nanoseconds(1_750_000_001))
        #expect(earlier - later == .nanoseconds(-1_750_000_001))
        #expect(earlier - earlier == .zero)
        #expect(earlier + (later - earlier) == later)
    }

    @Test func instantsOrderByNanoseconds() {
        let instants = [-1_000, 0, 1, 999_999_999, 1_000_000_000].map { MonotonicInstant(nanoseconds: $0) }
        #expect(instants.reversed().sorted() == instants)
        #expect(MonotonicInstant(nanoseconds: -1) < .zero)
        #expect(!(MonotonicInstant.zero < .zero))
        #expect(MonotonicInstant.zero.nanoseconds == 0)
    }

    struct Conversion: Sendable, CustomTestStringConvertible {
        let duration: Duration
        let nanoseconds: Int64
        let testDescription: String
    }

    @Test(arguments: [
        Conversion(duration: .zero, nanoseconds: 0, testDescription: "zero"),
        Conversion(duration: .nanoseconds(1), nanoseconds: 1, testDescription: "1 ns"),
        Conversion(duration: .microseconds(3), nanoseconds: 3_000, testDescription: "3 µs"),
        Conversion(duration: .milliseconds(500), nanoseconds: 500_000_000, testDescription: "500 ms"),
        Conversion(duration: .seconds(30), nanoseconds: 30_000_000_000, testDescription: "30 s"),
        Conversion(duration: .milliseconds(-1500), nanoseconds: -1_500_000_000, testDescription: "-1.5 s"),
        Conversion(duration: .nanoseconds(-1), nanoseconds: -1, testDescription: "-1 ns"),
        Conversion(duration: .seconds(1.25), nanoseconds: 1_250_000_000, testDescription: "1.25 s as a Double"),
        Conversion(
            duration: Duration(secondsComponent: 2, attosecondsComponent: 999_999_999),
            nanoseconds: 2_000_000_000,
            testDescription: "below a nanosecond is dropped"
        ),
        Conversion(
            duration: .seconds(86_400 * 365 * 100),
            nanoseconds: 3_153_600_000_000_000_000,
            testDescription: "a century"
        ),
        Conversion(duration: .seconds(Int64.max), nanoseconds: .max, testDescription: "saturates high"),
        Conversion(duration: .seconds(Int64.min), nanoseconds: .min, testDescription: "saturates low"),
    ])
    func durationNanosecondsAreWholeNanoseconds(_ conversion: Conversion) {
        #expect(conversion.duration.nanoseconds == conversion.nanoseconds)
    }

    @Test(arguments: [
        (Duration.zero, 0.0),
        (.milliseconds(1500), 1.5),
        (.milliseconds(-250), -0.25),
        (.nanoseconds(1), 1e-9),
        (.seconds(30), 30.0),
    ])
    func durationSecondsValueIsFractionalSeconds(_ duration: Duration, _ seconds: Double) {
        #expect(abs(duration.secondsValue - seconds) < 1e-15)
    }

    /// `Duration.nanoseconds` promises to saturate beyond Waymark's range; just past `Int64.max` nanoseconds
    /// (about 292 years) with a fractional second, the addition overflows and the process traps instead.
    @Test("Duration.nanoseconds saturates near Int64.max instead of trapping")
    func durationNanosecondsSaturatesInsteadOfTrapping() async {
        await #expect(processExitsWith: .success) {
            let duration = Duration.seconds(9_223_372_036) + .milliseconds(900)
            precondition(duration.nanoseconds == .max)
        }
    }
}
