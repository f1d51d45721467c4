import Testing
import WaymarkSystem

/// ``SystemClocks``: the monotonic clock never goes back, the system clock is read whole.
@Suite struct SystemClocksTests {
    @Test("the clocks: the monotonic one never goes back, the system one is today's")
    func clocks() {
        let first = SystemClocks.monotonicNanoseconds()
        #expect(SystemClocks.monotonicNanoseconds() >= first)
        #expect(SystemClocks.wallTime().seconds > 1_767_225_600)  // 2026-01-01
        let nanoseconds = SystemClocks.wallTime().nanoseconds
        #expect((0..<1_000_000_000).contains(nanoseconds))
    }
}
