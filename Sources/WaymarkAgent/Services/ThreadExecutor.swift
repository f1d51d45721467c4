import CLinux
import Glibc
import WaymarkClocks
import WaymarkCore
import WaymarkSystem

/// A task executor with one dedicated thread: code run under its preference
/// (`withTaskExecutorPreference(_:operation:)`) resumes on that thread after every `await`, so what it
/// blocks on — SQLite's commits and fsyncs, the sinks' writes, stdout — never holds a thread of the
/// cooperative pool, which other services and the timers need.
///
/// Jobs run one at a time in the order they came. ``shutDown()`` ends the thread once the jobs before it have
/// run; a job that comes later (a task still holding the preference) runs on the global concurrent executor.
///
/// The thread also keeps one alarm (``setAlarm(at:_:)``), a timerfd on the monotonic clock: a deadline wakes this
/// thread alone, where a sleeping task would wake the runtime's timer thread and a pool thread too, and another
/// thread may move the alarm without waking this one. The thread sleeps in `poll` on the timerfd and an eventfd
/// that a job writes only while the thread sleeps, and the shutdown always.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `lock`.
    private var jobs = ArrivalQueue<UnownedJob>()
    private var isShutDown = false
    private var alarm: (at: MonotonicInstant, action: @Sendable () -> Void)?
    /// Whether the thread sleeps in `poll` (or is about to): only then does a job signal ``wake``.
    private var sleeping = false
    private let lock = MonotonicCondition()
    /// Signalled when a job came to a sleeping thread, and at the shutdown. Both descriptors are non-blocking: an
    /// alarm moved between `poll` and `read` must not hold the thread.
    private let wake = WakeSignal()
    /// A timerfd on `CLOCK_MONOTONIC`, armed for the alarm.
    private let alarmDescriptor: Int32
    /// Set once the kernel refused to arm the timerfd: from then on the thread wakes every ``fallbackWait``
    /// while an alarm is set. Guarded by `lock`.
    private var timerRefused = false
    /// Told, once, the system's reason for a refused `timerfd_settime`.
    private let onTimerRefused: (@Sendable (String) -> Void)?

    /// An alarm goes off this much late rather than early, so that whoever set it finds its deadline passed, and
    /// never sooner than this after it was set: a deadline left in the past must not make the thread spin.
    static let alarmLateness = Duration.milliseconds(10)

    /// Starts the thread, named `name` (Linux keeps 15 bytes) for `top -H` and /proc; `onTimerRefused` is told
    /// once if the kernel refuses to arm the alarm's timer (the alarms then go off up to ``fallbackWait`` late).
    init(name: String, onTimerRefused: (@Sendable (String) -> Void)? = nil) {
        self.onTimerRefused = onTimerRefused
        alarmDescriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        precondition(wake.descriptor >= 0 && alarmDescriptor >= 0, "no eventfd or timerfd: \(errno)")
        DedicatedThread.start(name: name) { [self] in runJobs() }
    }

    deinit { close(alarmDescriptor) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (queued, mustWake) = lock.locked {
            guard !isShutDown else { return (false, false) }
            jobs.append(job)
            defer { sleeping = false }
            return (true, sleeping)
        }
        if !queued { globalConcurrentExecutor.enqueue(job) }
        if mustWake { wake.signal() }
    }

    /// Runs `action` on this thread at `deadline` (monotonic), unless the alarm is set again first; nil clears it.
    /// Setting it wakes no thread.
    func setAlarm(at deadline: MonotonicInstant?, _ action: @escaping @Sendable () -> Void = {}) {
        let now = SystemClocks.monotonic()
        lock.locked {
            let previous = alarm?.at
            alarm = deadline.map { (max($0, now) + Self.alarmLateness, action) }
            guard alarm?.at != previous else { return }
            armTimer(now: now)
        }
    }

    /// With the lock held: arms the timerfd for the alarm, or disarms it.
    ///
    /// The timer is armed relative to `now`, not at an absolute instant: a library that moves the process's
    /// clocks (libfaketime subtracts its offset from absolute `CLOCK_MONOTONIC` deadlines, and makes those of a
    /// machine up for less than the offset negative, which the kernel refuses) can then neither make it fail nor
    /// make it go off early. An alarm that goes off before its deadline anyway is armed again
    /// (``runJobs()``). Should the kernel still refuse (it does only for a bad descriptor or value), the thread
    /// falls back to waking every ``fallbackWait`` to look at the deadline, and says so once: late alarms, never
    /// a stopped agent.
    private func armTimer(now: MonotonicInstant) {
        // Disarmed by a zero it_value; a deadline already due goes off in a nanosecond.
        let nanoseconds = alarm.map { max(($0.at - now).nanoseconds, 1) } ?? 0
        var time = itimerspec()
        time.it_value = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        guard timerfd_settime(alarmDescriptor, 0, &time, nil) != 0 else { return }
        if !timerRefused {
            timerRefused = true
            onTimerRefused?(SystemError.reason(errno))
        }
        // The thread may sleep with no timeout, since it had no alarm: it must look at this one's deadline.
        if sleeping {
            sleeping = false
            wake.signal()
        }
    }

    /// The alarm's timerfd, for a test that makes the kernel refuse to arm it.
    var alarmDescriptorForTesting: Int32 { alarmDescriptor }

    /// How often the thread looks at its alarm's deadline when the kernel refused to arm the timerfd.
    static let fallbackWait = Duration.milliseconds(200)

    /// Ends the thread after the jobs already queued; an alarm set does not go off.
    func shutDown() {
        lock.locked {
            isShutDown = true
            alarm = nil
        }
        wake.signal()
    }

    private enum Work {
        case job(UnownedJob)
        case alarm(@Sendable () -> Void)
        case end
        /// Sleep in `poll` for at most this many milliseconds (-1: until woken).
        case sleep(Int32)
    }

    private func runJobs() {
        var descriptors = [
            pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: alarmDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var drained: UInt64 = 0
        while true {
            switch lock.locked(nextWork) {
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .alarm(let action): action()
            case .end: return
            case .sleep(let timeout):
                _ = poll(&descriptors, 2, timeout)
                for index in descriptors.indices where descriptors[index].revents != 0 {
                    _ = read(descriptors[index].fd, &drained, 8)
                }
                // A timer that went off before its deadline (the process's clocks tampered with) is armed again.
                if descriptors[1].revents != 0 {
                    lock.locked {
                        let now = SystemClocks.monotonic()
                        if let alarm, now < alarm.at { armTimer(now: now) }
                    }
                }
            }
        }
    }

    /// With the lock held: the next job in order, else the alarm once due, else the end after a shutdown, else
    /// sleep (and jobs that come meanwhile wake the thread).
    private func nextWork() -> Work {
        sleeping = false
        if let job = jobs.popFirst() { return .job(job) }
        if isShutDown { return .end }
        if let alarm, SystemClocks.monotonic() >= alarm.at {
            self.alarm = nil
            return .alarm(alarm.action)
        }
        sleeping = true
        guard timerRefused, alarm != nil else { return .sleep(-1) }
        return .sleep(Int32(Self.fallbackWait / .milliseconds(1)))
    }
}
