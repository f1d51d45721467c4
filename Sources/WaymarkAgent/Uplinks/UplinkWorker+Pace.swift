import WaymarkClocks
import WaymarkCore
import WaymarkStore
import WaymarkUplink

/// A backlog at the transport's pace (``DrainPace``: OwnTracks' `drain_rate`), and the newest locations ahead of it,
/// so that a vehicle driving while a day's backlog drains is seen at once by consumers that keep the newest position
/// by its time (OwnTracks' Recorder and apps). Those go again, in order, only after a restart: at least once, and a
/// receiver removes duplicates by (`device`, `seq`).
extension UplinkWorker {
    /// Whether `event` is a location that already went ahead of the backlog.
    func wentAhead(_ event: StoredEvent) -> Bool {
        guard let ahead, event.kind == .location else { return false }
        return event.seq >= ahead.from && event.seq <= ahead.through
    }

    /// Waits until the pace lets messages go, sending the newest released locations ahead of the backlog meanwhile
    /// (`end`: the last event this round reads). How many may go; nil when the round must end (a stop).
    func awaitPace(after end: UInt64) -> Int? {
        while true {
            guard let allowance = pace?.allowance(now: clock()) else { return Int.max }
            if allowance > 0 { return allowance }
            sendAhead(after: end)
            guard let step = pace?.nextStep(after: clock()) else { return Int.max }
            let ended = condition.locked {
                while !stopping, clock() < step, drainUntil.map({ clock() < $0 }) ?? true {
                    _ = condition.wait(until: step)
                }
                return stopping || drainUntil.map { clock() >= $0 } == true
            }
            if ended { return nil }
        }
    }

    /// Sends the locations released after those that went ahead, or at first the newest released location when it
    /// is past this round's events; never while locations wait for the day's budget.
    private func sendAhead(after end: UInt64) {
        guard heldFrom == nil else { return }
        let released = condition.locked { self.released }
        let locations: [StoredEvent]
        let through: UInt64
        if let ahead {
            guard released > ahead.through,
                let events = try? spool.events(after: ahead.through, through: released, limit: Self.readLimit)
            else { return }
            locations = events.filter { $0.kind == .location }
            through = events.count < Self.readLimit ? released : events.last?.seq ?? released
        } else {
            guard let newest = try? spool.lastEvent(of: .location), newest.seq <= released, newest.seq > end else {
                return
            }
            locations = [newest]
            through = newest.seq
        }
        if !locations.isEmpty {
            let attempt = transport.sendAhead(locations, in: spool, wallClock: wallClock())
            budget?.spend(attempt.wireBytes, at: wallClock())
            condition.locked {
                standing.requests += 1
                standing.wireBytes += Int64(attempt.wireBytes)
            }
            // Not confirmed: the backlog's next attempt meets the same broker and says why.
            guard attempt.answer == .confirmed else { return }
            pace?.spend(locations.count, now: clock())
        }
        ahead = (ahead?.from ?? locations.first?.seq ?? through, through)
    }
}
