import Foundation
import Testing
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
}
