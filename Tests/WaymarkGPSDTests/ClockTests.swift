import Testing
import WaymarkCore
import WaymarkGPSD
import WaymarkTestSupport

/// The clocks (docs/architecture.md, "Clocks") on a real drive: a wrong system clock drops no fix as stale.
/// gpsd 3.22 reports the 2010 Regensburg drive in 2029 (its 1024-week correction); the board's clock is moved
/// 3 years either side of that, synchronized or not.
@Suite("A wrong system clock drops no fix")
struct ClockTests {
    static let drive = "20100411_Geko_Regensburg.log"
    static let threeYears = Duration.seconds(3 * 365 * 86_400)
    static let threeYearsBack = Duration.seconds(-3 * 365 * 86_400)

    /// Runs `updates` through the pipeline with the system clock reading GPS time plus `offset` (the first
    /// fix's GPS time against its arrival), and `synchronized` as the kernel's verdict.
    static func counters(_ updates: [SourceUpdate], offset: Duration?, synchronized: Bool) -> Counters {
        var pipeline = EventPipeline()
        let shift: Duration? = offset.flatMap { offset in
            updates.lazy.compactMap { update -> Duration? in
                guard case .location(let location) = update.event else { return nil }
                return location.time.duration(since: update.wallClock) + offset
            }.first
        }
        for var update in updates {
            if let shift { update.wallClock = update.wallClock.advanced(by: shift) }
            update.wallClockSynchronized = synchronized
            _ = pipeline.handle(update)
        }
        return pipeline.counters
    }

    @Test("live through gpsd", arguments: [nil, threeYearsBack, threeYears], [false, true])
    func live(offset: Duration?, synchronized: Bool) async throws {
        let updates = try await collectLive(log: Self.drive)
        let counters = Self.counters(updates, offset: offset, synchronized: synchronized)
        #expect(counters["location"] == 774)
        #expect(counters["stale"] == 0)
        #expect(counters["out_of_order"] == 0)
    }

    @Test("replayed on the simulated clock", arguments: [threeYearsBack, threeYears], [false, true])
    func replay(offset: Duration, synchronized: Bool) throws {
        let updates = try collectReplay(Fixtures.gpsdLog(Self.drive + ".chk"))
        let counters = Self.counters(updates, offset: offset, synchronized: synchronized)
        #expect(counters["location"] == 774)
        #expect(counters["stale"] == 0)
    }

    @Test("a synchronized clock that agrees with GPS time does age the first fix")
    func agreeingClock() async throws {
        // The control: the same drive, with the system clock a minute past GPS time and trusted.
        let updates = try collectReplay(Fixtures.gpsdLog(Self.drive + ".chk"))
        let counters = Self.counters(updates, offset: .seconds(60), synchronized: true)
        #expect(counters["stale"] >= 1)
        #expect(counters["location"] >= 700, "the judge recovers within the stream")
    }
}
