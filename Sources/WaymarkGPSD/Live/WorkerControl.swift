#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the owner of a connection's thread talks to it: stop it, hand it a new configuration, or turn the
/// watch off and on. Each wakes a thread sleeping in ``sleep(for:)`` at once.
final class WorkerControl: @unchecked Sendable {
    enum Wake {
        case timedOut
        case stopped
        case reconfigured
        case watchRequested
    }

    // Guarded by `mutex`.
    private var stopped = false
    private var configuration: GPSDConnection.Configuration
    private var changed = false
    private var watching = true
    /// The watch asked for, until the worker takes it.
    private var watchRequest: Bool?
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

    /// Asks the worker to watch the receiver, or to stop the watch (`WATCH_DISABLE`) while paused.
    func setWatching(_ on: Bool) {
        locked {
            guard on != watching else { return }
            watching = on
            watchRequest = on
            pthread_cond_broadcast(condition)
        }
    }

    /// Whether the receiver is to be watched.
    var wantsWatch: Bool { locked { watching } }

    /// A change of the watch asked for since the last call, if any.
    func takeWatchRequest() -> Bool? {
        locked {
            defer { watchRequest = nil }
            return watchRequest
        }
    }

    /// True when a new configuration arrived since ``currentConfiguration()``.
    var hasChanged: Bool { locked { changed } }

    /// Sleeps for `duration`, or until stopped or reconfigured, or (with `wakingOnWatch`) asked to change
    /// the watch.
    func sleep(for duration: Duration, wakingOnWatch: Bool = false) -> Wake {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = Int64(now.tv_nsec) + duration.nanoseconds
        var deadline = timespec(tv_sec: now.tv_sec + Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
        return locked {
            while !stopped && !changed && !(wakingOnWatch && watchRequest != nil) {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            if stopped { return .stopped }
            if changed { return .reconfigured }
            return wakingOnWatch && watchRequest != nil ? .watchRequested : .timedOut
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
