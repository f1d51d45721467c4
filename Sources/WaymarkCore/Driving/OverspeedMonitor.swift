/// Overspeed episodes against the limit in force (a region's `speed_limit` inside it, else `overspeed_limit`):
/// an `overspeed_start` once the speed stayed over the limit for `overspeed_min_duration`, an `overspeed_end`
/// when it falls `overspeed_hysteresis` below it, so that a speed hovering at the limit does not flap.
struct OverspeedMonitor: Sendable {
    private enum State: Sendable {
        case under
        /// Over the limit since `since`, not yet for long enough.
        case pending(since: Timestamp, position: Coordinate, limit: Double, peak: Double)
        /// Reported: `overspeed_start` was emitted.
        case over(since: Timestamp, limit: Double, peak: Double)
    }

    private var state = State.under
    private var lastFix: Location?

    var isOver: Bool {
        if case .over = state { return true }
        return false
    }

    /// A fix with a measured speed, and the limit in force there (m/s, nil: none).
    mutating func observe(_ fix: Location, speed: Double, limit: Double?, settings: DrivingSettings) -> [Event] {
        var events: [Event] = []
        lastFix = fix
        switch state {
        case .pending(_, _, let started, _) where started != limit,
            .over(_, let started, _) where started != limit:
            // The limit changed (a region entered or left): the episode is judged afresh against the new one.
            if let end = end(at: fix, speed: speed, reason: "limit_changed") { events.append(end) }
            state = .under
        default:
            break
        }
        guard let limit else { return events }
        switch state {
        case .under:
            guard speed > limit else { return events }
            state = .pending(since: fix.time, position: fix.coordinate, limit: limit, peak: speed)
        case .pending(let since, let position, _, let peak):
            guard speed > limit else {
                state = .under
                return events
            }
            state = .pending(since: since, position: position, limit: limit, peak: max(peak, speed))
        case .over(let since, _, let peak):
            if speed < limit - settings.overspeedHysteresis {
                if let end = end(at: fix, speed: speed, reason: nil) { events.append(end) }
                state = .under
            } else {
                state = .over(since: since, limit: limit, peak: max(peak, speed))
            }
        }
        if case .pending(let since, let position, let limit, let peak) = state,
            fix.time.duration(since: since) >= settings.overspeedMinDuration
        {
            state = .over(since: since, limit: limit, peak: peak)
            let report = DrivingReport(
                kind: .overspeedStart,
                peak: peak,
                duration: fix.time.duration(since: since),
                speed: speed,
                limit: limit,
                position: position
            )
            events.append(Event(time: since, kind: .driving(report)))
        }
        return events
    }

    /// A gap in the data before the fix about to be observed: an overspeed not yet confirmed is forgotten, one
    /// reported ends at the last fix before the gap (reason `gap`).
    mutating func gap() -> [Event] {
        defer { state = .under }
        guard let lastFix, let end = end(at: lastFix, speed: lastFix.speed ?? 0, reason: "gap") else { return [] }
        return [end]
    }

    /// The driving stops being judged (shutdown, the end of a replay): an overspeed in progress ends at the last
    /// fix.
    mutating func finish() -> [Event] {
        defer { state = .under }
        guard let lastFix, let end = end(at: lastFix, speed: lastFix.speed ?? 0, reason: "shutdown") else { return [] }
        return [end]
    }

    /// The `overspeed_end` of the episode reported, ending at `fix`; nil when none was reported.
    private func end(at fix: Location, speed: Double, reason: String?) -> Event? {
        guard case .over(let since, let limit, let peak) = state else { return nil }
        let report = DrivingReport(
            kind: .overspeedEnd,
            peak: peak,
            duration: fix.time.duration(since: since),
            speed: speed,
            limit: limit,
            position: fix.coordinate,
            reason: reason
        )
        return Event(time: fix.time, kind: .driving(report))
    }
}
