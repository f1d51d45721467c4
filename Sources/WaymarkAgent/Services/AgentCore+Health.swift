import WaymarkCore

/// The alarms: the receiver, the clock, the free space of the directories written, and the sinks.
extension AgentCore {
    /// The receiver's and the clock's alarms after an update. The receiver is expected to give fixes while gpsd
    /// and a device are there and the vehicle is not in a stationary pause (a `no_fix` pause is the activity's
    /// answer to the same silence, and does not stop the alarm). The clock is compared at current fixes once GPS
    /// time dates events: its offset is the system time against GPS time carried to the same instant.
    mutating func checkHealth(after update: SourceUpdate) -> [Event] {
        guard var health else { return [] }
        let status = pipeline.status
        let expected =
            status.gpsd == .connected && status.device != nil && pipeline.activity.pause?.reason != .stationary
        let verdict = pipeline.lastVerdict
        var changes = health.receiver(expected: expected, usableFix: verdict?.isCurrent == true, now: update.monotonic)
        if verdict?.isCurrent == true, pipeline.gpsClockDelay != nil {
            let gpsTime = pipeline.eventTime(at: update.monotonic, wallClock: update.wallClock)
            changes += health.clock(offset: update.wallClock.duration(since: gpsTime), now: update.monotonic)
        }
        self.health = health
        return alarmEvents(changes, now: update.monotonic, wallClock: update.wallClock)
    }

    /// The periodic checks: the free space of the directories written (nil where it could not be measured),
    /// and how long each sink has not taken the events committed and released to it.
    mutating func checkResources(
        freeSpace: [(setting: String, path: String, bytes: Int64?)],
        now: MonotonicInstant,
        wallClock: Timestamp
    ) {
        guard var health else { return }
        var changes: [AlarmChange] = []
        for directory in freeSpace {
            changes += health.disk(
                setting: directory.setting,
                path: directory.path,
                freeBytes: directory.bytes,
                now: now
            )
        }
        changes += sinkChanges(&health, now: now)
        self.health = health
        var events = alarmEvents(changes, now: now, wallClock: wallClock)
        deliver(&events, now: now)
    }

    /// The sinks' alarms: how long each has not taken the events released to it, and whether a server refuses a
    /// network sink's settings.
    private func sinkChanges(_ health: inout HealthMonitor, now: MonotonicInstant) -> [AlarmChange] {
        var changes: [AlarmChange] = []
        for sink in storage?.sinksBehind ?? [] {
            changes += health.sink(sink.name, behindFor: sink.since.map { now - $0 }, now: now)
        }
        for (name, standing) in storage?.uplinkStandings ?? [] {
            changes += health.sink(name, refusal: standing.refusal, now: now)
            changes += health.sink(name, overBudget: standing.overBudget, now: now)
        }
        return changes
    }

    /// The sinks' alarms at once, between the periodic checks: a network sink caught up or started failing on its
    /// own thread, and an idle agent may have no other reason to look before its next tick.
    mutating func checkSinks(now: MonotonicInstant, wallClock: Timestamp) {
        guard var health else { return }
        let changes = sinkChanges(&health, now: now)
        self.health = health
        var events = alarmEvents(changes, now: now, wallClock: wallClock)
        deliver(&events, now: now)
    }

    /// The events of alarms that start (an `error` with the alarm's code) and end (`alarm_cleared`).
    mutating func alarmEvents(_ changes: [AlarmChange], now: MonotonicInstant, wallClock: Timestamp) -> [Event] {
        guard !changes.isEmpty else { return [] }
        operating.noteChange()
        let time = eventTime(at: now, wallClock: wallClock)
        return changes.map { change in
            switch change {
            case .raised(let alarm):
                let report = ErrorReport(code: alarm.key.kind.code, message: alarm.message, subject: alarm.key.subject)
                return Event(time: time, kind: .error(report))
            case .cleared(let alarm, let reason):
                let clearance = AlarmClearance(
                    code: alarm.key.kind.code,
                    subject: alarm.key.subject,
                    message: reason,
                    duration: now - alarm.since
                )
                return Event(time: time, kind: .alarmCleared(clearance))
            }
        }
    }
}
