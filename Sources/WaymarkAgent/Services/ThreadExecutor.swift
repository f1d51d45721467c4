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
/// The thread also keeps one alarm (``setAlarm(at:_:)``): it waits for jobs at most until then, on the monotonic
/// clock, so a deadline wakes this thread alone, where a sleeping task would wake the runtime's timer thread and
/// a pool thread too.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var isShutDown = false
    private var alarm: (at: MonotonicInstant, action: @Sendable () -> Void)?
    private let condition = MonotonicCondition()

    /// An alarm goes off this much late rather than early, so that whoever set it finds its deadline passed, and
    /// never sooner than this after it was set: a deadline left in the past must not make the thread spin.
    static let alarmLateness = Duration.milliseconds(10)

    /// Starts the thread, named `name` (Linux keeps 15 bytes) for `top -H` and /proc.
    init(name: String) {
        DedicatedThread.start(name: name) { [self] in runJobs() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = condition.locked {
            guard !isShutDown else { return false }
            jobs.append(job)
            condition.broadcast()
            return true
        }
        if !queued { globalConcurrentExecutor.enqueue(job) }
    }

    /// Runs `action` on this thread at `deadline` (monotonic), unless the alarm is set again first; nil clears it.
    func setAlarm(at deadline: MonotonicInstant?, _ action: @escaping @Sendable () -> Void = {}) {
        let now = SystemClocks.monotonic()
        condition.locked {
            alarm = deadline.map { (max($0, now) + Self.alarmLateness, action) }
            condition.broadcast()
        }
    }

    /// Ends the thread after the jobs already queued; an alarm set does not go off.
    func shutDown() {
        condition.locked {
            isShutDown = true
            alarm = nil
            condition.broadcast()
        }
    }

    private enum Work {
        case job(UnownedJob)
        case alarm(@Sendable () -> Void)
        case end
    }

    private func runJobs() {
        while true {
            switch condition.locked(nextWork) {
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .alarm(let action): action()
            case .end: return
            }
        }
    }

    /// With the lock held: the next job in order, else the alarm once due, else the end after a shutdown; waits
    /// for one of them.
    private func nextWork() -> Work {
        while true {
            if next < jobs.count {
                let job = jobs[next]
                next += 1
                if next == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    next = 0
                }
                return .job(job)
            }
            if isShutDown { return .end }
            if let alarm, SystemClocks.monotonic() >= alarm.at {
                self.alarm = nil
                return .alarm(alarm.action)
            }
            _ = condition.wait(until: alarm?.at)
        }
    }
}
