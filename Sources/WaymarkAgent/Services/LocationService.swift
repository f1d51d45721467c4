import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore

/// The live agent: reads a source's batches of updates until graceful shutdown, runs them through the
/// core and delivers the events, one write per batch.
public final class LocationService: Service, Sendable {
    private let batches: AsyncStream<[SourceUpdate]>
    private let sink: any EventSink
    private let logger: Logger
    private let finalCounters = Mutex(Counters())

    public init(batches: AsyncStream<[SourceUpdate]>, sink: any EventSink, logger: Logger) {
        self.batches = batches
        self.sink = sink
        self.logger = logger
    }

    /// The counters when ``run()`` returned.
    public var counters: Counters { finalCounters.withLock { $0 } }

    public func run() async {
        var core = AgentCore(sink: sink, logger: logger)
        for await batch in batches.cancelOnGracefulShutdown() {
            for update in batch { core.process(update) }
            sink.flush()
        }
        sink.flush()
        let counters = core.counters
        finalCounters.withLock { $0 = counters }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)"])
    }
}
