import CLinux
import Glibc
import Synchronization

/// The Swift runtime's global executor on threads of Waymark's own, so that an agent with nothing to do wakes
/// for nothing.
///
/// On Linux the runtime hands its global jobs (each `async` function on no actor and no task executor) to
/// libdispatch, whose worker pool starts with its first thread a workqueue monitor: a 1 s timer that is never
/// stopped. A parked agent, which reads nothing, woke once a second for it alone. ``install()`` points the
/// runtime's enqueue hook at one executor of this type before the first global job: its threads start as jobs
/// come, up to ``width``, and sleep on a condition variable without a timeout while there is none. Jobs run in the
/// order they came; priorities are not kept apart.
///
/// `Task.sleep` is not a global job: Swift 6.3's default executor schedules its wake-up with libdispatch itself,
/// past the runtime's hooks, and so starts that pool. Waymark's long-running code sleeps with
/// ``sleep(untilNanoseconds:)`` instead (WaymarkClocks' `sleep(for:)`), whose deadline one of these threads keeps
/// (a ``DeadlineQueue``, on the monotonic clock).
///
/// An instance that is not installed is a plain task executor (`withTaskExecutorPreference(_:operation:)`).
public final class GlobalExecutor: TaskExecutor, @unchecked Sendable {
    /// How many threads run jobs at most, as the runtime's own pool has one a core: an `async` function that
    /// blocks (none of Waymark's should) holds one of them.
    public let width: Int
    private let name: String
    private let lock = MonotonicCondition()
    // Guarded by `lock`.
    private var ready = ArrivalQueue<Work>()
    private var timed = DeadlineQueue<@Sendable () -> Void>()
    private var threads = 0
    private var sleeping = 0
    /// Sleeping threads woken by ``MonotonicCondition/signal()`` and not yet running: not to be woken twice.
    private var woken = 0
    /// Whether a sleeping thread waits until the earliest deadline; the others wait for a signal alone.
    private var keepingDeadline = false

    private enum Work {
        /// A global job from the runtime's hook: run on the generic executor, as libdispatch runs it. Run as on a
        /// task executor, a job would hop off it at its first nonisolated `await`, and code that holds a lock
        /// across an `await` it expects to run straight away (swift-async-algorithms' `merge`, under
        /// swift-service-lifecycle) would find it still held: both job threads deadlocked, and no stop came through.
        case global(UnownedJob)
        /// A job of a task that prefers this executor (`withTaskExecutorPreference`).
        case preferring(UnownedJob)
        case action(@Sendable () -> Void)
    }

    /// An executor whose threads are named `name` (Linux keeps 15 bytes); none is started until work comes.
    public init(width: Int, name: String) {
        precondition(width > 0, "an executor needs a thread")
        self.width = width
        self.name = name
    }

    public func enqueue(_ job: consuming ExecutorJob) { append(.preferring(UnownedJob(job))) }

    private func append(_ work: Work) {
        lock.locked {
            ready.append(work)
            wakeOrStartThread()
        }
    }

    /// Runs `action` on one of the threads once the monotonic clock reads `deadline` (nanoseconds,
    /// ``SystemClocks/monotonicNanoseconds()``), or soon after.
    func schedule(at deadline: Int64, _ action: @escaping @Sendable () -> Void) {
        lock.locked {
            let earlier = timed.earliest.map { deadline < $0 } ?? true
            timed.insert(action, at: deadline)
            guard earlier else { return }
            // The thread keeping the deadline sleeps until the later one: all wake, and one keeps this one.
            if keepingDeadline { lock.broadcast() } else { wakeOrStartThread() }
        }
    }

    /// Suspends the calling task until the monotonic clock reads `deadline` (nanoseconds,
    /// ``SystemClocks/monotonicNanoseconds()``), as `Task.sleep` does, and throws `CancellationError` at once when
    /// the task is cancelled meanwhile. WaymarkClocks adds `sleep(for:)`, a `Duration` from now.
    public func sleep(untilNanoseconds deadline: Int64) async throws {
        let wait = Wait()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard wait.start(continuation) else { return }
                schedule(at: deadline) { wait.end(throwing: nil) }
            }
        } onCancel: {
            wait.end(throwing: CancellationError())
        }
    }

    /// With the lock held: a sleeping thread not yet woken is woken, else a thread is started if there may be one
    /// more; else every thread is at work and takes this when it is done.
    private func wakeOrStartThread() {
        if sleeping > woken {
            woken += 1
            lock.signal()
        } else if threads < width {
            threads += 1
            DedicatedThread.start(name: name) { [self] in runWork() }
        }
    }

    private func runWork() {
        while true {
            switch lock.locked(nextWork) {
            case .global(let job): job.runSynchronously(on: Self.genericExecutor)
            case .preferring(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .action(let action): action()
            }
        }
    }

    /// With the lock held: the next work, once there is some. A thread that leaves with more waiting (actions
    /// whose deadline came together, or a deadline no thread keeps) wakes or starts another for it.
    private func nextWork() -> Work {
        while true {
            if !timed.isEmpty {
                let now = SystemClocks.monotonicNanoseconds()
                while let action = timed.popDue(at: now) { ready.append(.action(action)) }
            }
            if let work = ready.popFirst() {
                if !ready.isEmpty || (!timed.isEmpty && !keepingDeadline) { wakeOrStartThread() }
                return work
            }
            let deadline = keepingDeadline ? nil : timed.earliest
            if deadline != nil { keepingDeadline = true }
            sleeping += 1
            _ = lock.wait(untilNanoseconds: deadline)
            sleeping -= 1
            woken = max(woken - 1, 0)
            if deadline != nil { keepingDeadline = false }
        }
    }

}

extension GlobalExecutor {
    /// The process's global executor once ``install()`` has run: a thread a core, at least two.
    public static let process = GlobalExecutor(
        width: max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN))),
        name: "waymark jobs"
    )

    /// Makes ``process`` the runtime's global executor: call it first in `main`, before any `await` hands a job
    /// to the runtime's own.
    public static func install() {
        waymark_set_global_enqueue_hook(unsafeBitCast(enqueueHook, to: UnsafeMutableRawPointer.self))
    }

    /// The hook's type as the runtime calls it (Swift's calling convention, no context): the job, and the
    /// runtime's own function, which it does not call.
    private typealias EnqueueHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    private static let enqueueHook: EnqueueHook = { job, _ in process.append(.global(job)) }

    /// The generic executor, the one a global job runs on: the runtime's executor reference whose two words (an
    /// identity and a witness table) are both zero, as libdispatch passes it. It has no public value.
    private static let genericExecutor = unsafeBitCast((UInt(0), UInt(0)), to: UnownedSerialExecutor.self)
}

/// A sleep's continuation, resumed once: by its deadline or by the task's cancellation, whichever comes first.
private final class Wait: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Void, any Error>?, ended: Bool)>((nil, false))

    /// Keeps `continuation`; false (and resumed, throwing) when the task was cancelled before.
    func start(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if !state.ended { state.continuation = continuation }
            return state.ended
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    func end(throwing error: (any Error)?) {
        let continuation = state.withLock { state in
            defer { state = (nil, true) }
            return state.continuation
        }
        if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
    }
}
