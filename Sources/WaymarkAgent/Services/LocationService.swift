import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore

/// The live agent: reads a source's batches of updates until graceful shutdown, runs them through the
/// core and delivers the events, one write per batch.
public final class LocationService: Service, Sendable {
    private let batches: AsyncStream<[SourceUpdate]>
    private let location: LocationSettings
    private let sink: any EventSink
    private let logger: Logger
    private let finalCounters = Mutex(Counters())
    /// `[location]` settings from a reload, applied before the next batch.
    private let pendingLocation = Mutex<LocationSettings?>(nil)

    public init(
        batches: AsyncStream<[SourceUpdate]>,
        location: LocationSettings = .init(),
        sink: any EventSink,
        logger: Logger
    ) {
        self.batches = batches
        self.location = location
        self.sink = sink
        self.logger = logger
    }

    /// Applies new `[location]` settings from the next batch on; what the filter knows is kept.
    public func apply(_ settings: LocationSettings) {
        pendingLocation.withLock { $0 = settings }
    }

    /// The counters when ``run()`` returned.
    public var counters: Counters { finalCounters.withLock { $0 } }

    public func run() async {
        var core = AgentCore(location: location, sink: sink, logger: logger)
        for await batch in batches.cancelOnGracefulShutdown() {
            if let settings = pendingLocation.withLock({ $0.take() }) { core.locationSettings = settings }
            for update in batch { core.process(update) }
            sink.flush()
        }
        sink.flush()
        let counters = core.counters
        finalCounters.withLock { $0 = counters }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)"])
    }
}
