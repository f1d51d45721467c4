import Foundation
import Synchronization
import Testing
import WaymarkTestSupport

@testable import WaymarkSystem

/// ``GlobalExecutor`` as a task executor (this process keeps the runtime's own global executor; the agent's
/// installed one is tested live, in IdleWakeupsTests): its threads start as jobs come, no more than its width,
/// and sleep without waking while there is nothing to do.
@Suite struct GlobalExecutorTests {
    static func currentThread() -> (name: String, id: pthread_t) {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return (comm.trimmingCharacters(in: .newlines), pthread_self())
    }

    @Test("no thread before the first job; then at most its width, which run every job")
    func width() async {
        let name = "gexec width"
        let executor = GlobalExecutor(width: 2, name: name)
        #expect(ProcessResources.threads(named: name) == 0)
        let threads = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: (name: String, id: pthread_t).self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        // Each job holds its thread a little, so that jobs queue behind the two threads.
                        usleep(200)
                        return Self.currentThread()
                    }
                }
                var threads: [(name: String, id: pthread_t)] = []
                for await thread in group { threads.append(thread) }
                return threads
            }
        }
        #expect(threads.count == 200)
        #expect(threads.allSatisfy { $0.name == name })
        #expect(Set(threads.map(\.id)).count <= 2)
        #expect(ProcessResources.threads(named: name) == 2)
    }

    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    @Test("a job that blocks its thread leaves the other thread to the jobs that would end it")
    func blockedJob() async {
        let executor = GlobalExecutor(width: 2, name: "gexec blocked")
        let released = Flag()
        let ended = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    // Blocks until the other task has run: with one thread at work it never would.
                    for _ in 0..<10_000 where !released.isSet { usleep(1_000) }
                    return released.isSet
                }
                group.addTask {
                    released.set()
                    return true
                }
                return await group.allSatisfy { $0 }
            }
        }
        #expect(ended)
    }

    @Test("with nothing to do its threads sleep and do not wake")
    func sleeps() async throws {
        let name = "gexec idle"
        let executor = GlobalExecutor(width: 2, name: name)
        await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<20 { group.addTask { usleep(100) } }
            }
        }
        let started = Self.threads(named: name)
        #expect(started.count >= 1 && started.count <= 2)
        for _ in 0..<1000 where !Self.threads(named: name).allSatisfy({ $0.state == "S" }) {
            try await Task.sleep(for: .milliseconds(2))
        }
        let asleep = Self.threads(named: name).map(\.switches)
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.threads(named: name).map(\.switches) == asleep)
        // Woken again, it runs the job.
        let again = await withTaskExecutorPreference(executor) { Self.currentThread().name }
        #expect(again == name)
    }

    // A regression that lost a wake-up would hold these two for their hour: the time limit fails them sooner,
    // and is long because the test process's own pool may be busy for many minutes with other suites.
    @Test(
        "a sleep ends at its deadline on the monotonic clock, not before; an earlier one set later, first",
        .timeLimit(.minutes(20))
    )
    func sleep() async throws {
        let executor = GlobalExecutor(width: 2, name: "gexec sleep")
        // The later one first: the thread keeping its deadline must be woken for the earlier one. (No upper bound
        // on the times: the test process's own pool may be busy for minutes with other suites.)
        let lateEnded = Flag()
        let late = Task {
            try await executor.sleep(untilNanoseconds: Self.fromNow(seconds: 3600))
            lateEnded.set()
        }
        try await Task.sleep(for: .milliseconds(10))
        let start = SystemClocks.monotonicNanoseconds()
        try await executor.sleep(untilNanoseconds: start + 30_000_000)
        #expect(SystemClocks.monotonicNanoseconds() - start >= 30_000_000)
        #expect(!lateEnded.isSet)
        late.cancel()
        await #expect(throws: CancellationError.self) { try await late.value }
        #expect(!lateEnded.isSet)
    }

    @Test("a sleep's task cancelled: it throws, before its deadline or already cancelled", .timeLimit(.minutes(20)))
    func cancelledSleep() async {
        let executor = GlobalExecutor(width: 2, name: "gexec cancel")
        // An hour: a cancellation that did not end the sleep would hold the test that long, then fail it.
        let sleeper = Task { try await executor.sleep(untilNanoseconds: Self.fromNow(seconds: 3600)) }
        try? await Task.sleep(for: .milliseconds(20))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await executor.sleep(untilNanoseconds: Self.fromNow(seconds: 3600))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
    }

    static func fromNow(seconds: Int64) -> Int64 { SystemClocks.monotonicNanoseconds() + seconds * 1_000_000_000 }

    /// Each thread of this process named `name`, by id: its scheduler state (`S` asleep) and voluntary switches.
    static func threads(named name: String) -> [(state: String, switches: Int)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.sorted().compactMap { task in
            let comm = ProcessResources.readProcFile("/proc/self/task/\(task)/comm")
            guard comm.trimmingCharacters(in: .newlines) == name else { return nil }
            let stat = ProcessResources.readProcFile("/proc/self/task/\(task)/stat")
            let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? ""
            let status = ProcessResources.readProcFile("/proc/self/task/\(task)/status")
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            let switches = line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
            return (state, switches ?? -1)
        }
    }
}
