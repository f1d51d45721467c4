import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore
import WaymarkGPSD

/// The live agent: reads a source's batches of updates until graceful shutdown, runs them through the
/// core and delivers the events, one write per batch.
public final class LocationService: Service, Sendable {
    private let batches: AsyncStream<[SourceUpdate]>
    private let configuration: Configuration
    private let sink: any EventSink
    private let logger: Logger
    private let finalCounters = Mutex(Counters())
    /// Settings from a reload, applied before the next batch.
    private let pendingConfiguration = Mutex<Configuration?>(nil)
    /// A region file loaded (or reloaded), monitored from the next batch on.
    private let pendingRegions = Mutex<RegionSource.Loaded?>(nil)
    private let regionStates: RegionStateFile?

    /// - Parameter regionStates: where the regions the vehicle is inside are saved; nil saves nothing.
    init(
        batches: AsyncStream<[SourceUpdate]>,
        configuration: Configuration,
        regionStates: RegionStateFile?,
        sink: any EventSink,
        logger: Logger
    ) {
        self.batches = batches
        self.configuration = configuration
        self.regionStates = regionStates
        self.sink = sink
        self.logger = logger
    }

    /// Applies reloaded `[location]`, `[heading]` and `[regions]` settings from the next batch on; what the
    /// pipeline knows (the last delivery, the freshness reference, the last heading, region states) is kept.
    public func apply(_ configuration: Configuration) {
        pendingConfiguration.withLock { $0 = configuration }
    }

    /// Monitors a loaded region file from the next batch on.
    func apply(_ regions: RegionSource.Loaded) {
        pendingRegions.withLock { $0 = regions }
    }

    /// The counters when ``run()`` returned.
    public var counters: Counters { finalCounters.withLock { $0 } }

    public func run() async {
        var core = AgentCore(
            configuration: configuration,
            savedInside: regionStates?.load(),
            sink: sink,
            logger: logger
        )
        var saveFailed = false
        for await batch in batches.cancelOnGracefulShutdown() {
            if let configuration = pendingConfiguration.withLock({ $0.take() }) { core.apply(configuration) }
            if let regions = pendingRegions.withLock({ $0.take() }) {
                core.monitor(regions, at: batch.first?.wallClock ?? SystemClocks.wall())
            }
            for update in batch { core.process(update) }
            sink.flush()
            if let inside = core.changedInsideRegions(), let regionStates {
                do {
                    try regionStates.save(inside)
                    saveFailed = false
                } catch {
                    if !saveFailed { logger.error("region states not saved: \(error)") }
                    saveFailed = true
                }
            }
        }
        sink.flush()
        let counters = core.counters
        finalCounters.withLock { $0 = counters }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)"])
    }
}
