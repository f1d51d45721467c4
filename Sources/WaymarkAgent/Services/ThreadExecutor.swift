import Dispatch
import Synchronization
import WaymarkGPSD

/// A task executor with one dedicated thread: code run under its preference
/// (`withTaskExecutorPreference(_:operation:)`) resumes on that thread after every `await`, so what it
/// blocks on — SQLite's commits and fsyncs, the sinks' writes, stdout — never holds a thread of the
/// cooperative pool, which other services and the timers need.
///
/// Jobs run one at a time in the order they came. ``shutDown()`` ends the thread once the jobs before it have
/// run; a job that comes later (a task still holding the preference) runs on the global concurrent executor.
final class ThreadExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var next = 0
        var isShutDown = false
    }

    private let queue = Mutex(Queue())
    /// Counts the jobs queued, plus one for the shutdown.
    private let ready = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name` (Linux keeps 15 bytes) for `top -H` and /proc.
    init(name: String) {
        DedicatedThread.start(name: name) { [self] in runJobs() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = queue.withLock { queue in
            guard !queue.isShutDown else { return false }
            queue.jobs.append(job)
            return true
        }
        guard queued else { return globalConcurrentExecutor.enqueue(job) }
        ready.signal()
    }

    /// Ends the thread after the jobs already queued.
    func shutDown() {
        queue.withLock { $0.isShutDown = true }
        ready.signal()
    }

    private func runJobs() {
        while true {
            ready.wait()
            let job = queue.withLock { queue -> UnownedJob? in
                guard queue.next < queue.jobs.count else { return nil }
                defer {
                    queue.next += 1
                    if queue.next == queue.jobs.count {
                        queue.jobs.removeAll(keepingCapacity: true)
                        queue.next = 0
                    }
                }
                return queue.jobs[queue.next]
            }
            // Each signal is one job or the shutdown, which comes after the jobs queued before it.
            guard let job else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
