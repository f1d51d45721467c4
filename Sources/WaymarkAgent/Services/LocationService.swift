import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore
import WaymarkGPSD

/// The live agent: reads a source's batches of updates until graceful shutdown, runs them through the
/// core and delivers the events, one write per batch. Between batches it wakes only at the core's next
/// deadline (a no-fix pause, a probe), and it tells the source whether to watch the receiver.
public final class LocationService: Service, Sendable {
    private let batches: AsyncStream<[SourceUpdate]>
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
        batches: AsyncStream<[SourceUpdate]>,
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
        self.batches = batches
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

    /// What wakes the service: a batch from the source, or the core's deadline.
    private enum Input: Sendable {
        case batch([SourceUpdate])
        case beacons([BeaconUpdate])
        case deadline
        /// A reload or a region file is waiting to be applied.
        case pending
        /// Graceful shutdown.
        case stop
    }

    /// Runs until graceful shutdown on a thread of its own (``ThreadExecutor``): the spool's commits, the sinks'
    /// writes and stdout block, and must not hold a thread of the cooperative pool while they do.
    public func run() async {
        let executor = ThreadExecutor(name: "waymark core")
        defer { executor.shutDown() }
        await withTaskExecutorPreference(executor) { await processInputs(on: executor) }
    }

    /// The service's loop. Its helper tasks run on `executor` too, so a batch wakes one thread, not two.
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
        // Ready: the configuration is loaded, the spool open, and the connection's thread, started before this
        // service, is making its first attempt (gpsd may come later: that is a state, not a failed start). The
        // watchdog runs from now on, with or without input: a connection may give none for minutes.
        let reporter = notifier.map {
            SystemdReporter(notifier: $0, status: core.serviceStatus, now: SystemClocks.monotonic())
        }
        func setAlarm() {
            Self.setAlarm(
                executor,
                for: [core.nextDeadline, core.nextCommit, operations.nextDeadline].compactMap { $0 }.min(),
                reporter: reporter,
                continuation: continuation
            )
        }
        setAlarm()
        let batches = self.batches
        let forwarding = Task(executorPreference: executor) {
            for await batch in batches { continuation.yield(.batch(batch)) }
            continuation.finish()
        }
        let beaconBatches = self.beaconBatches
        let beaconForwarding = Task(executorPreference: executor) {
            guard let beaconBatches else { return }
            for await batch in beaconBatches { continuation.yield(.beacons(batch)) }
        }
        var scanningContinuously = true
        var watching = true
        var saveFailed = false
        // Graceful shutdown comes into the inputs as one more: a stream wrapped with `cancelOnGracefulShutdown()`
        // passes every element through tasks of the global pool, and a paused agent's deadline would wake a
        // second thread.
        await withGracefulShutdownHandler {
            for await input in inputs {
                if case .stop = input { break }
                if let configuration = pendingConfiguration.withLock({ $0.take() }) {
                    core.apply(configuration, wallClock: SystemClocks.wall(), now: SystemClocks.monotonic())
                }
                if let enabled = pendingDeferral.withLock({ $0.take() }) {
                    var settings = core.deferralSettings
                    settings.enabled = enabled
                    logger.notice(
                        enabled ? "deferral resumed (waymark defer on)" : "deferral ended (waymark defer off)"
                    )
                    core.applyDeferral(settings, wallClock: SystemClocks.wall(), now: SystemClocks.monotonic())
                }
                if let regions = pendingRegions.withLock({ $0.take() }) {
                    var time = SystemClocks.wall()
                    if case .batch(let batch) = input, let first = batch.first { time = first.wallClock }
                    core.monitor(regions, at: time, now: SystemClocks.monotonic())
                    core.monitorBeacons(regions.beaconRegions, now: SystemClocks.monotonic())
                }
                switch input {
                case .batch(let batch):
                    for update in batch { core.process(update) }
                case .beacons(let batch):
                    for update in batch { core.process(update) }
                case .deadline:
                    core.advance(to: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
                case .pending, .stop:
                    break
                }
                if let inside = core.changedInsideRegions(), storage == nil, let regionStates {
                    do {
                        try regionStates.save(inside)
                        saveFailed = false
                    } catch {
                        if !saveFailed { logger.error("region states not saved: \(error)") }
                        saveFailed = true
                    }
                }
                // The status file and the metrics first: the events of their checks go with this commit.
                let requested = statusRequested.withLock { requested in
                    defer { requested = false }
                    return requested
                }
                operations.update(
                    &core,
                    now: SystemClocks.monotonic(),
                    wallClock: SystemClocks.wall(),
                    requested: requested
                )
                core.commit(now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
                sink.flush()
                if core.wantsWatch != watching {
                    watching = core.wantsWatch
                    logger.debug(watching ? "watching the receiver" : "watch stopped while paused")
                    setWatching(watching)
                }
                if beaconBatches != nil, core.pipeline.activity.isPaused == scanningContinuously {
                    scanningContinuously.toggle()
                    logger.debug(
                        scanningContinuously ? "beacon scanning continuous" : "beacon scanning on its duty cycle"
                    )
                    setScanningContinuously(scanningContinuously)
                }
                // The pings come from this thread, after the commit: a thread that hangs stops them.
                reporter?.update(status: core.serviceStatus, now: SystemClocks.monotonic())
                setAlarm()
            }
        } onGracefulShutdown: {
            continuation.yield(.stop)
        }
        notifier?.send(["STOPPING=1", "STATUS=stopping: ending the trip in progress and committing the spool"])
        wakeUp.withLock { $0 = nil }
        // The forwarding task runs on the executor, which ends when this returns: wait until it has.
        executor.setAlarm(at: nil)
        forwarding.cancel()
        beaconForwarding.cancel()
        await forwarding.value
        await beaconForwarding.value
        core.finish(now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        operations.finish(core, now: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
        sink.flush()
        let counters = core.counters
        finalCounters.withLock { $0 = counters }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)"])
    }

    /// Sets `executor`'s alarm, which wakes its thread alone, a little late rather than early: at the core's
    /// `deadline` it wakes the loop (``Input/deadline``); before it, at the reporter's, it sends the ping or
    /// the held status line itself and sets the alarm again, so that a paused agent's pings cost one wake-up.
    private static func setAlarm(
        _ executor: ThreadExecutor,
        for deadline: MonotonicInstant?,
        reporter: SystemdReporter?,
        continuation: AsyncStream<Input>.Continuation
    ) {
        let first = [deadline, reporter?.nextDeadline].compactMap { $0 }.min()
        executor.setAlarm(at: first) {
            let now = SystemClocks.monotonic()
            if let deadline, now >= deadline {
                continuation.yield(.deadline)
                return
            }
            reporter?.update(now: now)
            setAlarm(executor, for: deadline, reporter: reporter, continuation: continuation)
        }
    }
}
