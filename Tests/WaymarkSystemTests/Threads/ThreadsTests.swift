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

    @Test("a dedicated thread starts with the signals a process is sent blocked, and those of faults not")
    func blockedSignals() throws {
        let condition = MonotonicCondition()
        let mask = Mutex<UInt64?>(nil)
        // Started from a thread with no signal blocked (this test's thread, a libdispatch worker, blocks most).
        var none = sigset_t()
        sigemptyset(&none)
        var before = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        var creator = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &creator)
        DedicatedThread.start(name: "waymark signals") {
            let status = String(decoding: (try? Files.contents("/proc/thread-self/status")) ?? [], as: UTF8.self)
            let line = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
            let bits = line.flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
            condition.locked {
                mask.withLock { $0 = bits ?? 0 }
                condition.broadcast()
            }
        }
        let deadline = SystemClocks.monotonicNanoseconds() + 10_000_000_000
        condition.locked {
            while mask.withLock({ $0 }) == nil { if condition.wait(untilNanoseconds: deadline) { break } }
        }
        let blocked = try #require(mask.withLock { $0 })
        func isBlocked(_ signal: Int32) -> Bool { blocked & (1 << UInt64(signal - 1)) != 0 }
        #expect([SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD].allSatisfy(isBlocked))
        let faultsAndOthers = [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGPIPE, SIGPROF]
        #expect(!faultsAndOthers.contains(where: isBlocked))
        // The creator's own mask is left as it was: none blocked.
        var after = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &after)
        #expect((1..<32).allSatisfy { sigismember(&creator, $0) == 0 && sigismember(&after, $0) == 0 })
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
