import Testing
import WaymarkCore

@Suite struct FixFreshnessTests {
    /// GPS time of the first fix: 2010-04-11T16:57:44Z, the Regensburg drive.
    static let start = Timestamp(seconds: 1_271_005_064)
    static let threeYears = Duration.seconds(3 * 365 * 86_400)

    /// One fix of a stream: GPS time and arrival, as offsets in seconds from the stream's start.
    struct Fix {
        var time: Double
        var arrival: Double
        init(_ time: Double, arrivingAt arrival: Double? = nil) {
            self.time = time
            self.arrival = arrival ?? time + 0.2
        }
    }

    /// Judges a stream whose monotonic clock starts at `monotonicStart` and whose system clock reads GPS time
    /// plus `wallOffset`.
    static func verdicts(
        _ fixes: [Fix],
        maxAge: Duration = .seconds(10),
        wallOffset: Duration = .zero,
        synchronized: Bool = false,
        monotonicStart: Int64 = 42_000_000_000
    ) -> [FixFreshness.Verdict] {
        var judge = FixFreshness(maxAge: maxAge)
        return fixes.map { fix in
            let arrival = Duration.seconds(fix.arrival)
            return judge.judge(
                start.advanced(by: .seconds(fix.time)),
                arrival: MonotonicInstant(nanoseconds: monotonicStart) + arrival,
                wallClock: start.advanced(by: arrival + wallOffset),
                wallClockSynchronized: synchronized
            )
        }
    }

    static func steady(_ count: Int) -> [Fix] { (0..<count).map { Fix(Double($0)) } }

    @Test func aSteadyStreamIsFresh() {
        #expect(Self.verdicts(Self.steady(100)).allSatisfy { $0 == .fresh })
    }

    @Test("a wrong system clock changes nothing", arguments: [true, false], [-1, 1])
    func wrongSystemClock(synchronized: Bool, sign: Int) {
        let offset = Self.threeYears * sign
        #expect(
            Self.verdicts(Self.steady(50), wallOffset: offset, synchronized: synchronized).allSatisfy {
                $0 == .fresh
            }
        )
    }

    @Test func aFixArrivingLateIsStaleAndTheStreamGoesOn() {
        var fixes = Self.steady(10)
        fixes.append(Fix(5.5, arrivingAt: 30))  // GPS time 5.5 s, but newer than nothing: out of order
        fixes.append(Fix(10, arrivingAt: 30.5))  // 20.3 s late
        fixes.append(Fix(11))
        let verdicts = Self.verdicts(fixes)
        #expect(verdicts[10] == .outOfOrder)
        guard case .stale(let age) = verdicts[11] else {
            Issue.record("expected stale, got \(verdicts[11])")
            return
        }
        #expect(abs(age.secondsValue - 20.3) < 0.01, "20.5 s late against a delay of 0.2 s, less the creep")
        #expect(verdicts[12] == .fresh)
    }

    @Test func duplicatesAndOlderFixesAreRejected() {
        let verdicts = Self.verdicts([Fix(0), Fix(1), Fix(1), Fix(0.5), Fix(2)])
        #expect(verdicts == [.fresh, .fresh, .duplicate, .outOfOrder, .fresh])
    }

    @Test("a capture fed faster than real time is fresh")
    func fastFeed() {
        let fixes = (0..<1500).map { Fix(Double($0), arrivingAt: Double($0) / 1000) }
        #expect(Self.verdicts(fixes).allSatisfy { $0 == .fresh })
    }

    @Test("a synchronized clock that agrees with GPS time ages the first fix")
    func firstFixAgainstASynchronizedClock() {
        // The system clock reads 60 s past each fix's GPS time: gpsd handed out a fix it held.
        let held = Self.verdicts([Fix(0)], wallOffset: .seconds(60), synchronized: true)
        #expect(held == [.stale(age: .milliseconds(60_200))])
        // Unsynchronized, the same clock is not trusted.
        #expect(Self.verdicts([Fix(0)], wallOffset: .seconds(60)) == [.fresh])
    }

    @Test("when every fix is rejected for the reset window, the judge starts again and says so")
    func timeBaseReset() {
        // GPS time goes back 1024 weeks after 20 s (a receiver's week-number fault corrected).
        let weeks = 1024.0 * 7 * 86_400
        var fixes = Self.steady(20)
        fixes += (20..<40).map { Fix(Double($0) - weeks, arrivingAt: Double($0) + 0.2) }
        let verdicts = Self.verdicts(fixes)
        #expect(verdicts[20..<30].allSatisfy { $0 == .outOfOrder })
        guard case .timeBaseReset(let jump) = verdicts[30] else {
            Issue.record("expected a reset after 10 s of rejections, got \(verdicts[30])")
            return
        }
        #expect(abs(jump.secondsValue - weeks) < 1)
        #expect(verdicts[31...].allSatisfy { $0 == .fresh })
    }

    @Test("a fix glitched years ahead is held, and the fixes after it are fresh")
    func dateGlitch() {
        var fixes = Self.steady(5)
        fixes.append(Fix(5 + 20 * 365 * 86_400, arrivingAt: 5.2))
        fixes += (6..<10).map { Fix(Double($0)) }
        let verdicts = Self.verdicts(fixes)
        guard case .ahead(let lead) = verdicts[5] else {
            Issue.record("expected the glitch to be held, got \(verdicts[5])")
            return
        }
        #expect(lead > .seconds(20 * 365 * 86_400 - 10))
        #expect(verdicts[6...].allSatisfy { $0 == .fresh })
    }

    @Test("GPS time moving forward for good restarts the judge after the reset window")
    func forwardTimeBase() {
        let weeks = 1024.0 * 7 * 86_400
        var fixes = Self.steady(20)
        fixes += (20..<40).map { Fix(Double($0) + weeks, arrivingAt: Double($0) + 0.2) }
        let verdicts = Self.verdicts(fixes)
        #expect(verdicts[20..<30].allSatisfy { if case .ahead = $0 { true } else { false } })
        guard case .timeBaseReset(let jump) = verdicts[30] else {
            Issue.record("expected a reset after 10 s, got \(verdicts[30])")
            return
        }
        #expect(abs(jump.secondsValue + weeks) < 1)
        #expect(verdicts[31...].allSatisfy { $0 == .fresh })
    }

    @Test("a synchronized clock minutes off makes the first fixes stale, then the judge recovers")
    func synchronizedClockMinutesOff() {
        let verdicts = Self.verdicts(Self.steady(30), wallOffset: .seconds(300), synchronized: true)
        let reset = verdicts.firstIndex { if case .timeBaseReset = $0 { true } else { false } }
        #expect((10...11).contains(reset ?? -1), "a reset once every fix was stale for 10 s: \(verdicts)")
        let firstFresh = (reset ?? 0) + 1
        #expect(verdicts[..<(reset ?? 0)].allSatisfy { if case .stale = $0 { true } else { false } })
        #expect(verdicts[firstFresh...].allSatisfy { $0 == .fresh })
    }

    @Test("a burst of held fixes does not reset the judge")
    func burstOfStaleFixes() {
        var fixes = Self.steady(100)
        // gpsd flushes 20 fixes it held for a minute, all within 0.1 s.
        fixes += (0..<20).map { Fix(100 + Double($0) * 0.5 - 60, arrivingAt: 100 + Double($0) * 0.005) }
        let verdicts = Self.verdicts(fixes)
        #expect(verdicts[100...].allSatisfy { $0 == .outOfOrder })
    }

    @Test func zeroMaxAgeChecksOnlyTheOrder() {
        let verdicts = Self.verdicts([Fix(0), Fix(1, arrivingAt: 500), Fix(0.5)], maxAge: .zero)
        #expect(verdicts == [.fresh, .fresh, .outOfOrder])
    }

    @Test("a monotonic clock drifting 150 ppm against GPS time stays fresh for two days")
    func drift() {
        let fixes = stride(from: 0.0, to: 172_800, by: 10).map { Fix($0, arrivingAt: $0 * 1.000_15 + 0.2) }
        #expect(Self.verdicts(fixes).allSatisfy { $0 == .fresh })
    }

    @Test("times beyond Int64 nanoseconds do not trap")
    func extremeTimes() {
        var judge = FixFreshness(maxAge: .seconds(10))
        let far = Timestamp(seconds: 400_000_000_000)
        _ = judge.judge(far, arrival: .zero, wallClock: Self.start, wallClockSynchronized: true)
        let verdict = judge.judge(Self.start, arrival: .zero, wallClock: far, wallClockSynchronized: true)
        #expect(verdict == .outOfOrder)
    }
}
