import WaymarkCore

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

    // Guarded by `condition`.
    private var stopped = false
    private var configuration: GPSDConnection.Configuration
    private var changed = false
    private var watching = true
    /// The watch asked for, until the worker takes it.
    private var watchRequest: Bool?
    private let condition = MonotonicCondition()

    init(configuration: GPSDConnection.Configuration) {
        self.configuration = configuration
    }

    var isStopped: Bool { locked { stopped } }

    func stop() {
        locked {
            stopped = true
            condition.broadcast()
        }
    }

    func reconfigure(_ new: GPSDConnection.Configuration) {
        locked {
            guard new != configuration else { return }
            configuration = new
            changed = true
            condition.broadcast()
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
            condition.broadcast()
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
        let deadline = SystemClocks.monotonic() + duration
        return locked {
            while !stopped && !changed && !(wakingOnWatch && watchRequest != nil) {
                if condition.wait(until: deadline) { break }
            }
            if stopped { return .stopped }
            if changed { return .reconfigured }
            return wakingOnWatch && watchRequest != nil ? .watchRequested : .timedOut
        }
    }

    private func locked<T>(_ body: () -> T) -> T { condition.locked(body) }
}
