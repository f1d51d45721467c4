import Logging
import WaymarkClocks
import WaymarkCore
import WaymarkStore
import WaymarkSystem
import WaymarkUplink

/// Delivers the spool's released events to one network sink (Traccar, OwnTracks, batch HTTP) on a thread of its
/// own, by the delivery rules every network sink shares (``DeliveryPolicy``): at least once, in `seq` order, from
/// the sink's cursor; a temporary failure waits with backoff, a refused event is quarantined, a refused
/// configuration waits. A sink that cannot deliver never holds tracking, the commits or the other sinks:
/// ``Storage`` only tells it how far the events are released and takes its progress (the cursor and the
/// quarantined events) into its next commit, which makes them durable.
///
/// The thread sleeps on a condition until events are released, its backoff ends or the day's budget is whole
/// again: a dead server costs one wake-up per attempt, none in between. The rounds of attempts are in
/// `UplinkWorker+Round.swift`.
final class UplinkWorker: @unchecked Sendable {
    /// What the worker did since ``takeProgress()`` last took it, for ``Storage``.
    struct Progress {
        /// The last `seq` the server confirmed (or quarantined, or had nothing to take of): never less than
        /// before.
        var cursor: UInt64
        /// Events refused, to keep in the spool with the cursor that moved over them.
        var quarantined: [QuarantinedEvent] = []
        /// Failures and recoveries to emit as events.
        var reports: [ErrorReport] = []
        /// Whether the sink's standing changed in a way its alarms look at (its budget spent, or whole again).
        var changed = false
    }

    /// What the worker shows of itself at any time.
    struct Standing {
        /// The last `seq` the server confirmed.
        var cursor: UInt64
        /// Why the last attempt failed; nil once one succeeds.
        var failure: String?
        /// The server's answer when it refuses the sink's settings (the `sink_refused` alarm); nil once it takes
        /// events again.
        var refusal: String?
        /// Why locations wait (the `sink_over_budget` alarm): today's `max_bytes_per_day` is spent.
        var overBudget: String?
        /// Events confirmed, events quarantined, requests made and bytes on the wire since the start.
        var delivered = 0
        var quarantined = 0
        var requests = 0
        var wireBytes: Int64 = 0
    }

    let name: String
    let transport: any UplinkTransport
    let spool: Spool
    let logger: Logger
    /// The clocks: monotonic for the backoff, the system's for the budget's day and `Retry-After` dates.
    let clock: @Sendable () -> MonotonicInstant
    let wallClock: @Sendable () -> Timestamp
    /// Wakes the agent's loop, which then takes the progress (``Storage/pollUplinks(now:)``).
    private let wake: @Sendable () -> Void
    let condition = MonotonicCondition()

    // Guarded by `condition`.
    var released: UInt64 = 0
    var stopping = false
    /// Until when a stopping worker may still deliver what is released (``beginStop(drainingFor:)``).
    var drainUntil: MonotonicInstant?
    var progress: Progress
    var standing: Standing
    /// Whether the agent was woken for the progress it has not taken yet.
    private var woken = false
    /// Whether the thread runs.
    private var running = false

    // The worker thread's own (`UplinkWorker+Round.swift`).
    var policy: DeliveryPolicy
    /// Every event up to here is dealt with: confirmed, refused (quarantined, or waiting to be judged), or of no
    /// interest to the server. The published cursor is never past it.
    var cursor: UInt64
    /// Events refused in a row since the last confirmation, and where the worker was before the first of them:
    /// they are quarantined for good at the next confirmation, or sent again when the refusals turn out to be of
    /// the sink's settings (an unknown device id refuses every event: nothing is quarantined for it).
    var tentative: (items: [QuarantinedEvent], before: Position) = ([], Position(cursor: 0, dealt: 0))
    /// `max_bytes_per_day`, when set.
    var budget: DailyBudget?
    /// While the budget is spent: the first location held back. The cursor stays before it; the other events go
    /// on past it.
    var heldFrom: UInt64?
    /// The events that are not locations in this range went while locations were held: they are not sent again
    /// when the locations go. Forgotten once the cursor passed it.
    var sentWhileHeld: (from: UInt64, through: UInt64)?
    /// The transport's pace (``DrainPace``), when it has one.
    var pace: DrainPace?
    /// While a backlog waits at the pace: the locations in this range went ahead of it (``UplinkTransport/sendAhead``)
    /// and are not sent again when the cursor comes to them. Forgotten once the cursor passed it.
    var ahead: (from: UInt64, through: UInt64)?
    var generator = SystemRandomNumberGenerator()

    /// Where the worker is: what a rollback of refusals returns to.
    struct Position {
        var cursor: UInt64
        var dealt: UInt64
    }

    /// Events read from the spool for one round of attempts.
    static let readLimit = 1024

    init(
        transport: any UplinkTransport,
        spool: Spool,
        cursor: UInt64,
        settings: DeliveryPolicy.Settings,
        maxBytesPerDay: Int64? = nil,
        clock: @escaping @Sendable () -> MonotonicInstant = SystemClocks.monotonic,
        wallClock: @escaping @Sendable () -> Timestamp = SystemClocks.wall,
        logger: Logger,
        wake: @escaping @Sendable () -> Void
    ) {
        name = transport.name
        budget = maxBytesPerDay.map(DailyBudget.init(limit:))
        self.transport = transport
        self.spool = spool
        self.cursor = cursor
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
        self.wake = wake
        policy = DeliveryPolicy(settings: settings)
        pace = transport.pace
        progress = Progress(cursor: cursor)
        standing = Standing(cursor: cursor)
    }

    /// Starts the thread, named `uplink NAME` (`top -H`).
    func start() {
        condition.locked { running = true }
        DedicatedThread.start(name: "uplink \(name)") { [self] in
            transport.start(after: cursor, in: spool)
            while let through = nextRound() {
                do {
                    try deliver(through: through)
                } catch {
                    // The spool cannot be read: said once, tried again after the backoff.
                    note(.temporary(reason: "the spool cannot be read: \(error)", retryAfter: nil), sent: 1)
                }
            }
            condition.locked {
                running = false
                condition.broadcast()
            }
        }
    }

    /// The events up to `seq` may go (committed, and out of any open deferral window).
    func release(through seq: UInt64) {
        condition.locked {
            guard seq > released else { return }
            released = seq
            condition.broadcast()
        }
    }

    /// Takes what the worker did since the last call.
    func takeProgress() -> Progress {
        condition.locked {
            defer {
                progress.quarantined = []
                progress.reports = []
                progress.changed = false
                woken = false
            }
            return progress
        }
    }

    var current: Standing { condition.locked { standing } }

    /// Lets the thread deliver what is released for up to `drain` more (the events of a clean stop, such as the
    /// trip it ends) as long as its server answers, then stop. ``finishStop()`` waits for it.
    func beginStop(drainingFor drain: Duration) {
        let deadline = clock() + drain
        condition.locked {
            drainUntil = deadline
            condition.broadcast()
        }
    }

    /// Waits for the thread until its drain time is over, then cancels the request under way (libcurl notices
    /// within about a second) and waits for the thread to end.
    func finishStop() {
        let drained = condition.locked {
            while running, let deadline = drainUntil, clock() < deadline { _ = condition.wait(until: deadline) }
            stopping = true
            condition.broadcast()
            return !running
        }
        guard !drained else { return }
        transport.cancel()
        condition.locked {
            while running { _ = condition.wait(until: nil) }
        }
    }

    /// Stops the thread at once and waits for it.
    func stop() {
        beginStop(drainingFor: .zero)
        finishStop()
    }

    /// Waits until events are released past what the sink has dealt with and the backoff allows an attempt; nil
    /// to stop (asked to, or draining and done: nothing left, or a failure to wait out). Held locations make a
    /// round when the day turns.
    private func nextRound() -> UInt64? {
        condition.locked {
            while !stopping {
                let now = clock()
                let dealt = self.dealt
                var tomorrow: MonotonicInstant?
                if heldFrom != nil {
                    let wallClock = wallClock()
                    if budget?.isExhausted(at: wallClock) != true { return released }
                    tomorrow = now + DailyBudget.untilTomorrow(from: wallClock)
                }
                if let drainUntil {
                    // Draining: what is released, while the drain time lasts; a retry due within it is waited for.
                    let retryInTime = policy.nextAttempt.map { $0 < drainUntil } ?? true
                    if released <= dealt || now >= drainUntil || !retryInTime { return nil }
                }
                if released > dealt && policy.mayAttempt(now: now) { return released }
                let retry = released > dealt ? policy.nextAttempt : nil
                _ = condition.wait(until: [retry, tomorrow, drainUntil].compactMap { $0 }.min())
            }
            return nil
        }
    }

    /// Publishes the worker's cursor (never backwards), with the events it quarantined for good.
    func publish(delivered: Int = 0, quarantined: [QuarantinedEvent] = []) {
        let seq = cursor
        condition.locked {
            progress.cursor = max(progress.cursor, seq)
            standing.cursor = max(standing.cursor, seq)
            standing.delivered += delivered
            progress.quarantined += quarantined
            standing.quarantined += quarantined.count
        }
        wakeOnce()
    }

    /// Changes what the alarms look at, under the lock, and wakes the agent's loop for it.
    func changeStanding(_ body: (inout Standing) -> Void) {
        condition.locked {
            body(&standing)
            progress.changed = true
        }
        wakeOnce()
    }

    /// Wakes the agent's loop once for the progress it has not taken yet.
    func wakeOnce() {
        let first = condition.locked {
            defer { woken = true }
            return !woken
        }
        if first { wake() }
    }

    /// Adds a failure or recovery to emit as an event, and wakes the agent's loop for it.
    func report(_ report: ErrorReport) {
        condition.locked { progress.reports.append(report) }
        wakeOnce()
    }
}
