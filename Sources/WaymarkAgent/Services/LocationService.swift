import Logging
import ServiceLifecycle
import Synchronization
import WaymarkBluetooth
import WaymarkClocks
import WaymarkCore
import WaymarkSystem
import WaymarkUplink

/// The live agent: runs a source's batches of updates through the core until graceful shutdown, and delivers
/// the events, one write per batch. Between batches it wakes only at the core's next deadline (a no-fix pause, a
/// probe), and it tells the source whether to watch the receiver.
public final class LocationService: Service, Sendable {
    /// Starts the live source, which hands each batch to the function given on its own thread; returns what
    /// stops it.
    private let startSource: @Sendable (@escaping @Sendable ([SourceUpdate]) -> Void) -> @Sendable () -> Void
    /// The beacon source's batches; nil without `[beacons] enabled`.
    private let beaconBatches: AsyncStream<[BeaconUpdate]>?
    /// The board's iBeacon advertiser; nil without `[beacons.advertise] enabled`.
    private let advertising: BeaconAdvertising?
    /// Tells the beacon source to scan all the time (true) or on its duty cycle (false, while paused).
    private let setScanningContinuously: @Sendable (Bool) -> Void
    /// Turns the receiver's watch on and off (power saving while paused).
    private let setWatching: @Sendable (Bool) -> Void
    private let configuration: Configuration
    private let sink: any EventSink
    /// systemd's notification socket when the agent runs as a `Type=notify` service.
    private let notifier: SystemdNotifier?
    private let logger: Logger
    private let finalCounters = Mutex(Counters())
    /// What the other services told the loop since its last step, in the order they told it.
    private let inputs = Mutex<[Input]>([])
    /// Where the regions the vehicle is inside were saved before the spool kept them: read once, as the
    /// spool's start when it has none; and written when there is no spool.
    private let regionStates: RegionStateFile?
    /// Whether events go to the spool and its sinks.
    private let spooling: Bool
    /// Wakes ``run()`` for an input, which a paused agent may otherwise apply only at its next probe.
    private let wakeUp = Mutex<AsyncStream<Trigger>.Continuation?>(nil)
    /// What the fleet's commands reach in the other services (``useFleetCommands(_:)``).
    private let fleetHooks = Mutex(FleetCommands.Hooks())
    /// The last usable fix after the last batch, for the fleet's `reportLocation`; kept with `[fleet]` only.
    private let lastKnown = Mutex<Location?>(nil)

    /// - Parameters:
    ///   - regionStates: the region state file of earlier versions; nil reads and saves none.
    ///   - spooling: whether events go to the spool in `[agent] state_dir` and from there to the sinks.
    ///   - notifier: where to say `READY=1`, the status line and the watchdog's pings (``ServiceNotifications``).
    init(
        startSource: @escaping @Sendable (@escaping @Sendable ([SourceUpdate]) -> Void) -> @Sendable () -> Void,
        beaconBatches: AsyncStream<[BeaconUpdate]>? = nil,
        advertising: BeaconAdvertising? = nil,
        configuration: Configuration,
        regionStates: RegionStateFile?,
        spooling: Bool = true,
        setWatching: @escaping @Sendable (Bool) -> Void = { _ in },
        setScanningContinuously: @escaping @Sendable (Bool) -> Void = { _ in },
        sink: any EventSink,
        notifier: SystemdNotifier? = nil,
        logger: Logger
    ) {
        self.startSource = startSource
        self.beaconBatches = beaconBatches
        self.advertising = advertising
        self.setWatching = setWatching
        self.setScanningContinuously = setScanningContinuously
        self.configuration = configuration
        self.regionStates = regionStates
        self.spooling = spooling
        self.sink = sink
        self.notifier = notifier
        self.logger = logger
    }

    /// Applies reloaded `[location]`, `[heading]` and `[regions]` settings from the next batch on; what the
    /// pipeline knows (the last delivery, the freshness reference, the last heading, region states) is kept.
    public func apply(_ configuration: Configuration) {
        tell(.configuration(configuration))
    }

    /// Monitors a loaded region file from the next batch on.
    func apply(_ regions: RegionSource.Loaded) {
        tell(.regions(regions))
    }

    /// Tells the core what became of the region file (named, loaded, rejected) from the next input on.
    func regionFile(_ verdict: RegionFileVerdict) {
        tell(.regionFile(verdict))
    }

    /// Ends deferral (`waymark defer off`, SIGUSR1) or resumes it with the `[deferred]` thresholds
    /// (`waymark defer on`, SIGUSR2), until the next reload or restart.
    func setDeferral(enabled: Bool) {
        tell(.deferral(enabled: enabled))
    }

    /// Lets the fleet's commands (docs/fleet.md, "Commands") reach the region file service and the configuration's
    /// reload; set before ``run()``. Its `report` is the loop's own.
    func useFleetCommands(_ hooks: FleetCommands.Hooks) {
        fleetHooks.withLock { $0 = hooks }
    }

    /// Writes the status file at once, for `waymark status` (SIGWINCH).
    func requestStatus() {
        tell(.statusRequest)
    }

    /// The counters when ``run()`` returned.
    public var counters: Counters { finalCounters.withLock { $0 } }

    /// What runs one step of the loop: a batch from a source, the core's deadline, inputs or a network sink's
    /// progress waiting, the stop.
    private enum Trigger: Sendable {
        case batch([SourceUpdate])
        case beacons([BeaconUpdate])
        case advertiser(AdvertiserEvent)
        case deadline
        /// Inputs (``Input``), or a network sink's progress, are waiting.
        case pending
        /// Graceful shutdown.
        case stop
    }

    /// Queues `input` for the loop's next step, in place of a waiting one it replaces. Only the first input
    /// waiting wakes the loop: those told after it, until the loop takes them, are taken with it.
    private func tell(_ input: Input) {
        let first = inputs.withLock { inputs in
            let wasEmpty = inputs.isEmpty
            if let kind = input.replaceable { inputs.removeAll { $0.replaceable == kind } }
            inputs.append(input)
            return wasEmpty
        }
        if first { _ = wakeUp.withLock { $0?.yield(.pending) } }
    }

    /// The inputs told since the last step, in order; none is left waiting.
    private func takeInputs() -> [Input] {
        inputs.withLock { inputs in
            defer { inputs = [] }
            return inputs
        }
    }

    /// Runs until graceful shutdown. Its own inputs (deadlines, beacons, reloads, requests) run on a thread of its
    /// own (``ThreadExecutor``), and gpsd's batches on the connection's: the spool's commits, the sinks' writes and
    /// stdout block, and must not hold a thread of the cooperative pool while they do.
    public func run() async {
        let executor = ThreadExecutor(name: "waymark core") { [logger] reason in
            logger.error(
                """
                the kernel refused to arm the core's timer (timerfd_settime: \(reason)); its deadlines are looked at \
                every \(ThreadExecutor.fallbackWait) from now on, and may go off that much late
                """
            )
        }
        defer { executor.shutDown() }
        await withTaskExecutorPreference(executor) { await processInputs(on: executor) }
    }

    /// The service's loop. Its helper tasks run on `executor` too, so a beacon batch wakes one thread, not two.
    private func processInputs(on executor: ThreadExecutor) async {
        // The network sinks wake the loop to hand it their progress, which goes with the next commit.
        let wake: @Sendable () -> Void = { [weak self] in _ = self?.wakeUp.withLock { $0?.yield(.pending) } }
        // One MQTT session per board, shared by the OwnTracks sink and the fleet's status (docs/fleet.md).
        var mqttReports: [ErrorReport] = []
        var mqtt: MQTTClient?
        if spooling && configuration.fleet.enabled {
            do {
                mqtt = try Storage.mqttClient(configuration)
            } catch {
                let message = "the fleet's MQTT session cannot start: \(error); no status is published"
                logger.error("\(message)")
                mqttReports.append(ErrorReport(code: .sinkFailure, message: message, subject: "fleet"))
            }
        }
        // Before the sink's worker can start the session: the link's connection callback is set first.
        let topic = configuration.ownTracksSink.topic(deviceID: configuration.agent.deviceID)
        var hooks = fleetHooks.withLock { $0 }
        hooks.report = { [weak self] report in self?.tell(.command(report)) }
        hooks.lastKnown = { [weak self] in self?.lastKnown.withLock { $0 } }
        let commands = FleetCommands(
            device: configuration.agent.deviceID,
            topic: topic,
            tid: configuration.ownTracksSink.tid(deviceID: configuration.agent.deviceID),
            stateDirectory: configuration.agent.stateDirectory,
            regions: configuration.regions,
            accepted: configuration.fleet.acceptedActions,
            configuration: configuration,
            hooks: hooks
        )
        let fleet = mqtt.map { client in
            FleetLink(
                client: client,
                topic: topic,
                settings: configuration.fleet,
                commands: commands,
                started: SystemClocks.monotonic(),
                logger: logger
            )
        }
        let (storage, openReports) =
            spooling ? Storage.open(configuration, wake: wake, mqtt: mqtt, logger: logger) : (nil, [])
        let reports = openReports + mqttReports
        var core = AgentCore(
            configuration: configuration,
            savedInside: regionStates?.load(),
            clockFloor: Agent.releaseDate,
            storage: storage,
            health: configuration.health,
            beacons: beaconBatches != nil,
            sink: sink,
            logger: logger
        )
        core.beaconLatency = configuration.beacons.scanner.batchInterval
        if let advertising {
            core.advertising = AdvertisingState(rule: advertising.rule, beacon: advertising.beacon)
        }
        core.start(reports: reports, at: SystemClocks.wall(), now: SystemClocks.monotonic())
        if spooling { core.takeOdometerRequest(stateDirectory: configuration.agent.stateDirectory) }
        let operations = OperationsOutput(
            configuration: configuration,
            now: SystemClocks.monotonic(),
            logger: logger,
            fleet: fleet
        )
        fleet?.start()
        operations.update(&core, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        let (triggers, continuation) = AsyncStream.makeStream(of: Trigger.self)
        wakeUp.withLock { $0 = continuation }
        // What came before the loop could be woken (the region file, loaded before the first batch), at once.
        if inputs.withLock({ !$0.isEmpty }) { continuation.yield(.pending) }
        // Ready: the configuration is loaded, the spool open, and the connection's thread is about to make its
        // first attempt (gpsd may come later: that is a state, not a failed start). The watchdog runs from now on,
        // with or without input: a connection may give none for minutes.
        let reporter = notifier.map {
            SystemdReporter(notifier: $0, status: core.serviceStatus, now: SystemClocks.monotonic())
        }
        let state = LoopState(core: core, operations: operations, reporter: reporter, executor: executor)
        state.alarmAction = { [self] in state.locked { alarmRang(state) } }
        state.locked { setAlarm(state) }
        let stopSource = startSource { [self] batch in state.locked { step(.batch(batch), state) } }
        let beaconBatches = self.beaconBatches
        let beaconForwarding = Task(executorPreference: executor) {
            guard let beaconBatches else { return }
            for await batch in beaconBatches { continuation.yield(.beacons(batch)) }
        }
        // What the advertiser did goes straight to the core, also after the loop stopped: its last unregistration
        // comes after the stop, and its `beacon_advertising` event goes with the last commit.
        let advertisingForwarding = Task(executorPreference: executor) { [self] in
            guard let advertising else { return }
            for await event in advertising.events { state.locked { step(.advertiser(event), state) } }
        }
        // Graceful shutdown comes into the triggers as one more: a stream wrapped with `cancelOnGracefulShutdown()`
        // passes every element through tasks of the global pool.
        await withGracefulShutdownHandler {
            for await trigger in triggers {
                if case .stop = trigger { break }
                state.locked { step(trigger, state) }
            }
        } onGracefulShutdown: {
            continuation.yield(.stop)
        }
        // Nothing runs the loop from here on (a batch the connection reads meanwhile, an alarm already due), so
        // nothing replaces the stopping line below.
        state.locked {
            state.stopped = true
            state.alarmAction = nil
            executor.setAlarm(at: nil)
        }
        notifier?.send(["STOPPING=1", "STATUS=stopping: ending the trip in progress and committing the spool"])
        wakeUp.withLock { $0 = nil }
        stopSource()
        if let advertising {
            _ = state.locked { state.core.stopAdvertising(now: SystemClocks.monotonic()) }
            advertising.advertiser.stop()
            await advertisingForwarding.value
        }
        beaconForwarding.cancel()
        // The forwarding task runs on the executor, which ends when this returns: wait until it has.
        await beaconForwarding.value
        let counters = state.locked {
            state.core.finish(now: SystemClocks.monotonic(), wallClock: SystemClocks.wall()) { core in
                state.operations.finishFleet(core, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
            }
            state.operations.finish(state.core, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
            sink.flush()
            return state.core.counters
        }
        finalCounters.withLock { $0 = counters }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)"])
    }

    /// The inputs waiting, then what triggered the step, through the core; then the status file and the metrics,
    /// the commit, stdout, the receiver's watch and the beacons' scanning, the service manager's pings, and the
    /// alarm for what comes next. With `state`'s lock held, on whichever thread has the trigger.
    private func step(_ trigger: Trigger, _ state: LoopState) {
        if state.stopped, case .advertiser(let event) = trigger {
            state.core.process(event, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        }
        guard !state.stopped else { return }
        var statusRequested = false
        for input in takeInputs() {
            switch input {
            case .configuration(let configuration):
                state.core.apply(configuration, wallClock: SystemClocks.wall(), now: SystemClocks.monotonic())
                if spooling { state.core.takeOdometerRequest(stateDirectory: configuration.agent.stateDirectory) }
            case .deferral(let enabled):
                var settings = state.core.deferralSettings
                settings.enabled = enabled
                logger.notice(enabled ? "deferral resumed (waymark defer on)" : "deferral ended (waymark defer off)")
                state.core.applyDeferral(settings, wallClock: SystemClocks.wall(), now: SystemClocks.monotonic())
            case .regions(let regions):
                for problem in advertising?.rule.unreachableRegions(in: regions, scanning: beaconBatches != nil) ?? [] {
                    logger.warning("\(problem)")
                }
                var time = SystemClocks.wall()
                if case .batch(let batch) = trigger, let first = batch.first { time = first.wallClock }
                state.core.monitor(regions, at: time, now: SystemClocks.monotonic())
                state.core.monitorBeacons(regions.beaconRegions, now: SystemClocks.monotonic())
            case .regionFile(let verdict):
                state.core.regionFile(verdict, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
            case .statusRequest:
                statusRequested = true
            case .command(let report):
                state.core.command(report, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
            }
        }
        switch trigger {
        case .batch(let batch):
            for update in batch { state.core.process(update) }
            if configuration.fleet.enabled {
                let known = state.core.pipeline.status.lastKnown
                lastKnown.withLock { $0 = known }
            }
        case .beacons(let batch):
            for update in batch { state.core.process(update) }
        case .advertiser(let event):
            state.core.process(event, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        case .deadline:
            state.core.advance(to: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        case .pending, .stop:
            break
        }
        if let inside = state.core.changedInsideRegions(), state.core.storage == nil, let regionStates {
            do {
                try regionStates.save(inside)
                state.saveFailed = false
            } catch {
                if !state.saveFailed { logger.error("region states not saved: \(error)") }
                state.saveFailed = true
            }
        }
        // The board as an iBeacon follows the activity and the regions as they are after this step; an alarm it
        // ends goes with this commit.
        if let wish = state.core.advertisingWish(now: SystemClocks.monotonic(), wallClock: SystemClocks.wall()) {
            advertising?.advertiser.setAdvertising(wish)
        }
        // The status file and the metrics first: the events of their checks go with this commit.
        state.operations.update(
            &state.core,
            now: SystemClocks.monotonic(),
            wallClock: SystemClocks.wall(),
            requested: statusRequested
        )
        state.core.commit(now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        sink.flush()
        if state.core.wantsWatch != state.watching {
            state.watching = state.core.wantsWatch
            logger.debug(state.watching ? "watching the receiver" : "watch stopped while paused")
            setWatching(state.watching)
        }
        if beaconBatches != nil, state.core.pipeline.activity.isPaused == state.scanningContinuously {
            state.scanningContinuously.toggle()
            logger.debug(
                state.scanningContinuously ? "beacon scanning continuous" : "beacon scanning on its duty cycle"
            )
            setScanningContinuously(state.scanningContinuously)
        }
        // The pings come after the commit: a thread that hangs stops them.
        state.reporter?.update(status: state.core.serviceStatus, now: SystemClocks.monotonic())
        setAlarm(state)
    }

    /// Sets the executor's alarm, which wakes its thread alone, a little late rather than early, for the loop's
    /// deadline or the reporter's, whichever comes first. With `state`'s lock held.
    private func setAlarm(_ state: LoopState) {
        guard let action = state.alarmAction else { return }
        state.executor.setAlarm(at: .earliest(state.nextDeadline, state.reporter?.nextDeadline), action)
    }

    /// The alarm went off: at the loop's deadline it runs the loop (``Trigger/deadline``); before it, at the
    /// reporter's, it sends the ping or the held status line, and sets the alarm again. With `state`'s lock held.
    private func alarmRang(_ state: LoopState) {
        guard !state.stopped else { return }
        let now = SystemClocks.monotonic()
        if let deadline = state.nextDeadline, now >= deadline {
            step(.deadline, state)
        } else {
            state.reporter?.update(now: now)
            setAlarm(state)
        }
    }
}
