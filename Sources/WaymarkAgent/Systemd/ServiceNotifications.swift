import WaymarkCore

/// What the agent tells systemd, and when (`sd_notify(3)`): a pure schedule, told the status line and the time.
///
/// - `WATCHDOG=1` every half of `$WATCHDOG_USEC`, so one late wake-up is not yet a missed ping. The location
///   service's own loop sends it, so a loop that hangs (a commit waiting on a lock, a deadlock) stops the pings
///   and systemd restarts the agent.
/// - `STATUS=` when the line changed, at most once a second: a line that changes sooner waits for
///   ``nextDeadline``, and only the newest one is sent.
struct ServiceNotifications {
    /// The least time between two `STATUS=` messages.
    static let statusInterval = Duration.seconds(1)

    /// How often `WATCHDOG=1` is sent; nil without a watchdog.
    let pingInterval: Duration?
    private var lastPing: MonotonicInstant?
    private var sentStatus: String?
    private var statusSentAt: MonotonicInstant?
    /// A changed line waiting for ``statusInterval`` to pass.
    private var heldStatus: String?

    init(watchdogTimeout: Duration?) {
        pingInterval = watchdogTimeout.map { $0 / 2 }
    }

    /// `READY=1` with the first status line (and the first ping): the agent is up.
    mutating func ready(status: String, now: MonotonicInstant) -> [String] {
        var messages = ["READY=1", "STATUS=\(Self.oneLine(status))"]
        sentStatus = status
        statusSentAt = now
        heldStatus = nil
        if pingInterval != nil {
            messages.append("WATCHDOG=1")
            lastPing = now
        }
        return messages
    }

    /// What to send now, given the status line now: nothing, a `STATUS=`, a `WATCHDOG=1`, or both.
    mutating func update(status: String, now: MonotonicInstant) -> [String] {
        var messages: [String] = []
        if status != sentStatus {
            if let sent = statusSentAt, now < sent + Self.statusInterval {
                heldStatus = status
            } else {
                messages.append("STATUS=\(Self.oneLine(status))")
                sentStatus = status
                statusSentAt = now
                heldStatus = nil
            }
        } else {
            heldStatus = nil
        }
        if let pingInterval, lastPing.map({ now >= $0 + pingInterval }) ?? true {
            messages.append("WATCHDOG=1")
            lastPing = now
        }
        return messages
    }

    /// `text` with its control characters as spaces: a line break in a device's name must not become an
    /// assignment of its own (`STOPPING=1`).
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// When ``update(status:now:)`` has something to send without a new status line: the next ping, or the
    /// end of the wait of a held line.
    var nextDeadline: MonotonicInstant? {
        let ping = pingInterval.map { interval in lastPing.map { $0 + interval } ?? .zero }
        let status = heldStatus == nil ? nil : statusSentAt.map { $0 + Self.statusInterval }
        return [ping, status].compactMap { $0 }.min()
    }
}
