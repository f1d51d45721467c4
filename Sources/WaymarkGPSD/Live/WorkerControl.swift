#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the owner of a connection's thread talks to it: stop it, or hand it a new configuration.
/// Either one wakes a thread sleeping in ``sleep(for:)`` at once.
final class WorkerControl: @unchecked Sendable {
    enum Wake {
        case timedOut
        case stopped
        case reconfigured
    }

    // Guarded by `mutex`.
    private var stopped = false
    private var configuration: GPSDConnection.Configuration
    private var changed = false
    // pthread objects must not move: they live on the heap, not as Swift properties passed with `&`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(configuration: GPSDConnection.Configuration) {
        self.configuration = configuration
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    var isStopped: Bool { locked { stopped } }

    func stop() {
        locked {
            stopped = true
            pthread_cond_broadcast(condition)
        }
    }

    func reconfigure(_ new: GPSDConnection.Configuration) {
        locked {
            guard new != configuration else { return }
            configuration = new
            changed = true
            pthread_cond_broadcast(condition)
        }
    }

    /// The configuration to connect with; clears the change flag.
    func currentConfiguration() -> GPSDConnection.Configuration {
        locked {
            changed = false
            return configuration
        }
    }

    /// True when a new configuration arrived since ``currentConfiguration()``.
    var hasChanged: Bool { locked { changed } }

    /// Sleeps for `duration`, or until stopped or reconfigured.
    func sleep(for duration: Duration) -> Wake {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = Int64(now.tv_nsec) + duration.nanoseconds
        var deadline = timespec(tv_sec: now.tv_sec + Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
        return locked {
            while !stopped && !changed {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            return stopped ? .stopped : changed ? .reconfigured : .timedOut
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
