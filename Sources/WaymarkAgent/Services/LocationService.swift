import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore

/// The live agent: reads a source's batches of updates until graceful shutdown, runs them through the
/// core and delivers the events, one write per batch.
public final class LocationService: Service, Sendable {
    private let batches: AsyncStream<[SourceUpdate]>
    private let location: LocationSettings
    private let heading: HeadingSettings
    private let sink: any EventSink
    private let logger: Logger
    private let finalCounters = Mutex(Counters())
    /// `[location]` and `[heading]` settings from a reload, applied before the next batch.
    private let pendingSettings = Mutex<(LocationSettings, HeadingSettings)?>(nil)

    public init(
        batches: AsyncStream<[SourceUpdate]>,
        location: LocationSettings = .init(),
        heading: HeadingSettings = .init(),
        sink: any EventSink,
        logger: Logger
    ) {
        self.batches = batches
        self.location = location
        self.heading = heading
        self.sink = sink
        self.logger = logger
    }

    /// Applies new `[location]` and `[heading]` settings from the next batch on; what the pipeline knows
    /// (the last delivery, the freshness reference, the last heading) is kept.
    public func apply(location: LocationSettings, heading: HeadingSettings) {
        pendingSettings.withLock { $0 = (location, heading) }
    }

    /// The counters when ``run()`` returned.
    public var counters: Counters { finalCounters.withLock { $0 } }

    public func run() async {
        var core = AgentCore(location: location, heading: heading, sink: sink, logger: logger)
        for await batch in batches.cancelOnGracefulShutdown() {
            if let (location, heading) = pendingSettings.withLock({ $0.take() }) {
                core.apply(location: location, heading: heading)
            }
            for update in batch { core.process(update) }
            sink.flush()
        }
        sink.flush()
        let counters = core.counters
        finalCounters.withLock { $0 = counters }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)"])
    }
}
