import Logging
import WaymarkCore

/// What live and replay share: the pipeline, event numbering, delivery, and an operator-readable log line
/// for every error and status change.
struct AgentCore {
    private(set) var pipeline = EventPipeline()
    private var sequencer = EventSequencer()
    private let sink: any EventSink
    private let logger: Logger

    init(sink: any EventSink, logger: Logger) {
        self.sink = sink
        self.logger = logger
    }

    var counters: Counters { pipeline.counters }

    mutating func process(_ update: SourceUpdate) {
        var events = pipeline.handle(update)
        guard !events.isEmpty else { return }
        sequencer.number(&events)
        sink.deliver(events)
        for event in events { log(event) }
    }

    private func log(_ event: Event) {
        switch event.kind {
        case .error(let report):
            logger.warning("\(report.message)", metadata: ["code": "\(report.code)", "seq": "\(event.seq)"])
        case .status(let status):
            var metadata: Logger.Metadata = [
                "gpsd": "\(status.gpsd.rawValue)", "fix_mode": "\(status.fixMode.rawValue)",
            ]
            if let device = status.device { metadata["device"] = "\(device)" }
            logger.info("status changed", metadata: metadata)
        case .location:
            break
        }
    }
}
