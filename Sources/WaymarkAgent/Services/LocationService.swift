import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore
import WaymarkSystem

/// The live agent: runs a source's batches of updates through the core until graceful shutdown, and delivers
/// the events, one write per batch. Between batches it wakes only at the core's next deadline (a no-fix pause, a
/// probe), and it tells the source whether to watch the receiver.
public final class LocationService: Service, Sendable {
    /// Starts the live source, which hands each batch to the function given on its own thread; returns what
    /// stops it.
    private let startSource: @Sendable (@escaping @Sendable ([SourceUpdate]) -> Void) -> @Sendable () -> Void
    /// The beacon source's batches; nil without `[beacons] enabled`.
    private let beaconBatches: AsyncStream<[BeaconUpdate]>?
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
    /// Settings from a reload, applied before the next batch.
    private let pendingConfiguration = Mutex<Configuration?>(nil)
    /// A region file loaded (or reloaded), monitored from the next batch on.
    private let pendingRegions = Mutex<RegionSource.Loaded?>(nil)
    /// What the region file service learnt since the last input, in order (the `region_file_rejected` alarm).
    private let pendingRegionVerdicts = Mutex<[RegionFileVerdict]>([])
    /// `waymark defer off` (false) or `on` (true), applied at once.
    private let pendingDeferral = Mutex<Bool?>(nil)
    /// `waymark status` asked for a fresh status file.
    private let statusRequested = Mutex(false)
    /// Where the regions the vehicle is inside were saved before the spool kept them: read once, as the
    /// spool's start when it has none; and written when there is no spool.
    private let regionStates: RegionStateFile?
    /// Whether events go to the spool and its sinks.
    private let spooling: Bool
    /// Wakes ``run()`` for a reload or a region file, which a paused agent may otherwise apply only at
    /// its next probe.
    private let wakeUp = Mutex<AsyncStream<Input>.Continuation?>(nil)

    /// - Parameters:
    ///   - regionStates: the region state file of earlier versions; nil reads and saves none.
    ///   - spooling: whether events go to the spool in `[agent] state_dir` and from there to the sinks.
    ///   - notifier: where to say `READY=1`, the status line and the watchdog's pings (``ServiceNotifications``).
    init(
        startSource: @escaping @Sendable (@escaping @Sendable ([SourceUpdate]) -> Void) -> @Sendable () -> Void,
        beaconBatches: AsyncStream<[BeaconUpdate]>? = nil,
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
        pendingConfiguration.withLock { $0 = configuration }
        _ = wakeUp.withLock { $0?.yield(.pending) }
    }

    /// Monitors a loaded region file from the next batch on.
    func apply(_ regions: RegionSource.Loaded) {
        pendingRegions.withLock { $0 = regions }
        _ = wakeUp.withLock { $0?.yield(.pending) }
    }

    /// Tells the core what became of the region file (named, loaded, rejected) from the next input on.
    func regionFile(_ verdict: RegionFileVerdict) {
        pendingRegionVerdicts.withLock { $0.append(verdict) }
        _ = wakeUp.withLock { $0?.yield(.pending) }
    }

    /// Ends deferral (`waymark defer off`, SIGUSR1) or resumes it with the `[deferred]` thresholds
    /// (`waymark defer on`, SIGUSR2), until the next reload or restart.
    func setDeferral(enabled: Bool) {
        pendingDeferral.withLock { $0 = enabled }
        _ = wakeUp.withLock { $0?.yield(.pending) }
    }

    /// Writes the status file at once, for `waymark status` (SIGWINCH).
    func requestStatus() {
        statusRequested.withLock { $0 = true }
        _ = wakeUp.withLock { $0?.yield(.pending) }
    }

    /// The counters when ``run()`` returned.
    public var counters: Counters { finalCounters.withLock { $0 } }

    /// What the loop takes in: a batch from a source, the core's deadline, settings or a request waiting, the stop.
    private enum Input: Sendable {
        case batch([SourceUpdate])
        case beacons([BeaconUpdate])
        case deadline
        /// A reload, a region file, a `defer` or `status` request, or a network sink's progress is waiting.
        case pending
        /// Graceful shutdown.
        case stop
    }

    /// What the loop keeps from one input to the next, behind one lock. gpsd's batches run on the connection's
    /// thread that read them, so that a fix wakes no other thread; everything else runs on `waymark core`.
    private final class LoopState: @unchecked Sendable {
        private let lock = MonotonicCondition()
        var core: AgentCore
        let operations: OperationsOutput
        let reporter: SystemdReporter?
        let executor: ThreadExecutor
        var watching = true
        var scanningContinuously = true
        var saveFailed = false
        /// Set as the loop stops: a batch the connection read after that is not processed.
        var stopped = false
        /// What the executor's alarm runs (``setAlarm(_:)``), made once; cleared as the loop stops.
        var alarmAction: (@Sendable () -> Void)?

        init(core: AgentCore, operations: OperationsOutput, reporter: SystemdReporter?, executor: ThreadExecutor) {
            self.core = core
            self.operations = operations
            self.reporter = reporter
            self.executor = executor
        }

        func locked<T>(_ body: () -> T) -> T { lock.locked(body) }

        /// When the loop next has something to do without input. The core is read in place (`inout`): read through
        /// the class's property, its getters ran on a copy of the whole core, every reference in it retained and
        /// released, at every batch (half of what setting the alarm cost, seen in callgrind).
        var nextDeadline: MonotonicInstant? { Self.nextDeadline(of: &core, operations) }

        private static func nextDeadline(of core: inout AgentCore, _ operations: OperationsOutput) -> MonotonicInstant?
        {
            .earliest(core.nextDeadline, core.nextCommit, operations.nextDeadline)
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
        let (storage, reports) = spooling ? Storage.open(configuration, wake: wake, logger: logger) : (nil, [])
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
        core.start(reports: reports, at: SystemClocks.wall(), now: SystemClocks.monotonic())
        let operations = OperationsOutput(configuration: configuration, now: SystemClocks.monotonic(), logger: logger)
        operations.update(&core, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        wakeUp.withLock { $0 = continuation }
        // What came before the loop could be woken (the region file, loaded before the first batch), at once.
        if pendingRegionVerdicts.withLock({ !$0.isEmpty }) { continuation.yield(.pending) }
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
        // Graceful shutdown comes into the inputs as one more: a stream wrapped with `cancelOnGracefulShutdown()`
        // passes every element through tasks of the global pool.
        await withGracefulShutdownHandler {
            for await input in inputs {
                if case .stop = input { break }
                state.locked { step(input, state) }
            }
        } onGracefulShutdown: {
            continuation.yield(.stop)
        }
        // No input runs the loop from here on (a batch the connection reads meanwhile, an alarm already due), so
        // nothing replaces the stopping line below.
        state.locked {
            state.stopped = true
            state.alarmAction = nil
            executor.setAlarm(at: nil)
        }
        notifier?.send(["STOPPING=1", "STATUS=stopping: ending the trip in progress and committing the spool"])
        wakeUp.withLock { $0 = nil }
        stopSource()
        beaconForwarding.cancel()
        // The forwarding task runs on the executor, which ends when this returns: wait until it has.
        await beaconForwarding.value
        let counters = state.locked {
            state.core.finish(now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
            state.operations.finish(state.core, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
            sink.flush()
            return state.core.counters
        }
        finalCounters.withLock { $0 = counters }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)"])
    }

    /// One input through the core; then the status file and the metrics, the commit, stdout, the receiver's
    /// watch and the beacons' scanning, the service manager's pings, and the alarm for what comes next. With
    /// `state`'s lock held, on whichever thread has the input.
    private func step(_ input: Input, _ state: LoopState) {
        guard !state.stopped else { return }
        if let configuration = pendingConfiguration.withLock({ $0.take() }) {
            state.core.apply(configuration, wallClock: SystemClocks.wall(), now: SystemClocks.monotonic())
        }
        if let enabled = pendingDeferral.withLock({ $0.take() }) {
            var settings = state.core.deferralSettings
            settings.enabled = enabled
            logger.notice(enabled ? "deferral resumed (waymark defer on)" : "deferral ended (waymark defer off)")
            state.core.applyDeferral(settings, wallClock: SystemClocks.wall(), now: SystemClocks.monotonic())
        }
        if let regions = pendingRegions.withLock({ $0.take() }) {
            var time = SystemClocks.wall()
            if case .batch(let batch) = input, let first = batch.first { time = first.wallClock }
            state.core.monitor(regions, at: time, now: SystemClocks.monotonic())
            state.core.monitorBeacons(regions.beaconRegions, now: SystemClocks.monotonic())
        }
        let verdicts = pendingRegionVerdicts.withLock { verdicts in
            defer { verdicts.removeAll() }
            return verdicts
        }
        for verdict in verdicts {
            state.core.regionFile(verdict, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        }
        switch input {
        case .batch(let batch):
            for update in batch { state.core.process(update) }
        case .beacons(let batch):
            for update in batch { state.core.process(update) }
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
        // The status file and the metrics first: the events of their checks go with this commit.
        let requested = statusRequested.withLock { requested in
            defer { requested = false }
            return requested
        }
        state.operations.update(
            &state.core,
            now: SystemClocks.monotonic(),
            wallClock: SystemClocks.wall(),
            requested: requested
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

    /// The alarm went off: at the loop's deadline it runs the loop (``Input/deadline``); before it, at the
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
