import Logging
import WaymarkCore
import WaymarkGPSD
import WaymarkStore
import WaymarkSystem

/// What live and replay share: the pipeline, event numbering, the deferral windows, the spool, delivery,
/// and an operator-readable log line for every error and status change (and, at debug level, for every fix
/// not delivered).
struct AgentCore {
    private(set) var pipeline: EventPipeline
    private var sequencer: EventSequencer
    private(set) var deferral: DeferralPolicy
    let storage: Storage?
    private var encoder: EventEncoder
    /// The events made before the agent could date them, waiting for the first fix.
    private var untimed: UntimedEvents
    private let sink: any EventSink
    private let logger: Logger
    /// When the trip in progress was last saved, and whether the vehicle stood still then.
    private var tripSaved: (at: MonotonicInstant, standing: Bool)?
    /// `odometer` beside the spool, written at each trip's end when events are spooled (``keptOdometer(_:)``).
    private var keptOdometer: OdometerFile?
    /// What the agent did since it started: for ``serviceStatus``, `waymark status` and the metrics.
    var operating: OperatingState
    /// The health alarms; nil in a replay, whose clocks are the recording's.
    var health: HealthMonitor?
    /// What names the places of `pause` and `trip` events; nil with `[places] enabled = false`.
    private(set) var places: PlaceFinder?
    private var placesSettings: PlacesSettings
    /// The address file's version when it was opened: installed, replaced or rewritten since, it is opened
    /// again at the next reload, as its path's change would.
    private var addressFileVersion: FileVersion?
    /// The beacon regions and the ranged beacons; nil with `[beacons] enabled = false` (and in a replay without a
    /// Bluetooth capture).
    var beacons: BeaconMonitor?
    /// Whether a beacon region's state changed since the states were last saved.
    var beaconRegionsChanged = false
    /// How late the beacon source's sightings may reach the core (its batches): a region's exit or a beacon's loss
    /// waits that much past its deadline, so that a sighting heard before the deadline comes first. Zero in a
    /// replay, whose advertisements come in time order.
    var beaconLatency: Duration = .zero
    /// The beacon source's sightings, and its rejected frames by reason.
    var beaconSightings = 0
    var beaconRejections: [BeaconRejection: Int] = [:]
    /// The beacon source's failures since the start (the metrics).
    var beaconFailures = 0
    /// The board as an iBeacon; nil without `[beacons.advertise] enabled` (and in a replay).
    var advertising: AdvertisingState?
    /// The fleet's digests (``FleetDigests``): of the configuration in effect, and of the regions monitored.
    var configDigest: String
    var regionCount = 0
    var regionsDigest = FleetDigests.regions([], beacons: [])
    /// The last fleet command run or refused, and when: the fleet's status shows it.
    var lastCommand: (report: CommandReport, time: Timestamp)?

    /// - Parameters:
    ///   - savedInside: the regions saved as inside before this start, or nil; the spool's when there is one.
    ///   - clockFloor: the earliest time an event may carry while the clock is unknown (live: this release's
    ///     date); the spool's last event time raises it. Nil in a replay, whose clock is the recording's.
    ///   - storage: the spool and its sinks; nil keeps events in this process only (`--print`).
    ///   - health: when the health alarms start; nil raises none.
    init(
        configuration: Configuration,
        savedInside: Set<String>? = nil,
        clockFloor: Timestamp?,
        storage: Storage? = nil,
        health: HealthSettings? = nil,
        beacons: Bool? = nil,
        sink: any EventSink,
        logger: Logger
    ) {
        pipeline = EventPipeline(
            location: configuration.location,
            heading: configuration.heading,
            regions: configuration.regions.monitor,
            activity: configuration.activity,
            driving: configuration.driving,
            savedInside: storage?.recovered.insideRegions ?? savedInside,
            // A spool set aside (or lost) has none: the copy kept at the last trip's end, if any.
            odometer: storage?.recovered.odometer ?? storage.map(Self.keptOdometer)?.read() ?? 0
        )
        keptOdometer = storage.map(Self.keptOdometer)
        sequencer = EventSequencer(lastSeq: storage?.recovered.lastSeq ?? 0)
        deferral = DeferralPolicy(settings: configuration.deferred)
        encoder = EventEncoder(deviceID: configuration.agent.deviceID)
        untimed = UntimedEvents(floor: clockFloor.map { max($0, storage?.recovered.lastTime ?? $0) })
        operating = OperatingState(server: GPSDConnection.Configuration(configuration.gpsd).server)
        configDigest = configuration.fleet.enabled ? FleetDigests.configuration(configuration) : ""
        self.health = health.map(HealthMonitor.init(settings:))
        placesSettings = configuration.places
        addressFileVersion = configuration.places.addressFileToOpen.flatMap(FileVersion.of)
        places = PlacesSource.finder(configuration.places, logger: logger)
        if beacons ?? configuration.beacons.enabled {
            // Not scanning until the source says so: silence before the first scan window exits nothing.
            self.beacons = BeaconMonitor(
                regions: [],
                settings: configuration.beacons.monitoring,
                savedInside: storage?.recovered.insideRegions ?? savedInside,
                scanning: false,
                now: .zero
            )
        }
        self.storage = storage
        self.sink = sink
        self.logger = logger
    }

    /// Emits what the start found: the deferral window a crash left open (it ends with reason `restart`, so
    /// that every window still ends in exactly one `deferred_finished`, dated with the last event the spool
    /// holds: the stop cut it off after that), the trip a power cut interrupted (reason `interrupted`, dated
    /// with its end), and the storage's problems (a spool moved aside), which wait for the clock.
    mutating func start(reports: [ErrorReport], at wallClock: Timestamp, now: MonotonicInstant) {
        if let storage, let start = storage.recovered.windowStart {
            let report = DeferralReport(
                reason: .restart,
                events: storage.recovered.lastSeq >= start ? Int(storage.recovered.lastSeq - start + 1) : 0,
                distance: nil,
                duration: nil
            )
            let time = storage.recovered.lastTime ?? eventTime(at: now, wallClock: wallClock)
            emit(closeWindow(report, time: time, now: now))
        }
        if var trip = storage?.recovered.openTrip {
            // The odometer last committed: where the next trip goes on from. The trip is saved once a minute, the
            // odometer with every commit, so it can be ahead of the trip's saved end by up to a minute's driving.
            trip.odometer = trip.odometer ?? storage?.recovered.odometer
            logger.notice(
                "the trip in progress when the agent last stopped without a shutdown is reported as interrupted",
                metadata: ["start": "\(trip.start)", "distance_m": "\(Int(trip.distance.rounded()))"]
            )
            // Dated by its own last fix: it goes on at once, not waiting for the clock.
            var interrupted = [Event(time: trip.end, kind: .trip(trip))]
            number(&interrupted, now: now, logged: false)
        }
        var events = reports.map { Event(time: wallClock, kind: .error($0)) }
        deliver(&events, now: now)
    }

    /// The pipeline's counters, and the spool's commits.
    var counters: Counters {
        var counters = pipeline.counters
        if let storage { counters.count("spool_commits", by: storage.commits) }
        if beaconSightings > 0 { counters.count("beacon_sightings", by: beaconSightings) }
        for (rejection, count) in beaconRejections { counters.count("beacon_rejected_\(rejection.reason)", by: count) }
        return counters
    }

    /// Applies reloaded `[location]`, `[heading]`, `[activity]`, `[regions]`, `[deferred]` and `[beacons]`
    /// monitoring settings; what the pipeline knows is kept.
    mutating func apply(_ configuration: Configuration, wallClock: Timestamp, now: MonotonicInstant) {
        beacons?.apply(configuration.beacons.monitoring, now: now)
        pipeline.locationSettings = configuration.location
        pipeline.headingSettings = configuration.heading
        pipeline.regionSettings = configuration.regions.monitor
        encoder.deviceID = configuration.agent.deviceID
        if configuration.fleet.enabled {
            let digest = FleetDigests.configuration(configuration)
            // A new configuration in effect is news for the fleet: the status file, and so the status, soon.
            if digest != configDigest { operating.noteChange() }
            configDigest = digest
        }
        health?.settings = configuration.health
        applyPlaces(configuration.places)
        var events = pipeline.applyDriving(configuration.driving)
        events += pipeline.applyActivity(configuration.activity, at: now, wallClock: wallClock)
        deliver(&events, now: now)
        applyDeferral(configuration.deferred, wallClock: wallClock, now: now)
    }

    /// Applies `[places]`: the files are opened again only when `enabled`, `file` or `addresses` changed, or
    /// the address file did (the package installed after the start, a new file moved into place).
    private mutating func applyPlaces(_ settings: PlacesSettings) {
        defer { placesSettings = settings }
        let addressVersion = settings.addressFileToOpen.flatMap(FileVersion.of)
        if settings.enabled != placesSettings.enabled || settings.file != placesSettings.file
            || settings.addresses != placesSettings.addresses || addressVersion != addressFileVersion
        {
            addressFileVersion = addressVersion
            places = PlacesSource.finder(settings, logger: logger)
        } else {
            places?.settings = settings.finder
        }
    }

    /// Applies `[deferred]` settings, or `waymark defer off` / `on`: turning deferral off ends the open window.
    mutating func applyDeferral(_ settings: DeferralSettings, wallClock: Timestamp, now: MonotonicInstant) {
        guard storage != nil, let report = deferral.apply(settings, now: now) else { return }
        emit(closeWindow(report, time: eventTime(at: now, wallClock: wallClock), now: now))
    }

    /// Whether events are deferred now (`[deferred] enabled`, and not `waymark defer off`).
    var deferralSettings: DeferralSettings { deferral.settings }

    /// When the core next has something to do without input (``advance(to:wallClock:)``): a no-fix pause, a
    /// probe, the end of a deferral window. The spool's commits are on the process's clock (``nextCommit``).
    var nextDeadline: MonotonicInstant? {
        .earliest(
            pipeline.activity.nextDeadline,
            storage == nil ? nil : deferral.nextDeadline,
            untimed.deadline,
            health?.nextDeadline,
            beacons?.nextDeadline.map { $0 + beaconLatency }
        )
    }

    /// Whether the receiver is to be watched now (false while paused with power saving, between probes).
    var wantsWatch: Bool { pipeline.activity.wantsWatch }

    /// What the agent is doing now, in one line for a person (``StatusLine``).
    var serviceStatus: String {
        var line = operating.line
        line.status = pipeline.status
        line.unsent = storage?.unsent
        if let open = health?.open, !open.isEmpty { line.alarms = Array(open.values) }
        return line.text
    }

    /// Time passes without input.
    mutating func advance(to now: MonotonicInstant, wallClock: Timestamp) {
        expireWindow(now: now, wallClock: wallClock)
        advanceBeacons(to: now, wallClock: wallClock)
        var events = pipeline.advance(to: now, wallClock: wallClock)
        if var health {
            events += alarmEvents(health.advance(to: now), now: now, wallClock: wallClock)
            self.health = health
        }
        deliver(&events, now: now)
    }

    /// Whether anything `waymark status` shows changed since the last call, other than the figures that move
    /// with every fix.
    mutating func operatingChanged() -> Bool { operating.takeChange() }

    /// Emits `error` events for problems found outside the pipeline (the status file, the metrics).
    mutating func report(_ reports: [ErrorReport], now: MonotonicInstant, wallClock: Timestamp) {
        let time = eventTime(at: now, wallClock: wallClock)
        var events = reports.map { Event(time: time, kind: .error($0)) }
        deliver(&events, now: now)
    }

    /// The time of an event made outside the pipeline (``EventPipeline/eventTime(at:wallClock:)``), never
    /// before the floor while GPS time is unknown.
    func eventTime(at now: MonotonicInstant, wallClock: Timestamp) -> Timestamp {
        untimed.dated(pipeline.eventTime(at: now, wallClock: wallClock), clock: eventClock)
    }

    /// What dates events now: GPS time once a fix was seen.
    private var eventClock: EventClock { pipeline.gpsClockDelay.map { .gps(delay: $0) } ?? .unknown }

    /// Commits what is due and hands the released events to the sinks; a drop or a failure becomes an
    /// `error` event (committed with the next commit).
    mutating func commit(now: MonotonicInstant, wallClock: Timestamp) {
        saveOpenTrip(now: now)
        storage?.saveOdometer(pipeline.activity.odometer)
        let reports = storage?.commitIfDue() ?? []
        if storage?.takeUplinksChanged() == true { checkSinks(now: now, wallClock: wallClock) }
        guard !reports.isEmpty else { return }
        let time = eventTime(at: now, wallClock: wallClock)
        var events = reports.map { Event(time: time, kind: .error($0)) }
        deliver(&events, now: now)
    }

    /// Saves the trip in progress every ``tripSaveInterval``, and when the vehicle comes to a stand (where an
    /// ignition switched off would leave it), so that a power cut loses at most that much of the trip.
    private mutating func saveOpenTrip(now: MonotonicInstant) {
        guard let storage, pipeline.activity.isOnTrip else {
            tripSaved = nil
            return
        }
        let standing = pipeline.activity.isStandingStill
        let due = tripSaved.map { now - $0.at >= Self.tripSaveInterval || standing != $0.standing } ?? true
        guard due, let trip = pipeline.activity.tripSoFar else { return }
        storage.saveOpenTrip(trip)
        tripSaved = (now, standing)
    }

    /// How often the trip in progress is saved while it goes on.
    static let tripSaveInterval = Duration.seconds(60)

    /// When the spool next commits or retries, on the process's monotonic clock.
    var nextCommit: MonotonicInstant? { storage?.nextDeadline }

    /// The agent stops: the trip in progress ends, then the deferral window; then the spool commits and the
    /// sinks get everything. `beforeClosing` sees the core in its final state before the sinks stop (the fleet's
    /// last status).
    mutating func finish(
        now: MonotonicInstant,
        wallClock: Timestamp,
        beforeClosing: (AgentCore) -> Void = { _ in }
    ) {
        var waited = untimed.release()
        number(&waited, now: now, logged: true)
        var events = pipeline.finish()
        deliver(&events, now: now)
        if storage != nil, let report = deferral.finish(now: now) {
            emit(closeWindow(report, time: eventTime(at: now, wallClock: wallClock), now: now))
        }
        storage?.saveOdometer(pipeline.activity.odometer)
        beforeClosing(self)
        // A failure this late is logged by the storage; no later commit could carry its event.
        _ = storage?.close()
    }

    /// Monitors a loaded region file; the refused regions' errors are delivered stamped `time`.
    mutating func monitor(_ regions: RegionSource.Loaded, at wallClock: Timestamp, now: MonotonicInstant) {
        let time = eventTime(at: now, wallClock: wallClock)
        var events = pipeline.monitor(regions.index, refusals: regions.refusals, at: time)
        regionCount = regions.count + regions.beaconRegions.count
        regionsDigest = regions.digest
        operating.noteChange()
        logger.info("monitoring \(regions.count) regions", metadata: ["refused": "\(regions.refusals.count)"])
        deliver(&events, now: now)
    }

    /// The regions the vehicle is inside, when that set changed since the last call; the spool saves them
    /// with its next commit.
    mutating func changedInsideRegions() -> [String]? {
        let beaconsChanged = beaconRegionsChanged
        beaconRegionsChanged = false
        guard pipeline.takeRegionChanges() || beaconsChanged else { return nil }
        let inside = (pipeline.regions.insideIDs + (beacons?.insideIDs ?? [])).sorted()
        storage?.saveInside(inside)
        return inside
    }

    mutating func process(_ update: SourceUpdate) {
        expireWindow(now: update.monotonic, wallClock: update.wallClock)
        let connectedAt: Timestamp? =
            if case .connected = update.event {
                eventTime(at: update.monotonic, wallClock: update.wallClock)
            } else {
                nil
            }
        operating.observe(update.event, connectedAt: connectedAt)
        var events = pipeline.handle(update)
        if pipeline.lastVerdict != nil { logVerdict(update) }
        if health != nil { events += checkHealth(after: update) }
        deliver(&events, now: update.monotonic)
    }

    /// The receiver's and the clock's alarms after an update. The receiver is expected to give fixes while gpsd
    /// and a device are there and the vehicle is not in a stationary pause (a `no_fix` pause is the activity's
    /// answer to the same silence, and does not stop the alarm). The clock is compared at current fixes once GPS
    /// time dates events: its offset is the system time against GPS time carried to the same instant.
    private mutating func checkHealth(after update: SourceUpdate) -> [Event] {
        guard var health else { return [] }
        let status = pipeline.status
        let expected =
            status.gpsd == .connected && status.device != nil && pipeline.activity.pause?.reason != .stationary
        let verdict = pipeline.lastVerdict
        var changes = health.receiver(expected: expected, usableFix: verdict?.isCurrent == true, now: update.monotonic)
        if verdict?.isCurrent == true, pipeline.gpsClockDelay != nil {
            let gpsTime = pipeline.eventTime(at: update.monotonic, wallClock: update.wallClock)
            changes += health.clock(offset: update.wallClock.duration(since: gpsTime), now: update.monotonic)
        }
        self.health = health
        return alarmEvents(changes, now: update.monotonic, wallClock: update.wallClock)
    }

    /// The periodic checks: the free space of the directories written (nil where it could not be measured),
    /// and how long each sink has not taken the events committed and released to it.
    mutating func checkResources(
        freeSpace: [(setting: String, path: String, bytes: Int64?)],
        now: MonotonicInstant,
        wallClock: Timestamp
    ) {
        guard var health else { return }
        var changes: [AlarmChange] = []
        for directory in freeSpace {
            changes += health.disk(
                setting: directory.setting,
                path: directory.path,
                freeBytes: directory.bytes,
                now: now
            )
        }
        changes += sinkChanges(&health, now: now)
        self.health = health
        var events = alarmEvents(changes, now: now, wallClock: wallClock)
        deliver(&events, now: now)
    }

    /// The sinks' alarms: how long each has not taken the events released to it, and whether a server refuses a
    /// network sink's settings.
    private func sinkChanges(_ health: inout HealthMonitor, now: MonotonicInstant) -> [AlarmChange] {
        var changes: [AlarmChange] = []
        for sink in storage?.sinksBehind ?? [] {
            changes += health.sink(sink.name, behindFor: sink.since.map { now - $0 }, now: now)
        }
        for (name, standing) in storage?.uplinkStandings ?? [] {
            changes += health.sink(name, refusal: standing.refusal, now: now)
            changes += health.sink(name, overBudget: standing.overBudget, now: now)
        }
        return changes
    }

    /// The sinks' alarms at once, between the periodic checks: a network sink caught up or started failing on its
    /// own thread, and an idle agent may have no other reason to look before its next tick.
    private mutating func checkSinks(now: MonotonicInstant, wallClock: Timestamp) {
        guard var health else { return }
        let changes = sinkChanges(&health, now: now)
        self.health = health
        var events = alarmEvents(changes, now: now, wallClock: wallClock)
        deliver(&events, now: now)
    }

    /// The events of alarms that start (an `error` with the alarm's code) and end (`alarm_cleared`).
    mutating func alarmEvents(_ changes: [AlarmChange], now: MonotonicInstant, wallClock: Timestamp) -> [Event] {
        guard !changes.isEmpty else { return [] }
        operating.noteChange()
        let time = eventTime(at: now, wallClock: wallClock)
        return changes.map { change in
            switch change {
            case .raised(let alarm):
                let report = ErrorReport(code: alarm.key.kind.code, message: alarm.message, subject: alarm.key.subject)
                return Event(time: time, kind: .error(report))
            case .cleared(let alarm, let reason):
                let clearance = AlarmClearance(
                    code: alarm.key.kind.code,
                    subject: alarm.key.subject,
                    message: reason,
                    duration: now - alarm.since
                )
                return Event(time: time, kind: .alarmCleared(clearance))
            }
        }
    }

    /// Ends the deferral window whose timeout passed before `now`.
    private mutating func expireWindow(now: MonotonicInstant, wallClock: Timestamp) {
        guard storage != nil, let report = deferral.advance(to: now) else { return }
        emit(closeWindow(report, time: eventTime(at: now, wallClock: wallClock), now: now))
    }

    /// Numbers the events one by one; with a spool, stores each and lets the deferral window see it, ending
    /// the window (its `deferred_finished` follows the event that ended it) or releasing the event at once
    /// when nothing is deferred. Then the printing sink gets them.
    ///
    /// Events made before the agent can date them wait in ``untimed`` first; they are logged as they come.
    mutating func deliver(_ events: inout [Event], now: MonotonicInstant) {
        for event in events { operating.observe(event) }
        let logged = untimed.isWaiting
        if logged { for event in events { log(event) } }
        events = untimed.admit(events, at: now, clock: eventClock)
        number(&events, now: now, logged: logged)
    }

    /// Numbers and stores the events, as ``deliver(_:now:)`` says; `logged` when they were logged already.
    private mutating func number(_ events: inout [Event], now: MonotonicInstant, logged: Bool) {
        guard !events.isEmpty else { return }
        if let places {
            for index in events.indices { places.name(&events[index], sites: pipeline.regions.lookup) }
        }
        guard let storage else {
            sequencer.number(&events)
            for event in events { operating.count(event) }
            sink.deliver(events, lines: sink.wantsLines ? events.map { StoredEvent.line($0, encoder: encoder) } : [])
            if !logged { for event in events { log(event) } }
            return
        }
        var numbered: [Event] = []
        var lines: [[UInt8]] = []
        numbered.reserveCapacity(events.count + 1)
        lines.reserveCapacity(events.count + 1)
        for var event in events {
            sequencer.number(&event)
            let stored = StoredEvent(event, encoder: encoder)
            storage.append(stored)
            if case .trip(let trip) = event.kind {
                storage.clearOpenTrip()
                keep(odometer: trip.odometer)
            }
            numbered.append(event)
            lines.append(stored.line)
            let wasDeferring = deferral.isDeferring
            let report = deferral.observe(event, bytes: stored.line.count, now: now)
            if !wasDeferring && deferral.isDeferring { storage.windowOpened(at: event.seq) }
            if let report {
                let finished = closeWindow(report, time: event.time, now: now)
                numbered.append(finished.event)
                lines.append(finished.line)
            } else if !deferral.isDeferring {
                storage.release(through: event.seq, closingWindow: false)
            }
        }
        events = numbered
        for event in events { operating.count(event) }
        sink.deliver(events, lines: sink.wantsLines ? lines : [])
        // A window closed here was not among the events logged as they started to wait.
        for event in events where !logged || event.type == "deferred_finished" { log(event) }
    }

    /// `odometer` beside the spool (in `state_dir`): the odometer at the last trip's end, outside the spool.
    static func keptOdometer(_ storage: Storage) -> OdometerFile {
        let path = storage.spool.path
        return OdometerFile(
            stateDirectory: String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]),
            name: "odometer"
        )
    }

    /// Keeps the odometer at a trip's end outside the spool (one small synced write a trip); a failure is logged,
    /// and the spool still has it.
    private func keep(odometer: Double?) {
        guard let keptOdometer, let odometer else { return }
        do {
            try keptOdometer.write(metres: odometer)
        } catch {
            logger.warning("the odometer's copy outside the spool cannot be written", metadata: ["error": "\(error)"])
        }
    }

    /// Takes the odometer `waymark odometer set` asked for, if it did and it is not taken already: the next commit
    /// saves it and removes the request.
    mutating func takeOdometerRequest(stateDirectory: String) {
        let request = OdometerRequest(stateDirectory: stateDirectory)
        guard let metres = request.read(), storage?.odometerRequest?.metres != metres else { return }
        logger.notice(
            "odometer set (waymark odometer set)",
            metadata: ["from_m": "\(pipeline.activity.odometer)", "to_m": "\(metres)"]
        )
        pipeline.setOdometer(metres)
        storage?.saveOdometer(metres, asked: request)
    }

    /// Ends a deferral window: its `deferred_finished` is numbered and stored, and the window's batch is
    /// released to the sinks.
    private mutating func closeWindow(
        _ report: DeferralReport,
        time: Timestamp,
        now: MonotonicInstant
    ) -> (event: Event, line: [UInt8]) {
        var finished = Event(time: time, kind: .deferredFinished(report))
        sequencer.number(&finished)
        let stored = StoredEvent(finished, encoder: encoder)
        storage?.append(stored)
        storage?.release(through: finished.seq, closingWindow: true)
        return (finished, stored.line)
    }

    /// Hands an event made outside ``deliver(_:now:)`` to the printing sink and the log.
    private mutating func emit(_ finished: (event: Event, line: [UInt8])) {
        operating.observe(finished.event)
        operating.count(finished.event)
        sink.deliver([finished.event], lines: sink.wantsLines ? [finished.line] : [])
        log(finished.event)
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

    /// Logs an event as it is delivered, or as it starts to wait for the clock (then without its `seq`).
    private mutating func log(_ event: Event) {
        func numbered(_ metadata: Logger.Metadata) -> Logger.Metadata {
            var metadata = metadata
            if event.seq > 0 { metadata["seq"] = "\(event.seq)" }
            return metadata
        }
        switch event.kind {
        case .error(let report):
            logger.warning("\(report.message)", metadata: numbered(["code": "\(report.code)"]))
        case .status(let status):
            var metadata: Logger.Metadata = [
                "gpsd": "\(status.gpsd.rawValue)", "fix_mode": "\(status.fixMode.rawValue)",
            ]
            if let device = status.device { metadata["device"] = "\(device)" }
            if let used = status.satellitesUsed { metadata["satellites_used"] = "\(used)" }
            logger.info("status changed", metadata: metadata)
        case .pause(let pause):
            var metadata = numbered(["reason": "\(pause.reason.rawValue)"])
            if let position = pause.position { metadata["position"] = "\(position.latitude),\(position.longitude)" }
            logger.info("location updates paused", metadata: metadata)
        case .resume(let resume):
            var metadata = numbered(["reason": "\(resume.reason.rawValue)"])
            if let distance = resume.distance { metadata["moved_m"] = "\(Int(distance.rounded()))" }
            logger.info("location updates resumed", metadata: metadata)
        case .trip(let trip):
            logger.info(
                "trip ended",
                metadata: numbered([
                    "reason": "\(trip.endReason.rawValue)", "distance_m": "\(Int(trip.distance.rounded()))",
                    "duration_s": "\(Int(trip.duration.secondsValue.rounded()))",
                ])
            )
        case .deferredFinished(let report):
            logger.debug(
                "deferred events released to the sinks",
                metadata: numbered(["reason": "\(report.reason.rawValue)", "events": "\(report.events)"])
            )
        case .alarmCleared(let clearance):
            var metadata = numbered(["code": "\(clearance.code)"])
            if let subject = clearance.subject { metadata["id"] = "\(subject)" }
            logger.notice("alarm cleared: \(clearance.message)", metadata: metadata)
        case .command(let report):
            var metadata = numbered(["action": "\(report.action ?? "-")"])
            if let id = report.id { metadata["id"] = "\(id)" }
            if report.ok {
                logger.notice("fleet command run: \(report.message)", metadata: metadata)
            } else {
                logger.warning("fleet command refused: \(report.message)", metadata: metadata)
            }
        case .beaconAdvertising(let report):
            var metadata = numbered(["reason": "\(report.reason)", "beacon": "\(report.beacon)"])
            if let id = report.regionID { metadata["id"] = "\(id)" }
            logger.notice("beacon advertising \(report.change.rawValue)", metadata: metadata)
        case .beaconRegion(let region):
            var metadata = numbered(["id": "\(region.id)"])
            if let beacon = region.beacon { metadata["beacon"] = "\(beacon)" }
            logger.info("beacon region \(region.crossing.rawValue)", metadata: metadata)
        case .driving(let report):
            var metadata = numbered([
                "kind": "\(report.kind.rawValue)", "peak": "\(report.peak)",
                "duration_s": "\(report.duration.secondsValue)",
            ])
            if let limit = report.limit.flatMap(DrivingReport.wholeKmh) { metadata["limit_kmh"] = "\(limit)" }
            logger.info("driving event", metadata: metadata)
        case .location, .heading, .region, .regionState, .beacon:
            break
        }
    }
}
