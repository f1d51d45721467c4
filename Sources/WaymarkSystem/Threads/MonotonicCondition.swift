import Glibc

/// A mutex with a condition variable whose timed waits run on the monotonic clock: a wall clock set back (a
/// board without a real-time clock, set late by NTP or GPS) must not stretch a wait, as `sem_timedwait` and
/// `DispatchSemaphore` would.
public final class MonotonicCondition: @unchecked Sendable {
    // pthread objects must not move: they live on the heap, not as Swift properties passed with `&`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside ``locked(_:)``: releases the mutex until ``broadcast()`` or ``signal()`` or `deadline` (nanoseconds on the
    /// monotonic clock, ``SystemClocks/monotonicNanoseconds()``; nil waits for the broadcast alone), then holds
    /// it again. True when the deadline passed. Callers wait in a loop on their own condition: a wake-up may be
    /// spurious.
    public func wait(untilNanoseconds deadline: Int64?) -> Bool {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return false
        }
        let nanoseconds = max(deadline, 0)
        var time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) == ETIMEDOUT
    }

    /// Wakes every thread waiting; call it inside ``locked(_:)``.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Wakes one thread waiting, if any; call it inside ``locked(_:)``.
    public func signal() { pthread_cond_signal(condition) }
}
