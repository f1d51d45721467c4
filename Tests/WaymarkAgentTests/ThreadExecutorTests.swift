import Foundation
import Synchronization
import Testing
import WaymarkCore
import WaymarkSystem
import WaymarkTestSupport

@testable import WaymarkAgent

@Suite("ThreadExecutor: a task's code on a thread of its own")
struct ThreadExecutorTests {
    /// The name of the thread that calls it (Linux `comm`).
    static func currentThreadName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .newlines)
    }

    @Test("the code resumes on its thread after every await, and leaves it with the scope")
    func resumesOnItsThread() async {
        let name = "texec resume"
        let executor = ThreadExecutor(name: name)
        defer { executor.shutDown() }
        let names = await withTaskExecutorPreference(executor) {
            var names = [Self.currentThreadName()]
            await Task.yield()
            names.append(Self.currentThreadName())
            // Resumed by a task on the cooperative pool.
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            Task.detached {
                continuation.yield(1)
                continuation.finish()
            }
            for await _ in stream { names.append(Self.currentThreadName()) }
            try? await Task.sleep(for: .milliseconds(5))
            names.append(Self.currentThreadName())
            return names
        }
        #expect(names == Array(repeating: name, count: 4))
        await Task.yield()
        #expect(Self.currentThreadName() != name)
    }

    @Test("child tasks run on the same thread, one at a time, in the order they came")
    func childTasks() async {
        let name = "texec children"
        let executor = ThreadExecutor(name: name)
        defer { executor.shutDown() }
        let results = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: (Int, String).self, returning: [(Int, String)].self) { group in
                for index in 0..<100 { group.addTask { (index, Self.currentThreadName()) } }
                var results: [(Int, String)] = []
                for await result in group { results.append(result) }
                return results
            }
        }
        #expect(results.map(\.0) == Array(0..<100))
        #expect(results.allSatisfy { $0.1 == name })
    }

    @Test("shut down, its thread ends")
    func threadEnds() async throws {
        let name = "texec end"
        let executor = ThreadExecutor(name: name)
        await withTaskExecutorPreference(executor) { await Task.yield() }
        #expect(ProcessResources.threads(named: name) == 1)
        executor.shutDown()
        for _ in 0..<200 where ProcessResources.threads(named: name) > 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(ProcessResources.threads(named: name) == 0)
    }

    @Test("a task that comes after the shutdown still runs, on the cooperative pool")
    func afterShutDown() async {
        let name = "texec late"
        let executor = ThreadExecutor(name: name)
        executor.shutDown()
        let ran = await Task(executorPreference: executor) { Self.currentThreadName() }.value
        #expect(!ran.isEmpty && ran != name)
    }

    /// Where alarms report: when each went off, and on which thread.
    final class Rings: @unchecked Sendable {
        private let lock = NSLock()
        private var rings: [(label: String, at: MonotonicInstant, thread: String)] = []

        func ring(_ label: String) {
            let ring = (label, SystemClocks.monotonic(), ThreadExecutorTests.currentThreadName())
            lock.withLock { rings.append(ring) }
        }

        var all: [(label: String, at: MonotonicInstant, thread: String)] { lock.withLock { rings } }

        func wait(for count: Int) async throws {
            for _ in 0..<300 where all.count < count { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    @Test("the alarm runs its action on the thread, once, at its deadline and not before")
    func alarmRings() async throws {
        let name = "texec alarm"
        let executor = ThreadExecutor(name: name)
        defer { executor.shutDown() }
        let rings = Rings()
        let deadline = SystemClocks.monotonic() + .milliseconds(60)
        executor.setAlarm(at: deadline) { rings.ring("alarm") }
        try await rings.wait(for: 1)
        try await Task.sleep(for: .milliseconds(100))
        let all = rings.all
        try #require(all.count == 1)
        #expect(all[0].thread == name)
        #expect(all[0].at >= deadline + ThreadExecutor.alarmLateness)
    }

    @Test("moved later from another thread, the alarm does not wake the thread, and goes off at its new time")
    func alarmMovedLater() async throws {
        let name = "texec later"
        let executor = ThreadExecutor(name: name)
        defer { executor.shutDown() }
        let rings = Rings()
        // No deadline passes while the thread is watched, so a loaded machine (the whole suite at once) cannot
        // make this fail: only a wake-up for the move itself does.
        executor.setAlarm(at: SystemClocks.monotonic() + .seconds(600)) { rings.ring("first") }
        for _ in 0..<1000 where ProcessResources.state(ofThread: name) != "S" {
            try await Task.sleep(for: .milliseconds(2))
        }
        let sleeping = try #require(ProcessResources.voluntarySwitches(ofThread: name))
        executor.setAlarm(at: SystemClocks.monotonic() + .seconds(1200)) { rings.ring("later") }
        try await Task.sleep(for: .milliseconds(200))
        #expect(ProcessResources.voluntarySwitches(ofThread: name) == sleeping)
        #expect(rings.all.isEmpty)
        // Moved again, now soon: it goes off once, with the action set last.
        let soon = SystemClocks.monotonic() + .milliseconds(50)
        executor.setAlarm(at: soon) { rings.ring("moved") }
        try await rings.wait(for: 1)
        #expect(rings.all.map(\.label) == ["moved"])
        #expect(rings.all.first.map { $0.at >= soon } == true)
    }

    @Test("moved earlier, the alarm goes off at the earlier time; cleared, it never does")
    func alarmMovedEarlierAndCleared() async throws {
        let executor = ThreadExecutor(name: "texec earlier")
        defer { executor.shutDown() }
        let rings = Rings()
        // Set and moved at once: a loaded machine (the whole suite at once) may hold this task for seconds.
        executor.setAlarm(at: SystemClocks.monotonic() + .seconds(600)) { rings.ring("late") }
        executor.setAlarm(at: SystemClocks.monotonic() + .milliseconds(80)) { rings.ring("early") }
        try await rings.wait(for: 1)
        #expect(rings.all.map(\.label) == ["early"])
        executor.setAlarm(at: SystemClocks.monotonic() + .seconds(1)) { rings.ring("cleared") }
        executor.setAlarm(at: nil)
        try await Task.sleep(for: .milliseconds(1300))
        #expect(rings.all.map(\.label) == ["early"])
    }

    @Test("a timer the kernel refuses to arm: said once, and the alarms still go off, late rather than never")
    func refusedTimer() async throws {
        let refusals = Mutex<[String]>([])
        let executor = ThreadExecutor(name: "texec refused") { reason in refusals.withLock { $0.append(reason) } }
        defer { executor.shutDown() }
        // A pipe's write end in place of the timerfd: timerfd_settime refuses it (EINVAL), and poll never finds it
        // readable, as a timer that never goes off.
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]) }
        try #require(dup2(pipeEnds[1], executor.alarmDescriptorForTesting) >= 0)
        close(pipeEnds[1])
        let rings = Rings()
        for round in 0..<2 {
            let deadline = SystemClocks.monotonic() + .milliseconds(50)
            executor.setAlarm(at: deadline) { rings.ring("alarm \(round)") }
            try await rings.wait(for: round + 1)
            #expect(rings.all.map(\.label) == (0...round).map { "alarm \($0)" })
            #expect(rings.all.last.map { $0.at >= deadline } == true)
        }
        #expect(refusals.withLock { $0 } == ["Invalid argument"])
    }
}
