#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-way stop flag that a sleeping thread can wait on: `stop()` wakes ``sleep(for:)`` at once.
final class StopSignal: @unchecked Sendable {
    // Guarded by `mutex`.
    private var stopped = false
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    init() {
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    var isStopped: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return stopped
    }

    func stop() {
        pthread_mutex_lock(&mutex)
        stopped = true
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// Sleeps for `duration` or until ``stop()``; returns false when stopped.
    @discardableResult
    func sleep(for duration: Duration) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = Int64(now.tv_nsec) + duration.nanoseconds
        var deadline = timespec(tv_sec: now.tv_sec + Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while !stopped {
            if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT { break }
        }
        return !stopped
    }
}
