import Logging
import WaymarkCore
import WaymarkGPSD
import WaymarkStore
import WaymarkUplink

/// Delivers the spool's released events to one network sink (Traccar, batch HTTP) on a thread of its own, by the
/// delivery rules every network sink shares (``DeliveryPolicy``): at least once, in `seq` order, from the sink's
/// cursor; a temporary failure waits with backoff, a refused event is quarantined, a refused configuration
/// waits. A sink that cannot deliver never holds tracking, the commits or the other sinks: ``Storage`` only
/// tells it how far the events are released and takes its progress (the cursor and the quarantined events) into
/// its next commit, which makes them durable.
///
/// The thread sleeps on a condition until events are released or its backoff ends: a dead server costs one
/// wake-up per attempt, none in between.
final class UplinkWorker: @unchecked Sendable {
    /// What the worker did since ``takeProgress()`` last took it, for ``Storage``.
    struct Progress {
        /// The last `seq` the server confirmed (or quarantined, or had nothing to take of).
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
    private let transport: any UplinkTransport
    private let spool: Spool
    private let logger: Logger
    /// Wakes the agent's loop, which then takes the progress (``Storage/pollUplinks()``).
    private let wake: @Sendable () -> Void
    private let condition = MonotonicCondition()

    // Guarded by `condition`.
    private var released: UInt64 = 0
    private var stopping = false
    /// Until when a stopping worker may still deliver what is released (``stop(drainingFor:)``).
    private var drainUntil: MonotonicInstant?
    private var progress: Progress
    private var standing: Standing
    /// Whether the agent was woken for the progress it has not taken yet.
    private var woken = false
    /// Whether the thread runs.
    private var running = false

    // The worker thread's own.
    private var policy: DeliveryPolicy
    private var cursor: UInt64
    /// Events refused in a row since the last confirmation, and the cursor before the first of them: they are
    /// quarantined for good at the next confirmation, or sent again when the refusals turn out to be of the
    /// sink's settings (an unknown device id refuses every event: nothing is quarantined for it).
    private var tentative: (items: [QuarantinedEvent], cursorBefore: UInt64) = ([], 0)
    /// `max_bytes_per_day`, when set.
    private var budget: DailyBudget?
    /// While the budget is spent: the first location held back (the cursor stays before it) and the last event
    /// dealt with after it (the others go on).
    private var held: (from: UInt64, through: UInt64)?
    /// The events after the cursor, up to this `seq`, that went while locations were held: they are not sent
    /// again when the locations go.
    private var sentWhileHeld: UInt64 = 0
    private var generator = SystemRandomNumberGenerator()

    /// Events read from the spool for one round of attempts.
    static let readLimit = 1024

    init(
        transport: any UplinkTransport,
        spool: Spool,
        cursor: UInt64,
        settings: DeliveryPolicy.Settings,
        maxBytesPerDay: Int64? = nil,
        logger: Logger,
        wake: @escaping @Sendable () -> Void
    ) {
        name = transport.name
        budget = maxBytesPerDay.map(DailyBudget.init(limit:))
        self.transport = transport
        self.spool = spool
        self.cursor = cursor
        self.logger = logger
        self.wake = wake
        policy = DeliveryPolicy(settings: settings)
        progress = Progress(cursor: cursor)
        standing = Standing(cursor: cursor)
    }

    /// Starts the thread, named `uplink NAME` (`top -H`).
    func start() {
        condition.locked { running = true }
        DedicatedThread.start(name: "uplink \(name)") { [self] in
            run()
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

    /// Stops the thread and waits for it: first it may deliver what is released for up to `drain` (the events of
    /// a clean stop, such as the trip it ends), as long as its server answers; then the request under way is
    /// cancelled (libcurl notices within about a second).
    func stop(drainingFor drain: Duration = .zero) {
        let deadline = SystemClocks.monotonic() + drain
        let drained = condition.locked {
            drainUntil = deadline
            condition.broadcast()
            while running && SystemClocks.monotonic() < deadline { _ = condition.wait(until: deadline) }
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

    private func run() {
        transport.start(after: cursor, in: spool)
        while let through = nextRound() {
            do {
                try deliver(through: through)
            } catch {
                // The spool cannot be read: said once, tried again after the backoff.
                note(.temporary(reason: "the spool cannot be read: \(error)", retryAfter: nil), sent: 1)
            }
        }
    }

    /// Waits until events are released past what the sink has dealt with and the backoff allows an attempt; nil
    /// to stop (asked to, or draining and done: nothing left, or a failure to wait out). Locations held for the
    /// budget wait for the next UTC day.
    private func nextRound() -> UInt64? {
        condition.locked {
            while !stopping {
                let now = SystemClocks.monotonic()
                let dealt = held?.through ?? cursor
                // Held locations go when the day turns: a round then looks at them again.
                var tomorrow: MonotonicInstant?
                if held != nil {
                    let wallClock = SystemClocks.wall()
                    if budget?.isExhausted(at: wallClock) != true { return released }
                    tomorrow = now + DailyBudget.untilTomorrow(from: wallClock)
                }
                if let drainUntil, released <= dealt || !policy.mayAttempt(now: now) || now >= drainUntil {
                    return nil
                }
                if released > dealt && policy.mayAttempt(now: now) { return released }
                let retry = released > dealt ? policy.nextAttempt : nil
                _ = condition.wait(until: [retry, tomorrow].compactMap { $0 }.min())
            }
            return nil
        }
    }

    /// One round: reads the released events after the cursor and sends them until they are all confirmed, one
    /// attempt fails, or the agent stops.
    private func deliver(through: UInt64) throws {
        let events = try spool.events(after: max(cursor, held?.through ?? 0), through: through, limit: Self.readLimit)
        // Past the last event read: `through` when the read was not cut short (events dropped for room, or
        // never committed, have nothing to send).
        let end = events.count < Self.readLimit ? through : events.last?.seq ?? through
        var remaining = selectForBudget(events)
        while !remaining.isEmpty,
            !condition.locked({ stopping || drainUntil.map { SystemClocks.monotonic() >= $0 } == true })
        {
            // Spent during this round: the next one holds the locations back.
            if held == nil, budget?.isExhausted(at: SystemClocks.wall()) == true { return }
            let skipped = transport.skippable(remaining)
            if skipped > 0 {
                dealt(through: remaining[remaining.startIndex + skipped - 1].seq)
                remaining = remaining.dropFirst(skipped)
                continue
            }
            let offered = remaining.prefix(policy.batchSize(available: remaining.count))
            let attempt = transport.send(offered, wallClock: SystemClocks.wall())
            let effect = note(attempt.answer, sent: attempt.sent, wireBytes: attempt.wireBytes)
            switch effect {
            case .delivered(let count):
                commitTentative()
                dealt(through: remaining[remaining.startIndex + count - 1].seq, delivered: count)
                remaining = remaining.dropFirst(count)
            case .quarantine(let status, let answer):
                let refused = remaining[remaining.startIndex]
                logger.warning(
                    "the \(name) sink's server refused event \(refused.seq) (HTTP \(status)): it is kept in quarantine",
                    metadata: ["answer": "\(answer)"]
                )
                if tentative.items.isEmpty { tentative.cursorBefore = dealtThrough }
                tentative.items.append(
                    QuarantinedEvent(
                        sink: name,
                        event: refused,
                        status: status,
                        answer: answer,
                        refusedAt: SystemClocks.wall()
                    )
                )
                dealtThrough = refused.seq
                remaining = remaining.dropFirst()
            case .none:
                if Self.refusesSettings(attempt), !tentative.items.isEmpty {
                    // Refused in a row: the settings, not the events. They go again after the wait.
                    logger.notice(
                        "the \(name) sink's last \(tentative.items.count) refusals were of its settings: those events are sent again, not quarantined"
                    )
                    dealtThrough = tentative.cursorBefore
                    tentative.items = []
                }
                return
            }
        }
        // Past the end only when nothing refused waits to be judged: a tentative quarantine holds the cursor.
        if remaining.isEmpty && tentative.items.isEmpty { dealt(through: end) }
    }

    /// The events of a round as the budget allows: all of them (but those that went while locations were held),
    /// or, once today's `max_bytes_per_day` is spent, all but the locations, which wait for tomorrow from the
    /// first of them on. Says when locations start and stop waiting.
    private func selectForBudget(_ events: [StoredEvent]) -> ArraySlice<StoredEvent> {
        let wallClock = SystemClocks.wall()
        guard let budget, budget.isExhausted(at: wallClock) else {
            if let held {
                sentWhileHeld = max(sentWhileHeld, held.through)
                self.held = nil
                logger.notice("the \(name) sink's budget is whole again: the locations it held go now")
                condition.locked {
                    standing.overBudget = nil
                    progress.changed = true
                }
                wakeOnce()
            }
            guard sentWhileHeld > cursor else { return events[...] }
            return events.filter { $0.kind == .location || $0.seq > sentWhileHeld }[...]
        }
        if held == nil, let first = events.first(where: { $0.kind == .location }) {
            held = (first.seq, first.seq - 1)
            let message =
                "the \(name) sink sent \(budget.spent) bytes today, its [sinks.\(name)] max_bytes_per_day "
                + "(\(budget.limit)): locations wait for tomorrow (UTC), other events go on"
            logger.warning("\(message)")
            condition.locked {
                standing.overBudget = message
                progress.changed = true
            }
            wakeOnce()
        }
        guard let held else { return events[...] }
        return events.filter { $0.seq < held.from || $0.kind != .location }[...]
    }

    /// The last event the sink dealt with: the cursor, or while locations are held, the last event after them.
    private var dealtThrough: UInt64 {
        get { held?.through ?? cursor }
        set {
            if held != nil { held?.through = newValue } else { cursor = newValue }
        }
    }

    /// The sink dealt with the events up to `seq`: the cursor moves, or, past a held location, only what was
    /// dealt with while it waits.
    private func dealt(through seq: UInt64, delivered: Int = 0) {
        guard var held, seq >= held.from else { return move(to: seq, delivered: delivered) }
        held.through = max(held.through, seq)
        self.held = held
        condition.locked { standing.delivered += delivered }
    }

    /// Whether an attempt that changed nothing was refused for the sink's settings: a refusal of one event that
    /// the rules took as such (too many in a row), or a status that says so; not a batch refused to be halved.
    private static func refusesSettings(_ attempt: UplinkAttempt) -> Bool {
        switch attempt.answer {
        case .refused: attempt.sent == 1
        case .misconfigured: true
        case .confirmed, .temporary: false
        }
    }

    /// The events refused in a row were the events' fault, not the settings': they stay in quarantine.
    private func commitTentative() {
        guard let last = tentative.items.last else { return }
        let items = tentative.items
        tentative.items = []
        // Never past a location held for the budget.
        let seq = min(last.event.seq, held.map { $0.from - 1 } ?? .max)
        condition.locked {
            progress.quarantined += items
            standing.quarantined += items.count
            progress.cursor = max(progress.cursor, seq)
            standing.cursor = max(standing.cursor, seq)
        }
    }

    /// Records an attempt's answer with the policy, says a failure once when it starts and once when it ends.
    @discardableResult
    private func note(_ answer: DeliveryPolicy.Answer, sent: Int, wireBytes: Int = 0) -> DeliveryPolicy.Effect {
        let effect = policy.record(answer, sent: sent, now: SystemClocks.monotonic(), using: &generator)
        budget?.spend(wireBytes, at: SystemClocks.wall())
        // The failure the sink is in after this attempt; nil when it delivers, and unchanged while a refused
        // batch is halved.
        let failure: String??
        var refusal: String?
        switch (answer, effect) {
        case (.temporary(let reason, _), _):
            failure = .some(reason)
        case (.misconfigured(let status, let answer), _),
            (.refused(let status, let answer), .none) where sent == 1:
            // A refusal that the rules took as one of the settings: too many in a row.
            refusal = "HTTP \(status)\(answer.isEmpty ? "" : ": \(answer)")"
            failure =
                "the server refuses the sink's settings (\(refusal ?? "")): "
                + "check [sinks.\(name)] url and that the server knows this board's device_id"
        case (.refused, .none):
            failure = nil
        default:
            failure = .some(nil)
        }
        let report: ErrorReport? = condition.locked {
            standing.requests += 1
            standing.wireBytes += Int64(wireBytes)
            let was = standing.failure
            guard let failure else { return nil }
            standing.failure = failure
            if refusal != nil || failure == nil { standing.refusal = refusal }
            guard let failure, was == nil else {
                if failure == nil, was != nil { logger.notice("the \(name) sink delivers again") }
                return nil
            }
            let message = "the \(name) sink cannot deliver: \(failure); it retries from its last delivered event"
            logger.error("\(message)")
            let report = ErrorReport(code: .sinkFailure, message: message, subject: name)
            progress.reports.append(report)
            return report
        }
        if report != nil { wakeOnce() }
        return effect
    }

    /// Moves the cursor over events delivered or with nothing to send; while refusals wait to be judged
    /// (``tentative``) only the worker's own cursor moves.
    private func move(to seq: UInt64, delivered: Int = 0) {
        guard seq > cursor else { return }
        cursor = seq
        guard tentative.items.isEmpty else { return }
        condition.locked {
            progress.cursor = seq
            standing.cursor = seq
            standing.delivered += delivered
        }
        wakeOnce()
    }

    /// Wakes the agent's loop once for the progress it has not taken yet.
    private func wakeOnce() {
        let first = condition.locked {
            defer { woken = true }
            return !woken
        }
        if first { wake() }
    }
}
