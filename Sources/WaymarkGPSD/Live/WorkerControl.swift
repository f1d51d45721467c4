import Glibc
import WaymarkClocks
import WaymarkCore
import WaymarkSystem

/// How the owner of a connection's thread talks to it: stop it, hand it a new configuration, or turn the
/// watch off and on. Each wakes a thread sleeping in ``sleep(for:)`` or waiting for gpsd in
/// ``waitReadable(_:timeout:)`` at once.
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
    /// An eventfd written at every change: the thread waits for gpsd and for it in one `poll`, so a change
    /// wakes it at once and no timer has to (a connected thread wakes only when gpsd sends). -1 when none could
    /// be made (no descriptor left): the waits are then at most ``fallbackWait`` long, and look for changes after.
    private let wake = WakeSignal()
    static let fallbackWait = Duration.milliseconds(200)

    init(configuration: GPSDConnection.Configuration) {
        self.configuration = configuration
    }

    var isStopped: Bool { locked { stopped } }

    func stop() {
        locked {
            stopped = true
            changeHappened()
        }
    }

    func reconfigure(_ new: GPSDConnection.Configuration) {
        locked {
            guard new != configuration else { return }
            configuration = new
            changed = true
            changeHappened()
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
            changeHappened()
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

    /// Waits until `descriptor` can be read (or is closed), a change comes, or `timeout` passes (nil: no
    /// limit, rounded up to milliseconds); true when the descriptor can be read.
    func waitReadable(_ descriptor: Int32, timeout: Duration?) -> Bool {
        var limit = timeout
        if wake.descriptor < 0 { limit = min(limit ?? Self.fallbackWait, Self.fallbackWait) }
        let milliseconds = limit.map { limit in
            let (whole, part) = max(.zero, limit).nanoseconds.quotientAndRemainder(dividingBy: 1_000_000)
            return Int32(clamping: whole + (part > 0 ? 1 : 0))
        }
        return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { descriptors in
            descriptors[0] = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // poll skips a negative descriptor.
            descriptors[1] = pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(descriptors.baseAddress, 2, milliseconds ?? -1) > 0 else { return false }
            if descriptors[1].revents != 0 { wake.drain() }
            return descriptors[0].revents != 0
        }
    }

    /// Wakes the worker wherever it waits. With the lock held.
    private func changeHappened() {
        condition.broadcast()
        wake.signal()
    }

    private func locked<T>(_ body: () -> T) -> T { condition.locked(body) }
}
