import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore

/// The live agent: reads a source's updates until graceful shutdown, runs them through the core and
/// delivers the events.
public final class LocationService: Service, Sendable {
    private let updates: AsyncStream<SourceUpdate>
    private let sink: any EventSink
    private let logger: Logger
    private let finalCounters = Mutex(Counters())

    public init(updates: AsyncStream<SourceUpdate>, sink: any EventSink, logger: Logger) {
        self.updates = updates
        self.sink = sink
        self.logger = logger
    }

    /// The counters when ``run()`` returned.
    public var counters: Counters { finalCounters.withLock { $0 } }

    public func run() async {
        var core = AgentCore(sink: sink, logger: logger)
        for await update in updates.cancelOnGracefulShutdown() {
            core.process(update)
        }
        sink.flush()
        let counters = core.counters
        finalCounters.withLock { $0 = counters }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)"])
    }
}
