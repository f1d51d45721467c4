import Synchronization
import WaymarkCore

/// The location service's side of systemd's notifications: ``ServiceNotifications``'s schedule and the last
/// status line, sent through a ``SystemdNotifier``.
///
/// The service's loop updates it after every input, and its executor's alarm between inputs: both run on the
/// service's one thread, so a ping or a held status line wakes that thread alone, not the loop, and a thread that
/// hangs (a commit that never returns, a deadlock) stops the pings.
final class SystemdReporter: Sendable {
    private let notifier: SystemdNotifier
    private let state: Mutex<(schedule: ServiceNotifications, status: String)>

    /// Says `READY=1` with the first status line (and the first ping).
    init(notifier: SystemdNotifier, status: String, now: MonotonicInstant) {
        self.notifier = notifier
        var schedule = ServiceNotifications(watchdogTimeout: notifier.watchdogTimeout)
        notifier.send(schedule.ready(status: status, now: now))
        state = Mutex((schedule, status))
    }

    /// Sends what is due at `now`: a changed status line (`status`, or the last one), a ping.
    func update(status: String? = nil, now: MonotonicInstant) {
        let messages = state.withLock { state in
            if let status { state.status = status }
            return state.schedule.update(status: state.status, now: now)
        }
        notifier.send(messages)
    }

    /// When ``update(status:now:)`` next has something to send.
    var nextDeadline: MonotonicInstant? { state.withLock { $0.schedule.nextDeadline } }
}
