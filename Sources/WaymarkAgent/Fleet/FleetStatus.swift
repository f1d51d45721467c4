import WaymarkCore
import WaymarkFormats

/// What a board says of itself to its fleet: the `_type: status` message, retained on `TOPIC/status`
/// (docs/fleet.md). Made by the agent's loop from what `waymark status` shows (``AgentCore/fleetStatus(now:wallClock:)``),
/// published by ``FleetLink`` when ``FleetStatusSchedule`` says.
struct FleetStatus: Equatable, Sendable {
    struct Alarm: Equatable, Sendable {
        var code: String
        var id: String?
        var message: String
        var since: Timestamp
    }

    struct Failure: Equatable, Sendable {
        var code: String
        var message: String
        var time: Timestamp
    }

    struct Backlog: Equatable, Sendable {
        var name: String
        var unsent: UInt64
        var failing: Bool
    }

    struct Fix: Equatable, Sendable {
        var time: Timestamp
        var horizontalAccuracy: Double?
    }

    /// The last fleet command run or refused.
    struct Command: Equatable, Sendable {
        var action: String
        var id: String?
        var ok: Bool
        var message: String
        var time: Timestamp
    }

    var device: String
    var version: String
    /// When the agent started, on the system clock: with `uptime`, a restart is seen.
    var configDigest: String
    var regionCount: Int
    var regionsDigest: String
    var alarms: [Alarm] = []
    var lastError: Failure?
    var backlogs: [Backlog] = []
    var lastFix: Fix?
    /// gpsd's fix mode: 0 not seen, 1 no fix, 2, 3.
    var fixMode = 0
    var satellitesUsed: Int?
    /// `moving`, `paused` or `waiting` (no fix yet), as `waymark status`.
    var activity = "waiting"
    var pauseReason: String?
    var tripSince: Timestamp?
    var tripDistance: Double?
    var lastCommand: Command?

    /// The status without the figures that move all the time (the last fix and its quality, the backlogs' counts,
    /// the trip's distance, the last error's message and time: an error repeated, such as gpsd's retries, is not
    /// news): two statuses whose ``settled`` differ differ in what an operator acts on.
    var settled: FleetStatus {
        var status = self
        status.lastError = lastError.map { Failure(code: $0.code, message: "", time: Timestamp(seconds: 0)) }
        status.lastFix = nil
        status.fixMode = 0
        status.satellitesUsed = nil
        status.backlogs = backlogs.map { Backlog(name: $0.name, unsent: 0, failing: $0.failing) }
        status.tripDistance = nil
        return status
    }

    /// The message: `online`, the agent's `uptime` (seconds) and the system clock's `tst` (seconds since 1970, as
    /// OwnTracks' messages) are the publication's.
    func message(online: Bool, uptime: Duration, wallClock: Timestamp) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONObjectWriter.write(into: &bytes) { object in
            object.string("_type", "status")
            object.string("device", device)
            object.boolean("online", online)
            object.integer("tst", wallClock.seconds)
            object.string("version", version)
            object.integer("uptime", uptime.components.seconds)
            object.string("config_digest", configDigest)
            object.object("regions") { regions in
                regions.integer("count", Int64(regionCount))
                regions.string("digest", regionsDigest)
            }
            object.objects("alarms", alarms) { entry, alarm in
                entry.string("code", alarm.code)
                if let id = alarm.id { entry.string("id", id) }
                entry.string("message", alarm.message)
                entry.timestamp("since", alarm.since)
            }
            if let lastError {
                object.object("last_error") { error in
                    error.string("code", lastError.code)
                    error.string("message", lastError.message)
                    error.timestamp("time", lastError.time)
                }
            }
            object.objects("sinks", backlogs) { entry, backlog in
                entry.string("name", backlog.name)
                entry.integer("unsent", Int64(backlog.unsent))
                entry.boolean("failing", backlog.failing)
            }
            if let lastFix {
                object.object("last_fix") { fix in
                    fix.timestamp("time", lastFix.time)
                    fix.integer("mode", Int64(fixMode))
                    if let satellitesUsed { fix.integer("satellites_used", Int64(satellitesUsed)) }
                    fix.number("h_acc", lastFix.horizontalAccuracy)
                }
            }
            if let lastCommand {
                object.object("last_command") { command in
                    command.string("action", lastCommand.action)
                    if let id = lastCommand.id { command.string("id", id) }
                    command.boolean("ok", lastCommand.ok)
                    command.string("message", lastCommand.message)
                    command.timestamp("time", lastCommand.time)
                }
            }
            object.object("activity") { section in
                section.string("state", activity)
                if let pauseReason { section.string("reason", pauseReason) }
                if let tripSince {
                    section.object("trip") { trip in
                        trip.timestamp("since", tripSince)
                        trip.number("distance", tripDistance)
                    }
                }
            }
        }
        bytes.removeLast()  // the line end
        return bytes
    }

    /// The last will: what the broker publishes, retained, when the board's connection dies without a goodbye. Set
    /// at the connection, it carries what is known then: the version and the configuration's digest.
    static func lastWill(device: String, version: String, configDigest: String) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONObjectWriter.write(into: &bytes) { object in
            object.string("_type", "status")
            object.string("device", device)
            object.boolean("online", false)
            object.string("reason", "connection lost")
            object.string("version", version)
            object.string("config_digest", configDigest)
        }
        bytes.removeLast()
        return bytes
    }
}
