import Dispatch
import Synchronization
import WaymarkCore
import WaymarkGPSD

/// A task executor with one dedicated thread: code run under its preference
/// (`withTaskExecutorPreference(_:operation:)`) resumes on that thread after every `await`, so what it
/// blocks on — SQLite's commits and fsyncs, the sinks' writes, stdout — never holds a thread of the
/// cooperative pool, which other services and the timers need.
///
/// Jobs run one at a time in the order they came. ``shutDown()`` ends the thread once the jobs before it have
/// run; a job that comes later (a task still holding the preference) runs on the global concurrent executor.
///
/// The thread also keeps one alarm (``setAlarm(at:_:)``): it waits for jobs at most until then, so a deadline
/// wakes this thread alone, where a sleeping task would wake the runtime's timer thread and a pool thread too.
final class ThreadExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var next = 0
        var isShutDown = false
        var alarm: (deadline: MonotonicInstant, action: @Sendable () -> Void)?
    }

    private let queue = Mutex(Queue())
    /// Counts the jobs queued, plus one for the shutdown.
    private let ready = DispatchSemaphore(value: 0)
    /// An alarm goes off this much late rather than early, so that whoever set it finds its deadline passed, and
    /// never sooner than this after it was set.
    static let alarmLateness = Duration.milliseconds(10)

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

    /// Runs `action` on this thread at `deadline` (monotonic), unless the alarm is set again first; nil clears
    /// it. Call it from this executor's own jobs: the thread reads the alarm before each wait.
    func setAlarm(at deadline: MonotonicInstant?, _ action: @escaping @Sendable () -> Void = {}) {
        queue.withLock { $0.alarm = deadline.map { ($0, action) } }
    }

    /// Ends the thread after the jobs already queued.
    func shutDown() {
        queue.withLock { $0.isShutDown = true }
        ready.signal()
    }

    private func runJobs() {
        while true {
            if let alarm = queue.withLock({ $0.alarm }) {
                // Never at once: a deadline left in the past must not make the thread spin.
                let wait = max(alarm.deadline - SystemClocks.monotonic(), .zero) + Self.alarmLateness
                let (seconds, attoseconds) = wait.components
                let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
                if ready.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
                    queue.withLock { $0.alarm = nil }
                    alarm.action()
                    continue
                }
            } else {
                ready.wait()
            }
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
