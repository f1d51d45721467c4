import Glibc
import Synchronization
import Testing
import WaymarkSystem

/// ``DedicatedThread``, ``MonotonicCondition`` and ``WakeSignal``: the threads the agent starts, how they
/// sleep and how they are woken.
@Suite struct ThreadsTests {
    @Test("a dedicated thread runs its body under its name, cut to the 15 bytes Linux keeps")
    func dedicatedThread() throws {
        let condition = MonotonicCondition()
        let name = Mutex<String?>(nil)
        DedicatedThread.start(name: "waymark test thread") {
            let comm = (try? Files.contents("/proc/thread-self/comm")) ?? []
            condition.locked {
                name.withLock { $0 = String(decoding: comm, as: UTF8.self) }
                condition.broadcast()
            }
        }
        let deadline = SystemClocks.monotonicNanoseconds() + 10_000_000_000
        condition.locked {
            while name.withLock({ $0 }) == nil { if condition.wait(untilNanoseconds: deadline) { break } }
        }
        #expect(name.withLock { $0 } == "waymark test th\n")
    }

    @Test("a wait ends at its deadline on the monotonic clock, and at once for a deadline passed")
    func deadline() {
        let condition = MonotonicCondition()
        let start = SystemClocks.monotonicNanoseconds()
        let passed = condition.locked { condition.wait(untilNanoseconds: start - 1) }
        #expect(passed)
        let timedOut = condition.locked {
            var timedOut = false
            while !timedOut { timedOut = condition.wait(untilNanoseconds: start + 20_000_000) }
            return timedOut
        }
        #expect(timedOut && SystemClocks.monotonicNanoseconds() - start >= 20_000_000)
    }

    @Test("a wake signal makes its descriptor readable until drained; signals before the sleep are kept")
    func wakeSignal() {
        let wake = WakeSignal()
        #expect(wake.descriptor >= 0 && wake.failure == nil)
        func readable() -> Bool {
            var entry = pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, 0) == 1
        }
        #expect(!readable())
        wake.signal()
        wake.signal()
        #expect(readable())
        wake.drain()
        #expect(!readable())
    }
}
