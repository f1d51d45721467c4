/// Core Location's automatic pauses for a vehicle, from the receiver's data alone (``ActivitySettings``):
/// pauses when the vehicle stands still for `pause_after` or has no usable fix for `no_fix_pause_after`,
/// resumes on real movement, probes the receiver while paused with power saving, and cuts the drive into
/// trips.
///
/// Standing still is a *stay*: usable fixes within the stationary radius of its first fix (the anchor),
/// the radius widened to a fix's own 95 % accuracy up to three times, as the location filter does for
/// jitter. A stay ends only when ``ActivitySettings/confirmingFixes`` usable fixes in a row, spanning
/// ``ActivitySettings/confirmingSpan``, show movement: outside the radius, or a receiver-measured speed of
/// at least `stationary_speed`. So neither the tens of metres a parked receiver wanders nor one noisy speed
/// resumes; gpsd's computed speeds never reach here (a location carries only measured ones).
///
/// Durations between fixes are measured between their GPS times (vetted by the freshness check), so a
/// capture fed at any pace gives the same pauses and trips; waiting without fixes is measured on the
/// monotonic clock. Pure: the caller passes the clocks.
public struct ActivityMonitor: Sendable {
    public private(set) var settings: ActivitySettings
    /// Probes started while paused, and those that ended without a decision.
    public private(set) var probes = 0
    public private(set) var probeTimeouts = 0
    /// Metres driven: the sum of every trip's distance (so a standing receiver's wander never counts), carried
    /// across restarts by the agent (``setOdometer(_:)``).
    public private(set) var odometer = 0.0

    /// Active, or paused with its probes (``Phase``).
    private var phase = Phase.active
    private var trip: TripRecorder?
    /// Standing still, paused or not (``Phase`` says why it is not part of the phase).
    private var stay: Stay?
    private var lastUsable: Location?
    private var lastUsableArrival: MonotonicInstant?
    /// When the monitor first heard from the source: the monotonic no-fix wait before any usable fix
    /// starts there.
    private var started: MonotonicInstant?
    /// The GPS time a gap without usable fixes is measured from: the last usable fix of this stream, else
    /// its first epoch. A new stream (a new connection to gpsd) starts afresh: a gap across streams is the
    /// outage itself, which the monotonic wait measures.
    private var gapReference: Timestamp?
    /// Whether the current loss of fix has been acted on (a pause, or the end of the trip).
    private var fixLossHandled = false

    private struct Stay: Sendable {
        var anchor: Location
        /// GPS times of the first and the last stationary fix.
        var since: Timestamp
        var last: Timestamp
        var speeds = SpeedStatistics()
        /// Consecutive usable fixes that show movement away from the anchor.
        var departure: [Location] = []

        init(anchor: Location) {
            self.anchor = anchor
            since = anchor.time
            last = anchor.time
            speeds.add(anchor.speed)
        }
    }

    public init(settings: ActivitySettings = .init()) { self.settings = settings }

    /// The pause in force, if any.
    public var pause: PauseReport? { phase.pause }

    public var isPaused: Bool { phase.pause != nil }

    /// Whether the receiver should be watched now: always while active; while paused with power saving,
    /// only during a probe.
    public var wantsWatch: Bool { phase.wantsWatch }

    /// Whether a trip is in progress.
    public var isOnTrip: Bool { trip != nil }

    /// Whether the vehicle stands still (usable fixes stay within `stationary_radius`), paused or not yet.
    public var isStandingStill: Bool { stay != nil }

    /// The next instant at which ``advance(to:time:)`` has something to do: the no-fix pause, the start or
    /// the end of a probe.
    public var nextDeadline: MonotonicInstant? {
        switch phase {
        case .active:
            guard !fixLossHandled, let reference = lastUsableArrival ?? started else { return nil }
            return reference + settings.noFixPauseAfter
        case .paused(_, let probe):
            return probe.deadline(settings)
        }
    }

    /// A fix that passed the freshness check. `usable` is false when it was held back as inaccurate; fixes
    /// less accurate than `max_accuracy` are not usable either. Returns the `pause`, `resume` and `trip`
    /// events it causes, in order.
    public mutating func observe(_ fix: Location, arrival: MonotonicInstant, usable: Bool = true) -> [Event] {
        var events: [Event] = []
        started = started ?? arrival
        handleFixLoss(before: fix.time, now: arrival, into: &events)
        guard usable, fix.horizontalAccuracy.map({ $0 <= settings.maxAccuracy }) ?? true else { return events }
        let previous = lastUsable
        lastUsable = fix
        lastUsableArrival = arrival
        gapReference = fix.time
        fixLossHandled = false
        scheduleProbeIfPending(after: arrival)
        guard let current = stay else {
            travel(to: fix)
            // The first fix, or one slow enough to be standing: a stay may begin here.
            if previous.map({ looksStationary(fix, after: $0) }) ?? true { stay = Stay(anchor: fix) }
            return events
        }
        if showsMovement(fix, from: current.anchor) {
            stay?.departure.append(fix)
            phase.probe { $0.sawMovement() }
            if isConfirmed(stay?.departure ?? []) { depart(at: fix, into: &events) }
            return events
        }
        stay?.departure.removeAll()
        stay?.last = fix.time
        stay?.speeds.add(fix.speed)
        phase.probe { [settings] in $0.sawQuietFix(arrival: arrival, settings) }
        if fix.time.duration(since: current.since) >= settings.pauseAfter {
            stoodLongEnough(at: fix, arrival: arrival, into: &events)
        }
        return events
    }

    /// An epoch without a usable position; `time` is its GPS time when it had one.
    public mutating func noFix(time: Timestamp?, arrival: MonotonicInstant) -> [Event] {
        var events: [Event] = []
        started = started ?? arrival
        if let time { handleFixLoss(before: time, now: arrival, into: &events) }
        return events
    }

    /// Time passes without input: the no-fix pause, and the probes while paused. `time` stamps a pause
    /// when no fix was ever usable (else it is stamped from the last usable fix's GPS time).
    public mutating func advance(to now: MonotonicInstant, time: Timestamp) -> [Event] {
        var events: [Event] = []
        started = started ?? now
        scheduleProbeIfPending(after: now)
        if case .active = phase, !fixLossHandled, let reference = lastUsableArrival ?? started,
            now - reference >= settings.noFixPauseAfter
        {
            let stamp = lastUsable?.time.advanced(by: settings.noFixPauseAfter) ?? time
            loseFix(stamp: stamp, now: now, probing: false, into: &events)
        }
        guard case .paused(let pause, let probe) = phase else { return events }
        switch probe {
        case .waiting(let next) where now >= next:
            probes += 1
            phase = .paused(pause, probe: .running(started: now, quietFixes: 0))
        case .running(let started, _) where now - started >= settings.probeTimeout:
            probeTimeouts += 1
            phase = .paused(pause, probe: .waiting(next: max(started + settings.probeInterval, now)))
        default:
            break
        }
        return events
    }

    /// The agent stops (or the replay ends): the trip in progress ends here.
    public mutating func finish() -> [Event] {
        guard let trip else { return [] }
        self.trip = nil
        let (end, position) = tripEnd(of: trip)
        return [
            Event(time: end, kind: .trip(trip.summary(end: end, at: position, reason: .shutdown, odometer: odometer)))
        ]
    }

    /// The trip in progress as it would end now, with reason `interrupted`: what the agent saves so that a
    /// power cut does not lose it. Nil when no trip is in progress.
    public var tripSoFar: TripSummary? {
        guard let trip else { return nil }
        let (end, position) = tripEnd(of: trip)
        return trip.summary(end: end, at: position, reason: .interrupted, odometer: odometer)
    }

    /// Sets the odometer: what the agent saved, or the vehicle's own (`waymark odometer set`). Metres, 0 or more.
    public mutating func setOdometer(_ metres: Double) {
        guard metres.isFinite, metres >= 0 else { return }
        odometer = metres
    }

    /// The trip in progress goes on to `fix`; the odometer counts the way.
    private mutating func travel(to fix: Location) {
        guard let step = trip?.travel(to: fix) else { return }
        odometer += step
    }

    /// A new stream of reports begins (a new connection to gpsd): gaps in GPS time are measured within it.
    public mutating func startNewStream() { gapReference = nil }

    /// A region entered: recorded in the trip in progress.
    public mutating func entered(region id: String) { trip?.entered(region: id) }

    // MARK: - Movement

    private func looksStationary(_ fix: Location, after previous: Location) -> Bool {
        if let speed = fix.speed { return speed < settings.stationarySpeed }
        let seconds = fix.time.duration(since: previous.time).secondsValue
        return seconds > 0 && previous.distance(to: fix) <= settings.stationarySpeed * seconds
    }

    private func showsMovement(_ fix: Location, from anchor: Location) -> Bool {
        if let speed = fix.speed, speed >= settings.stationarySpeed { return true }
        return isOutside(fix, from: anchor)
    }

    private func isOutside(_ fix: Location, from anchor: Location) -> Bool {
        LocationFilter.hasMoved(settings.stationaryRadius, from: anchor, to: fix)
    }

    private func isConfirmed(_ fixes: [Location]) -> Bool {
        guard fixes.count >= ActivitySettings.confirmingFixes, let first = fixes.first, let last = fixes.last else {
            return false
        }
        return last.time.duration(since: first.time) >= ActivitySettings.confirmingSpan
    }

    /// The vehicle left its stay: the trip starts (or goes on after a short stop), and a pause ends.
    private mutating func depart(at fix: Location, into events: inout [Event]) {
        guard let current = stay, let first = current.departure.first else { return }
        if trip == nil, phase.pause?.reason == .noFix {
            // Where the vehicle went while no fix came is unknown: the trip starts at its first fix seen moving.
            trip = TripRecorder(start: first.time, at: first.coordinate, last: first)
        } else if trip == nil {
            trip = TripRecorder(start: current.last, at: current.anchor.coordinate, last: current.anchor)
        } else {
            trip?.stopped(for: first.time.duration(since: current.since), speeds: current.speeds)
        }
        for step in current.departure { travel(to: step) }
        if let pause = phase.pause {
            let reason: ResumeReport.Reason = isOutside(fix, from: current.anchor) ? .displacement : .speed
            let distance = pause.position.map { Geodesic.distance(from: $0, to: fix.coordinate) }
            let report = ResumeReport(reason: reason, position: fix.coordinate, distance: distance)
            events.append(Event(time: fix.time, kind: .resume(report)))
            phase = .active
        }
        stay = nil
    }

    /// The vehicle has stood still for `pause_after`: the trip ends where it stopped, and updates pause.
    private mutating func stoodLongEnough(at fix: Location, arrival: MonotonicInstant, into events: inout [Event]) {
        guard let current = stay else { return }
        if let trip {
            let summary = trip.summary(
                end: current.since,
                at: current.anchor.coordinate,
                reason: .stationary,
                odometer: odometer
            )
            events.append(Event(time: current.since, kind: .trip(summary)))
            self.trip = nil
        }
        guard settings.pausesAutomatically, case .active = phase else { return }
        let report = PauseReport(reason: .stationary, position: current.anchor.coordinate, since: current.since)
        events.append(Event(time: fix.time, kind: .pause(report)))
        phase = .paused(report, probe: .scheduled(after: arrival, settings))
    }

    // MARK: - Loss of fix

    /// A fix or an epoch at GPS time `time`: if no usable fix came for `no_fix_pause_after` before it, the
    /// loss is acted on as the monotonic wait would have, stamped when that wait ended.
    private mutating func handleFixLoss(before time: Timestamp, now: MonotonicInstant, into events: inout [Event]) {
        guard let reference = gapReference else {
            gapReference = time
            return
        }
        guard case .active = phase, !fixLossHandled, time.duration(since: reference) >= settings.noFixPauseAfter else {
            return
        }
        // Reports arrive again, so the receiver is probed at once with them rather than left unwatched.
        loseFix(stamp: reference.advanced(by: settings.noFixPauseAfter), now: now, probing: true, into: &events)
    }

    private mutating func loseFix(
        stamp: Timestamp,
        now: MonotonicInstant,
        probing: Bool,
        into events: inout [Event]
    ) {
        fixLossHandled = true
        if let trip {
            let (end, position) = tripEnd(of: trip)
            events.append(
                Event(time: end, kind: .trip(trip.summary(end: end, at: position, reason: .noFix, odometer: odometer)))
            )
            self.trip = nil
        }
        // Movement is judged from the last usable fix when fixes return.
        stay = lastUsable.map(Stay.init(anchor:))
        guard settings.pausesAutomatically, case .active = phase else { return }
        let report = PauseReport(reason: .noFix, position: lastUsable?.coordinate, since: lastUsable?.time)
        events.append(Event(time: max(stamp, lastUsable?.time ?? stamp), kind: .pause(report)))
        guard probing, settings.powerSave else {
            phase = .paused(report, probe: .scheduled(after: now, settings))
            return
        }
        probes += 1
        phase = .paused(report, probe: .running(started: now, quietFixes: 0))
    }

    /// Where and when a trip ends that is cut short: at its stop if the vehicle stands, else at its last fix.
    private func tripEnd(of trip: TripRecorder) -> (Timestamp, Coordinate) {
        if let stay { return (stay.since, stay.anchor.coordinate) }
        return (trip.last.time, trip.last.coordinate)
    }

    // MARK: - Probes

    /// Schedules the probe that power saving turned on while paused asked for, now that the time is known.
    private mutating func scheduleProbeIfPending(after instant: MonotonicInstant) {
        guard case .paused(let pause, .pending) = phase else { return }
        phase = .paused(pause, probe: .scheduled(after: instant, settings))
    }

    /// Applies reloaded `[activity]` settings. Turning automatic pausing off ends a pause (a `resume` with
    /// reason `settings`, stamped `time`); a change of power saving or probe interval reschedules the probes.
    public mutating func apply(_ new: ActivitySettings, time: Timestamp) -> [Event] {
        let old = settings
        settings = new
        guard let pause = phase.pause else { return [] }
        if !new.pausesAutomatically {
            phase = .active
            let position = lastUsable?.coordinate
            let distance = pause.position.flatMap { from in
                position.map { Geodesic.distance(from: from, to: $0) }
            }
            let report = ResumeReport(reason: .settings, position: position, distance: distance)
            return [Event(time: max(time, lastUsable?.time ?? time), kind: .resume(report))]
        }
        if new.powerSave != old.powerSave || new.probeInterval != old.probeInterval {
            phase = .paused(pause, probe: new.powerSave ? .pending : .off)
        }
        return []
    }
}
