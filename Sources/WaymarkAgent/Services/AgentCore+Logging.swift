import Logging
import WaymarkCore

/// The operator-readable log line of every error and status change, and at debug level of every fix not
/// delivered.
extension AgentCore {
    func logVerdict(_ update: SourceUpdate) {
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

    /// Logs an event as it is delivered, or as it starts to wait for the clock (then without its `seq`).
    mutating func log(_ event: Event) {
        func numbered(_ metadata: Logger.Metadata) -> Logger.Metadata {
            var metadata = metadata
            if event.seq > 0 { metadata["seq"] = "\(event.seq)" }
            return metadata
        }
        switch event.kind {
        case .error(let report):
            logger.warning("\(report.message)", metadata: numbered(["code": "\(report.code)"]))
        case .status(let status):
            var metadata: Logger.Metadata = [
                "gpsd": "\(status.gpsd.rawValue)", "fix_mode": "\(status.fixMode.rawValue)",
            ]
            if let device = status.device { metadata["device"] = "\(device)" }
            if let used = status.satellitesUsed { metadata["satellites_used"] = "\(used)" }
            logger.info("status changed", metadata: metadata)
        case .pause(let pause):
            var metadata = numbered(["reason": "\(pause.reason.rawValue)"])
            if let position = pause.position { metadata["position"] = "\(position.latitude),\(position.longitude)" }
            logger.info("location updates paused", metadata: metadata)
        case .resume(let resume):
            var metadata = numbered(["reason": "\(resume.reason.rawValue)"])
            if let distance = resume.distance { metadata["moved_m"] = "\(Int(distance.rounded()))" }
            logger.info("location updates resumed", metadata: metadata)
        case .trip(let trip):
            logger.info(
                "trip ended",
                metadata: numbered([
                    "reason": "\(trip.endReason.rawValue)", "distance_m": "\(Int(trip.distance.rounded()))",
                    "duration_s": "\(Int(trip.duration.secondsValue.rounded()))",
                ])
            )
        case .deferredFinished(let report):
            logger.debug(
                "deferred events released to the sinks",
                metadata: numbered(["reason": "\(report.reason.rawValue)", "events": "\(report.events)"])
            )
        case .alarmCleared(let clearance):
            var metadata = numbered(["code": "\(clearance.code)"])
            if let subject = clearance.subject { metadata["id"] = "\(subject)" }
            logger.notice("alarm cleared: \(clearance.message)", metadata: metadata)
        case .command(let report):
            var metadata = numbered(["action": "\(report.action ?? "-")"])
            if let id = report.id { metadata["id"] = "\(id)" }
            if report.ok {
                logger.notice("fleet command run: \(report.message)", metadata: metadata)
            } else {
                logger.warning("fleet command refused: \(report.message)", metadata: metadata)
            }
        case .beaconAdvertising(let report):
            var metadata = numbered(["reason": "\(report.reason)", "beacon": "\(report.beacon)"])
            if let id = report.regionID { metadata["id"] = "\(id)" }
            logger.notice("beacon advertising \(report.change.rawValue)", metadata: metadata)
        case .beaconRegion(let region):
            var metadata = numbered(["id": "\(region.id)"])
            if let beacon = region.beacon { metadata["beacon"] = "\(beacon)" }
            logger.info("beacon region \(region.crossing.rawValue)", metadata: metadata)
        case .driving(let report):
            var metadata = numbered([
                "kind": "\(report.kind.rawValue)", "peak": "\(report.peak)",
                "duration_s": "\(report.duration.secondsValue)",
            ])
            if let limit = report.limit.flatMap(DrivingReport.wholeKmh) { metadata["limit_kmh"] = "\(limit)" }
            logger.info("driving event", metadata: metadata)
        case .location, .heading, .region, .regionState, .beacon:
            break
        }
    }
}
