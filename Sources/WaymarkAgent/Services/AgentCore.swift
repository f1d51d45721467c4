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
    var sequencer: EventSequencer
    var deferral: DeferralPolicy
    let storage: Storage?
    var encoder: EventEncoder
    /// The events made before the agent could date them, waiting for the first fix.
    var untimed: UntimedEvents
    let sink: any EventSink
    let logger: Logger
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
    var eventClock: EventClock { pipeline.gpsClockDelay.map { .gps(delay: $0) } ?? .unknown }

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
    func keep(odometer: Double?) {
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
}
