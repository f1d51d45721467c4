/// The core's entry point: turns what the source reports into output events.
///
/// It reports the locations that the ``LocationFilter`` delivers, availability (`status` whenever the
/// connection, the device or the fix mode changes, with the last known location) and errors following Core
/// Location's model: `gpsd_unavailable` and `no_device` once per outage, `location_unknown` once when the
/// fix is lost, cleared by the next fix and never stopping anything. Every fix not delivered is counted
/// under its reason. Headings, region crossings and the activity's pauses, resumes and trips join them.
///
/// Pure: no clock reads; the update carries its own times.
public struct EventPipeline: Sendable {
    public private(set) var counters = Counters()
    public private(set) var filter: LocationFilter
    /// What the filter decided about the fix of the last update; nil when that update carried none.
    public private(set) var lastVerdict: LocationVerdict?
    /// The connection, the receiver and its fix as the last update left them (the `status` event's content).
    public private(set) var status = Status(gpsd: .unavailable)
    /// What has been reported of the source's availability: the outage, the receiver, the fix.
    private var phase = Phase.starting

    public private(set) var heading: HeadingFilter
    public private(set) var regions: RegionMonitor<RegionIndex>
    public private(set) var activity: ActivityMonitor
    public private(set) var driving: DrivingMonitor
    /// The `driving` events since the last trip ended: the next `trip` event carries them.
    private var tripDriving = DrivingTally()
    /// Whether the set of regions the vehicle is inside changed since ``takeRegionChanges()``: the agent
    /// then saves it.
    public private(set) var regionsChanged = false
    /// How far the monotonic clock runs ahead of GPS time, from the fixes seen (the freshness check's
    /// reference). A reconnection keeps it until the new stream's first fix sets it again. Nil before the
    /// first fix.
    public private(set) var gpsClockDelay: Duration?

    /// - Parameter savedInside: the regions the vehicle was inside when their states were last saved, or nil.
    public init(
        location settings: LocationSettings = .init(),
        heading headingSettings: HeadingSettings = .init(),
        regions regionSettings: RegionSettings = .init(),
        activity activitySettings: ActivitySettings = .init(),
        driving drivingSettings: DrivingSettings = .init(),
        savedInside: Set<String>? = nil,
        odometer: Double = 0
    ) {
        filter = LocationFilter(settings: settings)
        driving = DrivingMonitor(settings: drivingSettings)
        activity = ActivityMonitor(settings: activitySettings)
        activity.setOdometer(odometer)
        heading = HeadingFilter(settings: headingSettings)
        regions = RegionMonitor(lookup: RegionIndex(), settings: regionSettings, savedInside: savedInside)
    }

    /// The `[regions]` monitor settings.
    public var regionSettings: RegionSettings {
        get { regions.settings }
        set { regions.settings = newValue }
    }

    /// Monitors a new set of regions (a loaded or reloaded region file): states are kept by id; every
    /// refused region gives one `region_monitoring_failure` error, stamped `time`.
    public mutating func monitor(_ index: RegionIndex, refusals: [RegionRefusal], at time: Timestamp) -> [Event] {
        regions.replace(index)
        regionsChanged = true
        let stamp = filter.newestFix.map { max($0.time, time) } ?? time
        return refusals.map { refusal in
            counters.count("region_monitoring_failure")
            let report = ErrorReport(
                code: .regionMonitoringFailure,
                message: "region \"\(refusal.id)\" is not monitored: \(refusal.reason)",
                subject: refusal.id
            )
            return Event(time: stamp, kind: .error(report))
        }
    }

    /// Whether the inside set changed since the last call, resetting the flag.
    public mutating func takeRegionChanges() -> Bool {
        defer { regionsChanged = false }
        return regionsChanged
    }

    /// The `[heading]` settings; changing them keeps the last position and heading.
    public var headingSettings: HeadingSettings {
        get { heading.settings }
        set { heading.settings = newValue }
    }

    /// The `[location]` settings; changing them keeps what the filter knows (the last delivery, the
    /// freshness reference).
    public var locationSettings: LocationSettings {
        get { filter.settings }
        set { filter.settings = newValue }
    }

    /// The last location delivered.
    public var lastLocation: Location? { filter.lastDelivered }

    /// Applies reloaded `[activity]` settings; turning automatic pausing off ends a pause (a `resume`).
    public mutating func applyActivity(
        _ settings: ActivitySettings,
        at now: MonotonicInstant,
        wallClock: Timestamp
    ) -> [Event] {
        recorded(activity.apply(settings, time: eventTime(at: now, wallClock: wallClock)))
    }

    /// Time passes without input (the agent's timer, at ``ActivityMonitor/nextDeadline``): the no-fix pause
    /// and the probes while paused.
    public mutating func advance(to now: MonotonicInstant, wallClock: Timestamp) -> [Event] {
        recorded(activity.advance(to: now, time: eventTime(at: now, wallClock: wallClock)))
    }

    /// The agent stops, or the replay ended: an overspeed in progress ends, then the trip in progress (a `trip`
    /// with reason `shutdown`).
    public mutating func finish() -> [Event] {
        var events: [Event] = []
        record(driving: driving.finish(), received: nil, into: &events)
        return events + recorded(activity.finish())
    }

    /// Applies reloaded `[driving]` settings; turning it off ends what is in progress.
    public mutating func applyDriving(_ settings: DrivingSettings) -> [Event] {
        var events: [Event] = []
        record(driving: driving.apply(settings), received: nil, into: &events)
        return events
    }

    /// Sets the odometer, metres (`waymark odometer set`).
    public mutating func setOdometer(_ metres: Double) { activity.setOdometer(metres) }

    /// The lowest `speed_limit` of the regions the vehicle is inside, m/s; nil when none has one.
    private var regionSpeedLimit: Double? {
        var lowest: Double?
        for id in regions.insideIDs {
            guard let slot = regions.lookup.slot(of: id), let limit = regions.lookup.region(at: slot)?.speedLimitKmh
            else { continue }
            lowest = min(lowest ?? limit, limit)
        }
        return lowest.map { $0 / 3.6 }
    }

    public mutating func handle(_ update: SourceUpdate) -> [Event] {
        var events: [Event] = []
        let previous = status
        let isFirst = phase.begin()
        lastVerdict = nil
        record(
            activity.advance(to: update.monotonic, time: eventTime(update)),
            received: update.received,
            into: &events
        )
        if heading.settings.enabled {
            record(heading.expire(at: update.monotonic, time: eventTime(update)), update, into: &events)
        }
        switch update.event {
        case .connected:
            status.gpsd = .connected
            phase.connected()
            filter.startNewStream()
            activity.startNewStream()
        case .unavailable(let server, let reason, let retryIn):
            counters.count("gpsd_unavailable")
            status.gpsd = .unavailable
            status.device = nil
            status.fixMode = .notSeen
            status.satellitesUsed = nil
            if heading.settings.enabled { record(heading.sourceLost(time: eventTime(update)), update, into: &events) }
            if phase.unavailable() {
                var message = "gpsd at \(server) is unavailable: \(reason)"
                if let retryIn { message += "; retrying in \(Self.describe(retryIn)) and backing off" }
                events.append(error(.gpsdUnavailable, message, update))
            }
        case .deviceActive(let path):
            status.device = path
            phase.ended(.noDevice)
        case .deviceGone(let path):
            status.device = nil
            status.fixMode = .notSeen
            if heading.settings.enabled { record(heading.sourceLost(time: eventTime(update)), update, into: &events) }
            if phase.isNews(.noDevice) {
                let message =
                    path.map { "the receiver \($0) is gone: gpsd stopped reporting from it" }
                    ?? "gpsd has no receiver: check the device and gpsd's configuration"
                events.append(error(.noDevice, message, update))
            }
        case .location(let location):
            let held = filter.vet(
                location,
                arrival: update.monotonic,
                wallClock: update.wallClock,
                wallClockSynchronized: update.wallClockSynchronized
            )
            if let delay = filter.arrivalDelay { gpsClockDelay = delay }
            if held == nil || held == .inaccurate {
                let changes = activity.observe(location, arrival: update.monotonic, usable: held == nil)
                record(changes, received: update.received, into: &events)
            }
            let verdict = held.map(LocationVerdict.hold) ?? filter.decide(location, paused: activity.isPaused)
            lastVerdict = verdict
            // A stale, repeated or out-of-order fix says nothing about the receiver now.
            if verdict.isCurrent {
                status.fixMode = location.mode
                phase.ended(.locationUnknown)
                status.lastKnown = filter.lastKnown
            }
            if filter.timeBaseJump != nil { counters.count("time_base_reset") }
            counters.count(verdict)
            if case .deliver = verdict {
                events.append(Event(time: location.time, received: update.received, kind: .location(location)))
            }
            if verdict.isCurrent, heading.settings.enabled {
                record(heading.location(location, arrival: update.monotonic), update, into: &events)
            }
            if verdict.isCurrent {
                for transition in regions.observe(location) { record(transition, update, into: &events) }
            }
            // A repeated epoch with a measured speed is the RMC after a GGA (which has none): driving needs it.
            if driving.settings.enabled,
                verdict.isCurrent || (verdict == .hold(.repeatedEpoch) && location.speed != nil)
            {
                let changes = driving.observe(location, regionLimit: regionSpeedLimit)
                record(driving: changes, received: update.received, into: &events)
            }
        case .noFix(_, let time):
            counters.count("no_fix")
            record(activity.noFix(time: time, arrival: update.monotonic), received: update.received, into: &events)
            // An epoch without a usable position is no fix, whatever mode the receiver claimed.
            status.fixMode = .noFix
            if heading.settings.enabled { record(heading.fixLost(time: eventTime(update)), update, into: &events) }
            if phase.isNews(.locationUnknown) {
                events.append(
                    error(.locationUnknown, "the receiver has no fix; the last known location is kept", update)
                )
            }
        case .attitude(let attitude):
            counters.count("attitude")
            if heading.settings.enabled {
                let step = heading.attitude(attitude, arrival: update.monotonic, time: eventTime(update))
                record(step, update, into: &events)
            }
        case .sky(let sky):
            counters.count("sky")
            if let used = sky.satellitesUsed { status.satellitesUsed = used }
        case .gpsdError(let message):
            counters.count("gpsd_error")
            events.append(error(.gpsdError, "gpsd reported: \(message)", update))
        case .rejected(let rejection):
            counters.count(rejection.reason)
        case .dropped(let count):
            counters.count("dropped", by: count)
        }
        if isFirst || Self.availabilityChanged(from: previous, to: status) {
            let time = eventTime(update)
            // The status describes the state after the events above, so it follows them.
            events.append(Event(time: time, received: update.received, kind: .status(status)))
        }
        return events
    }

    /// The activity's events from outside an update, counted.
    private mutating func recorded(_ changes: [Event]) -> [Event] {
        var events: [Event] = []
        record(changes, received: nil, into: &events)
        return events
    }

    /// The activity's `pause`, `resume` and `trip` events, counted; a trip takes the `driving` events since the
    /// last one.
    private mutating func record(_ changes: [Event], received: Timestamp?, into events: inout [Event]) {
        for var change in changes {
            counters.count(change.type)
            change.received = received
            if case .trip(var summary) = change.kind {
                summary.driving = tripDriving
                tripDriving = DrivingTally()
                change.kind = .trip(summary)
            }
            events.append(change)
        }
    }

    /// The `driving` events, counted by kind and tallied for the trip.
    private mutating func record(driving changes: [Event], received: Timestamp?, into events: inout [Event]) {
        for var change in changes {
            guard case .driving(let report) = change.kind else { continue }
            counters.count("driving_\(report.kind.rawValue)")
            tripDriving.add(report)
            change.received = received
            events.append(change)
        }
    }

    /// The heading event and the failure of one heading step, counted.
    private mutating func record(_ step: HeadingFilter.Step, _ update: SourceUpdate, into events: inout [Event]) {
        if step.rejectedReading { counters.count("heading_invalid") }
        if let failure = step.failure { events.append(error(.headingFailure, failure, update)) }
        if let reading = step.heading, let time = step.time {
            counters.count("heading")
            events.append(Event(time: time, received: update.received, kind: .heading(reading)))
        }
    }

    /// The event of a region transition: `region` for a crossing, `region_state` for a determination.
    private mutating func record(
        _ transition: RegionMonitor<RegionIndex>.Transition,
        _ update: SourceUpdate,
        into events: inout [Event]
    ) {
        regionsChanged = true
        let change = transition.change
        switch transition.kind {
        case .determination:
            counters.count("region_state")
            let report = RegionStateReport(id: transition.regionID, state: change.state)
            events.append(Event(time: transition.confirmed, received: update.received, kind: .regionState(report)))
        case .crossing, .offlineCrossing:
            guard transition.notifies else {
                counters.count("region_not_notified")
                return
            }
            counters.count("region")
            if change.state == .inside { activity.entered(region: transition.regionID) }
            let region = RegionEvent(
                id: transition.regionID,
                crossing: change.state == .inside ? .enter : .exit,
                position: change.at,
                confirmed: transition.confirmed,
                offline: transition.kind == .offlineCrossing
            )
            events.append(Event(time: change.since, received: update.received, kind: .region(region)))
        }
    }

    /// A `status` event says that the connection, the receiver or the fix mode changed; the satellites used
    /// change every few seconds on a drive and stay in `waymark status` and the metrics.
    private static func availabilityChanged(from old: Status, to new: Status) -> Bool {
        old.gpsd != new.gpsd || old.device != new.device || old.fixMode.hasFix != new.fixMode.hasFix
            || (old.fixMode.hasFix && old.fixMode != new.fixMode)
    }

    private func error(_ code: ErrorCode, _ message: String, _ update: SourceUpdate) -> Event {
        Event(
            time: eventTime(update),
            received: update.received,
            kind: .error(ErrorReport(code: code, message: message))
        )
    }

    /// A fix-derived event carries the fix's GPS time; any other the time of ``eventTime(at:wallClock:)``.
    private func eventTime(_ update: SourceUpdate) -> Timestamp {
        if case .location(let location) = update.event { return location.time }
        return eventTime(at: update.monotonic, wallClock: update.wallClock)
    }

    /// The time of an event not derived from a fix, made at `now` (docs/architecture.md, "Clocks"): GPS time
    /// carried forward on the monotonic clock from the fixes seen, never before the newest fix; before the
    /// first fix, `wallClock`. A board without a real-time clock boots in 1970 or months off, and its events
    /// must land in the same day's log as the fixes around them.
    public func eventTime(at now: MonotonicInstant, wallClock: Timestamp) -> Timestamp {
        guard let gpsClockDelay else { return wallClock }
        let time = EventClock.gpsTime(at: now, delay: gpsClockDelay)
        guard let newest = filter.newestFix?.time, newest > time else { return time }
        return newest
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.secondsValue
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        return "\((seconds * 10).rounded() / 10) s"
    }
}
