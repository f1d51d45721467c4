import WaymarkCore

extension AgentCore {
    /// A fleet command run or refused: a `command` event, and news for the fleet's status.
    mutating func command(_ report: CommandReport, now: MonotonicInstant, wallClock: Timestamp) {
        operating.noteChange()
        let time = eventTime(at: now, wallClock: wallClock)
        lastCommand = (report, time)
        var events = [Event(time: time, kind: .command(report))]
        deliver(&events, now: now)
    }

    /// The fleet's status at `now`: what `waymark status` shows (``writeStatus(into:now:wallClock:)``), from the
    /// same state: the alarms open, the last error, each sink's backlog, the last fix, the activity and the trip.
    func fleetStatus(device: String, now: MonotonicInstant, wallClock: Timestamp) -> FleetStatus {
        let status = pipeline.status
        let time = eventTime(at: now, wallClock: wallClock)
        var fleet = FleetStatus(
            device: device,
            version: Agent.release,
            configDigest: configDigest,
            regionCount: regionCount,
            regionsDigest: regionsDigest
        )
        let alarms = health?.open.values.sorted { $0.since < $1.since } ?? []
        fleet.alarms = alarms.map { alarm in
            FleetStatus.Alarm(
                code: alarm.key.kind.rawValue,
                id: alarm.key.subject,
                message: alarm.message,
                since: time.advanced(by: .zero - (now - alarm.since))
            )
        }
        fleet.lastError = operating.recentErrors.last.map {
            FleetStatus.Failure(code: $0.code, message: $0.message, time: $0.time)
        }
        fleet.backlogs = (storage?.backlog() ?? []).map {
            FleetStatus.Backlog(name: $0.name, unsent: $0.unsent, failing: $0.failing)
        }
        if let fix = status.lastKnown {
            fleet.lastFix = FleetStatus.Fix(time: fix.time, horizontalAccuracy: fix.horizontalAccuracy)
        }
        fleet.lastCommand = lastCommand.map {
            FleetStatus.Command(
                action: $0.report.action ?? "",
                id: $0.report.id,
                ok: $0.report.ok,
                message: $0.report.message,
                time: $0.time
            )
        }
        fleet.fixMode = Int(status.fixMode.rawValue)
        fleet.satellitesUsed = status.satellitesUsed
        if let pause = pipeline.activity.pause {
            fleet.activity = "paused"
            fleet.pauseReason = pause.reason.rawValue
        } else {
            fleet.activity = status.fixMode.hasFix ? "moving" : "waiting"
        }
        if let trip = pipeline.activity.tripSoFar {
            fleet.tripSince = trip.start
            fleet.tripDistance = (trip.distance * 10).rounded() / 10
        }
        return fleet
    }
}
