import Logging
import WaymarkCore
import WaymarkStore

/// What live and replay share: the pipeline, event numbering, the deferral windows, the spool, delivery,
/// and an operator-readable log line for every error and status change (and, at debug level, for every fix
/// not delivered).
struct AgentCore {
    private(set) var pipeline: EventPipeline
    private var sequencer: EventSequencer
    private var deferral: DeferralPolicy
    private let storage: Storage?
    private let encoder = EventEncoder()
    private let sink: any EventSink
    private let logger: Logger
    /// The status last logged.
    private var loggedStatus: Status?
    /// When the trip in progress was last saved, and whether the vehicle stood still then.
    private var tripSaved: (at: MonotonicInstant, standing: Bool)?

    /// - Parameters:
    ///   - savedInside: the regions saved as inside before this start, or nil; the spool's when there is one.
    ///   - storage: the spool and its sinks; nil keeps events in this process only (`--print`).
    init(
        configuration: Configuration,
        savedInside: Set<String>? = nil,
        storage: Storage? = nil,
        sink: any EventSink,
        logger: Logger
    ) {
        pipeline = EventPipeline(
            location: configuration.location,
            heading: configuration.heading,
            regions: configuration.regions.monitor,
            activity: configuration.activity,
            savedInside: storage?.recovered.insideRegions ?? savedInside
        )
        sequencer = EventSequencer(lastSeq: storage?.recovered.lastSeq ?? 0)
        deferral = DeferralPolicy(settings: configuration.deferred)
        self.storage = storage
        self.sink = sink
        self.logger = logger
    }

    /// Emits what the start found: the deferral window a crash left open (it ends now, with reason `restart`,
    /// so that every window still ends in exactly one `deferred_finished`), the storage's problems (a spool
    /// moved aside), and the trip a power cut interrupted (reason `interrupted`).
    mutating func start(reports: [ErrorReport], at wallClock: Timestamp, now: MonotonicInstant) {
        if let storage, let start = storage.recovered.windowStart {
            let report = DeferralReport(
                reason: .restart,
                events: storage.recovered.lastSeq >= start ? Int(storage.recovered.lastSeq - start + 1) : 0,
                distance: nil,
                duration: nil
            )
            emit(closeWindow(report, time: wallClock, now: now))
        }
        var events = reports.map { Event(time: wallClock, kind: .error($0)) }
        if let trip = storage?.recovered.openTrip {
            logger.notice(
                "the trip in progress when the agent last stopped without a shutdown is reported as interrupted",
                metadata: ["start": "\(trip.start)", "distance_m": "\(Int(trip.distance.rounded()))"]
            )
            events.append(Event(time: trip.end, kind: .trip(trip)))
        }
        deliver(&events, now: now)
    }

    /// The pipeline's counters, and the spool's commits.
    var counters: Counters {
        var counters = pipeline.counters
        if let storage { counters.count("spool_commits", by: storage.commits) }
        return counters
    }

    /// Applies reloaded `[location]`, `[heading]`, `[activity]`, `[regions]` and `[deferred]` settings; what
    /// the pipeline knows is kept.
    mutating func apply(_ configuration: Configuration, wallClock: Timestamp, now: MonotonicInstant) {
        pipeline.locationSettings = configuration.location
        pipeline.headingSettings = configuration.heading
        pipeline.regionSettings = configuration.regions.monitor
        var events = pipeline.applyActivity(configuration.activity, wallClock: wallClock)
        deliver(&events, now: now)
        applyDeferral(configuration.deferred, wallClock: wallClock, now: now)
    }

    /// Applies `[deferred]` settings, or `waymark defer off` / `on`: turning deferral off ends the open window.
    mutating func applyDeferral(_ settings: DeferralSettings, wallClock: Timestamp, now: MonotonicInstant) {
        guard storage != nil, let report = deferral.apply(settings, now: now) else { return }
        emit(closeWindow(report, time: pipeline.eventTime(wallClock), now: now))
    }

    /// Whether events are deferred now (`[deferred] enabled`, and not `waymark defer off`).
    var deferralSettings: DeferralSettings { deferral.settings }

    /// When the core next has something to do without input (``advance(to:wallClock:)``): a no-fix pause, a
    /// probe, the end of a deferral window. The spool's commits are on the process's clock (``nextCommit``).
    var nextDeadline: MonotonicInstant? {
        [pipeline.activity.nextDeadline, storage == nil ? nil : deferral.nextDeadline].compactMap { $0 }.min()
    }

    /// Whether the receiver is to be watched now (false while paused with power saving, between probes).
    var wantsWatch: Bool { pipeline.activity.wantsWatch }

    /// Time passes without input.
    mutating func advance(to now: MonotonicInstant, wallClock: Timestamp) {
        expireWindow(now: now, wallClock: wallClock)
        var events = pipeline.advance(to: now, wallClock: wallClock)
        deliver(&events, now: now)
    }

    /// Commits what is due and hands the released events to the sinks; a drop or a failure becomes an
    /// `error` event (committed with the next commit).
    mutating func commit(now: MonotonicInstant, wallClock: Timestamp) {
        saveOpenTrip(now: now)
        guard let reports = storage?.commitIfDue(), !reports.isEmpty else { return }
        var events = reports.map { Event(time: pipeline.eventTime(wallClock), kind: .error($0)) }
        deliver(&events, now: now)
    }

    /// Saves the trip in progress every ``tripSaveInterval``, and when the vehicle comes to a stand (where an
    /// ignition switched off would leave it), so that a power cut loses at most that much of the trip.
    private mutating func saveOpenTrip(now: MonotonicInstant) {
        guard let storage, let trip = pipeline.activity.tripSoFar else {
            tripSaved = nil
            return
        }
        let standing = pipeline.activity.isStandingStill
        let due = tripSaved.map { now - $0.at >= Self.tripSaveInterval || standing != $0.standing } ?? true
        guard due else { return }
        storage.saveOpenTrip(trip)
        tripSaved = (now, standing)
    }

    /// How often the trip in progress is saved while it goes on.
    static let tripSaveInterval = Duration.seconds(60)

    /// When the spool next commits or retries, on the process's monotonic clock.
    var nextCommit: MonotonicInstant? { storage?.nextDeadline }

    /// The agent stops: the trip in progress ends, then the deferral window; then the spool commits and the
    /// sinks get everything.
    mutating func finish(now: MonotonicInstant, wallClock: Timestamp) {
        var events = pipeline.finish()
        deliver(&events, now: now)
        if storage != nil, let report = deferral.finish(now: now) {
            emit(closeWindow(report, time: pipeline.eventTime(wallClock), now: now))
        }
        // A failure this late is logged by the storage; no later commit could carry its event.
        _ = storage?.close()
    }

    /// Monitors a loaded region file; the refused regions' errors are delivered stamped `time`.
    mutating func monitor(_ regions: RegionSource.Loaded, at time: Timestamp, now: MonotonicInstant) {
        var events = pipeline.monitor(regions.index, refusals: regions.refusals, at: time)
        logger.info("monitoring \(regions.count) regions", metadata: ["refused": "\(regions.refusals.count)"])
        deliver(&events, now: now)
    }

    /// The regions the vehicle is inside, when that set changed since the last call; the spool saves them
    /// with its next commit.
    mutating func changedInsideRegions() -> [String]? {
        guard pipeline.takeRegionChanges() else { return nil }
        let inside = pipeline.regions.insideIDs
        storage?.saveInside(inside)
        return inside
    }

    mutating func process(_ update: SourceUpdate) {
        expireWindow(now: update.monotonic, wallClock: update.wallClock)
        var events = pipeline.handle(update)
        if pipeline.lastVerdict != nil { logVerdict(update) }
        deliver(&events, now: update.monotonic)
    }

    /// Ends the deferral window whose timeout passed before `now`.
    private mutating func expireWindow(now: MonotonicInstant, wallClock: Timestamp) {
        guard storage != nil, let report = deferral.advance(to: now) else { return }
        emit(closeWindow(report, time: pipeline.eventTime(wallClock), now: now))
    }

    /// Numbers the events one by one; with a spool, stores each and lets the deferral window see it, ending
    /// the window (its `deferred_finished` follows the event that ended it) or releasing the event at once
    /// when nothing is deferred. Then the printing sink gets them.
    private mutating func deliver(_ events: inout [Event], now: MonotonicInstant) {
        guard !events.isEmpty else { return }
        guard let storage else {
            sequencer.number(&events)
            sink.deliver(events)
            for event in events { log(event) }
            return
        }
        var numbered: [Event] = []
        numbered.reserveCapacity(events.count + 1)
        for var event in events {
            sequencer.number(&event)
            let stored = StoredEvent(event, encoder: encoder)
            storage.append(stored)
            if case .trip = event.kind { storage.clearOpenTrip() }
            numbered.append(event)
            let wasDeferring = deferral.isDeferring
            let report = deferral.observe(event, bytes: stored.line.count, now: now)
            if !wasDeferring && deferral.isDeferring { storage.windowOpened(at: event.seq) }
            if let report {
                numbered.append(closeWindow(report, time: event.time, now: now))
            } else if !deferral.isDeferring {
                storage.release(through: event.seq, closingWindow: false)
            }
        }
        events = numbered
        sink.deliver(events)
        for event in events { log(event) }
    }

    /// Ends a deferral window: its `deferred_finished` is numbered and stored, and the window's batch is
    /// released to the sinks.
    private mutating func closeWindow(_ report: DeferralReport, time: Timestamp, now: MonotonicInstant) -> Event {
        var finished = Event(time: time, kind: .deferredFinished(report))
        sequencer.number(&finished)
        storage?.append(StoredEvent(finished, encoder: encoder))
        storage?.release(through: finished.seq, closingWindow: true)
        return finished
    }

    /// Hands an event made outside ``deliver(_:now:)`` to the printing sink and the log.
    private mutating func emit(_ event: Event) {
        sink.deliver([event])
        log(event)
    }

    private func logVerdict(_ update: SourceUpdate) {
        guard case .location(let location) = update.event else { return }
        if let jump = pipeline.filter.timeBaseJump {
            logger.warning(
                "the receiver's GPS time moved by \(jump.secondsValue) s against the monotonic clock; fixes are judged from this one on",
                metadata: ["time": "\(location.time)"]
            )
        }
        if case .hold(let reason) = pipeline.lastVerdict {
            logger.debug("fix not delivered", metadata: ["reason": "\(reason.rawValue)", "time": "\(location.time)"])
        }
    }

    private mutating func log(_ event: Event) {
        switch event.kind {
        case .error(let report):
            logger.warning("\(report.message)", metadata: ["code": "\(report.code)", "seq": "\(event.seq)"])
        case .status(let status):
            var metadata: Logger.Metadata = [
                "gpsd": "\(status.gpsd.rawValue)", "fix_mode": "\(status.fixMode.rawValue)",
            ]
            if let device = status.device { metadata["device"] = "\(device)" }
            if let used = status.satellitesUsed { metadata["satellites_used"] = "\(used)" }
            // A change of the satellites used alone is routine: the log keeps it for debugging.
            let level: Logger.Level =
                loggedStatus.map {
                    $0.gpsd == status.gpsd && $0.device == status.device && $0.fixMode == status.fixMode
                }
                    == true ? .debug : .info
            loggedStatus = status
            logger.log(level: level, "status changed", metadata: metadata)
        case .pause(let pause):
            var metadata: Logger.Metadata = ["reason": "\(pause.reason.rawValue)", "seq": "\(event.seq)"]
            if let position = pause.position { metadata["position"] = "\(position.latitude),\(position.longitude)" }
            logger.info("location updates paused", metadata: metadata)
        case .resume(let resume):
            var metadata: Logger.Metadata = ["reason": "\(resume.reason.rawValue)", "seq": "\(event.seq)"]
            if let distance = resume.distance { metadata["moved_m"] = "\(Int(distance.rounded()))" }
            logger.info("location updates resumed", metadata: metadata)
        case .trip(let trip):
            logger.info(
                "trip ended",
                metadata: [
                    "reason": "\(trip.endReason.rawValue)", "distance_m": "\(Int(trip.distance.rounded()))",
                    "duration_s": "\(Int(trip.duration.secondsValue.rounded()))", "seq": "\(event.seq)",
                ]
            )
        case .deferredFinished(let report):
            logger.debug(
                "deferred events released to the sinks",
                metadata: ["reason": "\(report.reason.rawValue)", "events": "\(report.events)", "seq": "\(event.seq)"]
            )
        case .location, .heading, .region, .regionState:
            break
        }
    }
}
