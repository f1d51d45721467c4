import Glibc
import Logging
import ServiceLifecycle
import WaymarkBluetooth
import WaymarkClocks
import WaymarkCore
import WaymarkGPSD
import WaymarkSystem

/// Entry points that wire the parts together; the command line and the tests call the same functions.
public enum Agent {
    /// Runs the live agent against gpsd until SIGTERM or SIGINT, or for `duration` when given;
    /// returns the final counters. Never throws for gpsd trouble: that becomes events and retries.
    ///
    /// - Throws: at once, ``UnusableDirectory`` when `[agent] state_dir` or `log_dir` cannot be created or
    ///   written, and ``AgentLock/Held`` when another process writes the spool there, or the status file in
    ///   `[agent] runtime_dir`.
    ///
    /// - Parameter reloading: where SIGHUP reads the configuration again from; nil leaves SIGHUP alone.
    public static func run(
        configuration: Configuration,
        reloading: ConfigurationSource? = nil,
        sink: any EventSink,
        duration: Duration? = nil,
        logger: Logger
    ) async throws -> Counters {
        ignoreBrokenPipes()
        let lock = try AgentLock.acquire(for: configuration)
        let runtimeLock = try AgentLock.acquireRuntime(configuration)
        defer { withExtendedLifetime((lock, runtimeLock)) {} }
        switch runtimeLock {
        case .failure(let unusable):
            logger.warning("\(unusable.reason): another agent on this runtime_dir would not be refused")
        case .success(let held):
            if let unwritten = held.unwritten {
                logger.warning(
                    """
                    \(unwritten): locked all the same, but the pid and state_dir it holds are another agent's; remove \
                    it (another user owns it, perhaps an agent run as root) so that a refusal names this agent
                    """
                )
            }
        }
        let connection = GPSDConnection(GPSDConnection.Configuration(configuration.gpsd))
        let notifier = SystemdNotifier.fromEnvironment()
        if let reason = SystemdNotifier.unusableSocket() {
            logger.error("\(reason): systemd will not hear that the agent is ready")
        }
        let scanner = configuration.beacons.enabled ? BeaconScanning.start(configuration.beacons) : nil
        let service = LocationService(
            startSource: { connection.deliver(to: $0) },
            beaconBatches: scanner?.batches,
            advertising: BeaconAdvertising.start(configuration.beacons),
            configuration: configuration,
            regionStates: RegionStateFile(stateDirectory: configuration.agent.stateDirectory),
            setWatching: { connection.setWatching($0) },
            setScanningContinuously: { scanner?.scanner.setContinuous($0) },
            sink: sink,
            notifier: notifier,
            logger: logger
        )
        let regionFiles = RegionFileService(
            settings: configuration.regions,
            remotePath: configuration.fleet.enabled
                ? FleetCommands.regionsPath(stateDirectory: configuration.agent.stateDirectory) : nil,
            locationService: service,
            logger: logger
        )
        // The regions are monitored from the first fix on: load the file before the first batch can arrive.
        regionFiles.check()
        // Named here: the group would otherwise name each by "\(service)", a search of the runtime's
        // conformance records for every service's type at every start.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: service, serviceName: "location"),
            .init(service: regionFiles, serviceName: "region file"),
            .init(
                service: ControlSignalService(
                    locationService: service,
                    pidFile: PIDFile(stateDirectory: configuration.agent.stateDirectory),
                    logger: logger
                ),
                serviceName: "control signals"
            ),
        ]
        var hooks = FleetCommands.Hooks(regionsChanged: { regionFiles.check() })
        if let reloading {
            let reloader = ConfigurationReloadService(
                source: reloading,
                connection: connection,
                locationService: service,
                regionFiles: regionFiles,
                notifier: notifier,
                logger: logger
            )
            hooks.reload = { reloader.reload() }
            hooks.source = reloading
            services.append(.init(service: reloader, serviceName: "configuration reload"))
        }
        service.useFleetCommands(hooks)
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        logger.info("watching gpsd", metadata: ["server": "\(connection.configuration.server)"])
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            tasks.addTask {
                try await group.run()
                return true
            }
            if let duration {
                tasks.addTask {
                    // Cancelled when a signal ended the group first: that stop is as graceful as this one.
                    guard (try? await GlobalExecutor.process.sleep(for: duration)) != nil else { return false }
                    await group.triggerGracefulShutdown()
                    return false
                }
            }
            // When the group ends first (a signal), the timer is no longer needed; when the timer fires
            // first, wait for the graceful shutdown it started.
            while let groupEnded = try await tasks.next() {
                if groupEnded { tasks.cancelAll() }
            }
        }
        return service.counters
    }

    /// Replays a recording through the same pipeline; `speed` N paces it at N× the recorded time,
    /// nil runs as fast as possible.
    ///
    /// The core's deadlines (a no-fix pause, the probes while paused) fire on the simulated clock, and
    /// while the core does not watch the receiver (paused with power saving, between probes) the
    /// recording's reports are skipped as gpsd would not have sent them: a replay gives the pauses and
    /// trips a live run would have.
    ///
    /// - Parameter spooling: whether the events go to the spool in `[agent] state_dir` and its sinks, as a
    ///   live run's do (commits follow the process's clock, not the recording's).
    /// - Throws: at once when spooling, ``UnusableDirectory`` when the state or log directory cannot be used,
    ///   and ``AgentLock/Held`` when another process writes that spool.
    ///
    /// SIGTERM and SIGINT end the replay where it is, as the end of the recording would: the trip in progress
    /// ends, the spool commits, the counters are returned.
    public static func replay(
        _ source: any ReplaySource,
        beacons: BeaconCapture? = nil,
        configuration: Configuration = .init(),
        speed: Double? = nil,
        spooling: Bool = false,
        sink: any EventSink,
        logger: Logger
    ) async throws -> Counters {
        ignoreBrokenPipes()
        let lock = spooling ? try AgentLock.acquire(for: configuration) : nil
        defer { withExtendedLifetime(lock) {} }
        let (storage, reports) = spooling ? Storage.open(configuration, logger: logger) : (nil, [])
        var core = AgentCore(
            configuration: configuration,
            clockFloor: nil,
            storage: storage,
            beacons: beacons != nil,
            sink: sink,
            logger: logger
        )
        var beaconReplay = BeaconReplay(beacons?.reports ?? [])
        var started = false
        var regions: RegionSource.Loaded?
        if let file = configuration.regions.file {
            switch RegionSource(path: file, settings: configuration.regions).load() {
            case .success(let loaded): regions = loaded
            case .failure(let failure):
                for line in failure.lines { logger.error("\(line)") }
                logger.error("\(file) rejected; no regions are monitored")
            }
        }
        var previous: SourceUpdate?
        var unwatched = 0
        let stop = await StopSignals()
        var updates = 0
        while !stop.isRequested, let update = source.next() {
            // On one core the task pool has one thread: give the signal watcher a turn now and then.
            updates += 1
            if updates % 4096 == 0 { await Task.yield() }
            if !started {
                started = true
                core.start(reports: reports, at: update.wallClock, now: update.monotonic)
            }
            if let loaded = regions.take() {
                core.monitor(loaded, at: update.wallClock, now: update.monotonic)
                core.monitorBeacons(loaded.beaconRegions, now: update.monotonic)
            }
            if let speed, let previous, update.monotonic > previous.monotonic {
                sink.flush()
                await stop.sleep(for: (update.monotonic - previous.monotonic) / speed)
            }
            // The advertisements heard up to this report, on the same simulated clock.
            beaconReplay.play(through: update, after: previous, into: &core)
            if let previous { advance(&core, from: (previous.monotonic, previous.wallClock), to: update.monotonic) }
            previous = update
            if !core.wantsWatch && update.event.isReceiverData {
                unwatched += 1
                continue
            }
            core.process(update)
            // The regions the vehicle is inside go to the spool as live, so `waymark regions state` reads them.
            _ = core.changedInsideRegions()
            core.commit(now: update.monotonic, wallClock: update.wallClock)
        }
        if !started {
            let first = beaconReplay.firstTime ?? SystemClocks.wall()
            core.start(reports: reports, at: first, now: .zero)
            if let loaded = regions.take() {
                core.monitor(loaded, at: first, now: .zero)
                core.monitorBeacons(loaded.beaconRegions, now: .zero)
            }
        }
        // The advertisements after the last report of the drive (all of them, for a Bluetooth capture alone).
        let end =
            beaconReplay.playRest(after: previous.map { ($0.monotonic, $0.wallClock) }, into: &core)
            ?? previous.map { ($0.monotonic, $0.wallClock) }
        core.finish(now: end?.monotonic ?? .zero, wallClock: end?.wallClock ?? SystemClocks.wall())
        if beaconReplay.outsideDrive > 0 {
            logger.warning(
                "\(beaconReplay.outsideDrive) advertisements of the Bluetooth capture fall outside the drive's times: played at its first or after its last report; is the capture of this drive, and were both clocks right?"
            )
        }
        sink.flush()
        if unwatched > 0 { logger.info("\(unwatched) reports skipped while the watch was stopped") }
        return core.counters
    }

    /// Fires the core's deadlines that fall before `instant` on the simulated clock, each stamped with the
    /// replay's wall clock carried forward from `previous`.
    static func advance(
        _ core: inout AgentCore,
        from previous: (monotonic: MonotonicInstant, wallClock: Timestamp),
        to instant: MonotonicInstant
    ) {
        // Each deadline moves on once it fired; the bound keeps a core that left one in place from hanging.
        for _ in 0..<1000 {
            guard let deadline = core.nextDeadline, deadline <= instant else { return }
            let now = max(deadline, previous.monotonic)
            core.advance(to: now, wallClock: previous.wallClock.advanced(by: now - previous.monotonic))
        }
    }

    /// A peer that goes away mid-write (gpsd dying while libgps sends `WATCH`, or the reader of
    /// `--print` closing its pipe) must be an error the agent handles, not SIGPIPE ending the process.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
