import WaymarkCore
import WaymarkStore
import WaymarkUplink

/// One round of attempts on the worker's thread: the released events after the cursor, sent until they are all
/// dealt with, one attempt fails, or the agent stops.
extension UplinkWorker {
    /// How far the worker has dealt with the released events: its cursor, or while locations are held for the
    /// budget, the last event that went past them.
    var dealt: UInt64 { heldFrom == nil ? cursor : max(cursor, sentWhileHeld?.through ?? cursor) }

    func deliver(through: UInt64) throws {
        releaseHoldIfWhole()
        // While locations are held and everything before them is dealt with, only what came after what went.
        let start = heldFrom.map { cursor + 1 >= $0 } == true ? dealt : cursor
        let events = try spool.events(after: start, through: through, limit: Self.readLimit)
        // Past the last event read: `through` when the read was not cut short (events dropped for room, or
        // never committed, have nothing to send).
        let end = events.count < Self.readLimit ? through : events.last?.seq ?? through
        var remaining = events[...]
        while !remaining.isEmpty, !roundShouldEnd() {
            holdIfSpent(&remaining)
            guard !remaining.isEmpty else { break }
            // What needs no request: what went while locations were held, and what the server keeps nothing of.
            var skipped = remaining.prefix(while: wentWhileHeld).count
            if skipped == 0 { skipped = remaining.prefix(while: wentAhead).count }
            if skipped == 0 { skipped = transport.skippable(remaining) }
            if skipped > 0 {
                dealt(with: remaining[remaining.startIndex + skipped - 1].seq)
                remaining = remaining.dropFirst(skipped)
                continue
            }
            // At the transport's pace; what went ahead of the backlog is not sent again.
            guard let allowed = awaitPace(after: end) else { return }
            let offered = remaining.prefix(min(allowed, policy.batchSize(available: remaining.count)))
                .prefix { !wentAhead($0) }
            // The wait may have sent the first of them ahead: they are skipped above.
            if offered.isEmpty { continue }
            let attempt = transport.send(offered, wallClock: wallClock())
            if let notice = attempt.notice { logger.warning("\(notice)") }
            pace?.spend(attempt.messages ?? attempt.sent, now: clock())
            // A request the stop cancelled says nothing of the server.
            if attempt.answer != .confirmed && condition.locked({ stopping }) { return }
            switch note(attempt) {
            case .delivered(let count):
                commitTentative()
                dealt(with: remaining[remaining.startIndex + count - 1].seq, delivered: count)
                remaining = remaining.dropFirst(count)
            case .quarantine(let status, let answer):
                let refused = remaining[remaining.startIndex]
                logger.warning(
                    "the \(name) sink's server refused event \(refused.seq) (HTTP \(status)): it is kept in quarantine",
                    metadata: ["answer": "\(answer)"]
                )
                if tentative.items.isEmpty { tentative.before = Position(cursor: cursor, dealt: dealt) }
                tentative.items.append(
                    QuarantinedEvent(sink: name, event: refused, status: status, answer: answer, refusedAt: wallClock())
                )
                dealt(with: refused.seq)
                remaining = remaining.dropFirst()
            case .none:
                if Self.refusesSettings(attempt), !tentative.items.isEmpty { rollBackRefusals() }
                return
            }
        }
        // Past the end: the publication waits while refusals wait to be judged.
        if remaining.isEmpty { dealt(with: end) }
    }

    private func roundShouldEnd() -> Bool {
        condition.locked { stopping || drainUntil.map { clock() >= $0 } == true }
    }

    /// The worker dealt with the events up to `seq`: its cursor moves and is published (unless refusals wait to
    /// be judged); past a held location, only what went while it waits moves.
    private func dealt(with seq: UInt64, delivered: Int = 0) {
        if let heldFrom, seq >= heldFrom {
            // In order: everything before the held location is dealt with.
            cursor = max(cursor, heldFrom - 1)
            if var sent = sentWhileHeld {
                sent.through = max(sent.through, seq)
                sentWhileHeld = sent
            }
        } else {
            cursor = max(cursor, seq)
            // Past everything that went while locations were held, or ahead of a backlog: nothing left to skip.
            if heldFrom == nil, let sent = sentWhileHeld, cursor >= sent.through { sentWhileHeld = nil }
            if let ahead, cursor >= ahead.through { self.ahead = nil }
        }
        if tentative.items.isEmpty {
            publish(delivered: delivered)
        } else if delivered > 0 {
            condition.locked { standing.delivered += delivered }
        }
    }

    /// Whether `event` already went while locations were held.
    private func wentWhileHeld(_ event: StoredEvent) -> Bool {
        guard let sent = sentWhileHeld, event.kind != .location else { return false }
        return event.seq >= sent.from && event.seq <= sent.through
    }

    /// Once today's `max_bytes_per_day` is spent, locations wait from the first of them on: they leave the round,
    /// the other events go on.
    private func holdIfSpent(_ remaining: inout ArraySlice<StoredEvent>) {
        guard let budget, budget.isExhausted(at: wallClock()) else { return }
        if heldFrom == nil {
            guard let first = remaining.first(where: { $0.kind == .location }) else { return }
            heldFrom = first.seq
            let old = sentWhileHeld
            sentWhileHeld = (min(old?.from ?? first.seq, first.seq), max(old?.through ?? 0, first.seq - 1))
            let message =
                "the \(name) sink sent \(budget.spent) bytes today, its [sinks.\(name)] max_bytes_per_day "
                + "(\(budget.limit)): locations wait for tomorrow (UTC), other events go on"
            logger.warning("\(message)")
            changeStanding { $0.overBudget = message }
        }
        guard let heldFrom else { return }
        remaining = remaining.filter { $0.kind != .location || $0.seq < heldFrom }[...]
    }

    /// A new day, a whole budget: the held locations go, from the cursor on.
    private func releaseHoldIfWhole() {
        guard heldFrom != nil, budget?.isExhausted(at: wallClock()) != true else { return }
        heldFrom = nil
        logger.notice("the \(name) sink's budget is whole again: the locations it held go now")
        changeStanding { $0.overBudget = nil }
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

    /// The refusals in a row were of the settings: those events are not quarantined and go again.
    private func rollBackRefusals() {
        logger.notice(
            "the \(name) sink's last \(tentative.items.count) refusals were of its settings: those events are sent again, not quarantined"
        )
        cursor = tentative.before.cursor
        if var sent = sentWhileHeld {
            sent.through = max(sent.from - 1, min(sent.through, tentative.before.dealt))
            sentWhileHeld = sent
        }
        tentative.items = []
    }

    /// The events refused in a row were the events' fault, not the settings': they stay in quarantine, and the
    /// cursor the worker kept meanwhile is published.
    private func commitTentative() {
        guard !tentative.items.isEmpty else { return }
        let items = tentative.items
        tentative.items = []
        publish(quarantined: items)
    }

    /// Records an attempt's answer with the policy and the budget; says a failure once when it starts and once
    /// when it ends.
    private func note(_ attempt: UplinkAttempt) -> DeliveryPolicy.Effect {
        note(attempt.answer, sent: attempt.sent, wireBytes: attempt.wireBytes)
    }

    @discardableResult
    func note(_ answer: DeliveryPolicy.Answer, sent: Int, wireBytes: Int = 0) -> DeliveryPolicy.Effect {
        let effect = policy.record(answer, sent: sent, now: clock(), using: &generator)
        budget?.spend(wireBytes, at: wallClock())
        // The failure the sink is in after this attempt: nil when it delivers; unchanged while a refused batch is
        // halved.
        let failure: String??
        var refusal: String?
        switch (answer, effect) {
        case (.temporary(let reason, _), _):
            failure = .some(reason)
        case (.misconfigured(let status, let answer), _),
            (.refused(let status, let answer), .none) where sent == 1:
            // A refusal that the rules took as one of the settings: too many in a row.
            let said = answer.isEmpty ? "" : ": \(answer)"
            refusal = status > 0 ? "HTTP \(status)\(said)" : answer
            failure = "the server refuses the sink's settings (\(refusal ?? "")): \(Self.hint(for: name))"
        case (.refused, .none):
            failure = nil
        default:
            failure = .some(nil)
        }
        let (was, now): (String?, String?) = condition.locked {
            standing.requests += 1
            standing.wireBytes += Int64(wireBytes)
            let was = standing.failure
            guard let failure else { return (was, was) }
            standing.failure = failure
            if refusal != nil || failure == nil { standing.refusal = refusal }
            return (was, failure)
        }
        if let now, was == nil {
            let message = "the \(name) sink cannot deliver: \(now); it retries from its last delivered event"
            logger.error("\(message)")
            report(ErrorReport(code: .sinkFailure, message: message, subject: name))
        } else if now == nil, was != nil {
            logger.notice("the \(name) sink delivers again")
        }
        return effect
    }

    /// What to check when a server refuses a sink's settings.
    private static func hint(for sink: String) -> String {
        switch sink {
        case "traccar": "check [sinks.traccar] url and that Traccar knows this board's device_id"
        case "owntracks": "check [sinks.owntracks] username, password_file and the broker's access rules"
        default: "check [sinks.\(sink)] url and the endpoint's access rules"
        }
    }
}
