import Logging
import WaymarkCore

/// What live and replay share: the pipeline, event numbering, delivery, and an operator-readable log line
/// for every error and status change (and, at debug level, for every fix not delivered).
struct AgentCore {
    private(set) var pipeline: EventPipeline
    private var sequencer = EventSequencer()
    private let sink: any EventSink
    private let logger: Logger

    init(location: LocationSettings, heading: HeadingSettings, sink: any EventSink, logger: Logger) {
        pipeline = EventPipeline(location: location, heading: heading)
        self.sink = sink
        self.logger = logger
    }

    var counters: Counters { pipeline.counters }

    /// Applies reloaded `[location]` and `[heading]` settings; what the pipeline knows is kept.
    mutating func apply(location: LocationSettings, heading: HeadingSettings) {
        pipeline.locationSettings = location
        pipeline.headingSettings = heading
    }

    mutating func process(_ update: SourceUpdate) {
        var events = pipeline.handle(update)
        if pipeline.lastVerdict != nil { logVerdict(update) }
        guard !events.isEmpty else { return }
        sequencer.number(&events)
        sink.deliver(events)
        for event in events { log(event) }
    }

    private func logVerdict(_ update: SourceUpdate) {
        guard case .location(let location) = update.event else { return }
        if let jump = pipeline.filter.timeBaseJump {
            logger.warning(
                "the receiver's GPS time moved by \(jump.secondsValue) s against the monotonic clock; fixes are judged from this one on",
                metadata: ["time": "\(location.time)"]
            )
        }
        if case .hold(let reason) = pipeline.lastVerdict {
            logger.debug("fix not delivered", metadata: ["reason": "\(reason.rawValue)", "time": "\(location.time)"])
        }
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
        case .location, .heading:
            break
        }
    }
}
