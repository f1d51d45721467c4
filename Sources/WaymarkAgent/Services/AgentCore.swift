import Logging
import WaymarkCore

/// What live and replay share: the pipeline, event numbering, delivery, and an operator-readable log line
/// for every error and status change (and, at debug level, for every fix not delivered).
struct AgentCore {
    private(set) var pipeline: EventPipeline
    private var sequencer = EventSequencer()
    private let sink: any EventSink
    private let logger: Logger
    /// The status last logged.
    private var loggedStatus: Status?

    /// - Parameter savedInside: the regions saved as inside before this start, or nil.
    init(configuration: Configuration, savedInside: Set<String>? = nil, sink: any EventSink, logger: Logger) {
        pipeline = EventPipeline(
            location: configuration.location,
            heading: configuration.heading,
            regions: configuration.regions.monitor,
            activity: configuration.activity,
            savedInside: savedInside
        )
        self.sink = sink
        self.logger = logger
    }

    var counters: Counters { pipeline.counters }

    /// Applies reloaded `[location]`, `[heading]`, `[activity]` and `[regions]` settings; what the pipeline
    /// knows is kept.
    mutating func apply(_ configuration: Configuration, wallClock: Timestamp) {
        pipeline.locationSettings = configuration.location
        pipeline.headingSettings = configuration.heading
        pipeline.regionSettings = configuration.regions.monitor
        var events = pipeline.applyActivity(configuration.activity, wallClock: wallClock)
        deliver(&events)
    }

    /// When the core next has something to do without input (``EventPipeline/advance(to:wallClock:)``).
    var nextDeadline: MonotonicInstant? { pipeline.activity.nextDeadline }

    /// Whether the receiver is to be watched now (false while paused with power saving, between probes).
    var wantsWatch: Bool { pipeline.activity.wantsWatch }

    /// Time passes without input.
    mutating func advance(to now: MonotonicInstant, wallClock: Timestamp) {
        var events = pipeline.advance(to: now, wallClock: wallClock)
        deliver(&events)
    }

    /// The agent stops: the trip in progress ends.
    mutating func finish() {
        var events = pipeline.finish()
        deliver(&events)
    }

    /// Monitors a loaded region file; the refused regions' errors are delivered stamped `time`.
    mutating func monitor(_ regions: RegionSource.Loaded, at time: Timestamp) {
        var events = pipeline.monitor(regions.index, refusals: regions.refusals, at: time)
        logger.info("monitoring \(regions.count) regions", metadata: ["refused": "\(regions.refusals.count)"])
        deliver(&events)
    }

    /// The regions the vehicle is inside, when that set changed since the last call.
    mutating func changedInsideRegions() -> [String]? {
        pipeline.takeRegionChanges() ? pipeline.regions.insideIDs : nil
    }

    mutating func process(_ update: SourceUpdate) {
        var events = pipeline.handle(update)
        if pipeline.lastVerdict != nil { logVerdict(update) }
        deliver(&events)
    }

    private mutating func deliver(_ events: inout [Event]) {
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

    private mutating func log(_ event: Event) {
        switch event.kind {
        case .error(let report):
            logger.warning("\(report.message)", metadata: ["code": "\(report.code)", "seq": "\(event.seq)"])
        case .status(let status):
            var metadata: Logger.Metadata = [
                "gpsd": "\(status.gpsd.rawValue)", "fix_mode": "\(status.fixMode.rawValue)",
            ]
            if let device = status.device { metadata["device"] = "\(device)" }
            if let used = status.satellitesUsed { metadata["satellites_used"] = "\(used)" }
            // A change of the satellites used alone is routine: the log keeps it for debugging.
            let level: Logger.Level =
                loggedStatus.map {
                    $0.gpsd == status.gpsd && $0.device == status.device && $0.fixMode == status.fixMode
                }
                    == true ? .debug : .info
            loggedStatus = status
            logger.log(level: level, "status changed", metadata: metadata)
        case .pause(let pause):
            var metadata: Logger.Metadata = ["reason": "\(pause.reason.rawValue)", "seq": "\(event.seq)"]
            if let position = pause.position { metadata["position"] = "\(position.latitude),\(position.longitude)" }
            logger.info("location updates paused", metadata: metadata)
        case .resume(let resume):
            var metadata: Logger.Metadata = ["reason": "\(resume.reason.rawValue)", "seq": "\(event.seq)"]
            if let distance = resume.distance { metadata["moved_m"] = "\(Int(distance.rounded()))" }
            logger.info("location updates resumed", metadata: metadata)
        case .trip(let trip):
            logger.info(
                "trip ended",
                metadata: [
                    "reason": "\(trip.endReason.rawValue)", "distance_m": "\(Int(trip.distance.rounded()))",
                    "duration_s": "\(Int(trip.duration.secondsValue.rounded()))", "seq": "\(event.seq)",
                ]
            )
        case .location, .heading, .region, .regionState:
            break
        }
    }
}
