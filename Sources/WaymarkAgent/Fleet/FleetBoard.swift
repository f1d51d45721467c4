import WaymarkCore
import WaymarkFormats

/// One board as `waymark fleet status` sees it: its retained `_type: status` message read, or why it could not
/// be (docs/fleet.md). Reading never fails: garbage on a status topic is a board whose line says so.
public struct FleetBoard: Sendable, Equatable {
    public struct Alarm: Sendable, Equatable {
        public var code: String
        public var id: String?
        public var message: String?
    }

    public struct Backlog: Sendable, Equatable {
        public var name: String
        public var unsent: Int
        public var failing: Bool
    }

    /// The topic the message came on.
    public var topic: String
    /// The board's `device`, or the topic's level before `/status` when the message does not say.
    public var device: String
    /// Why the message could not be read; nil when it was.
    public var problem: String?
    public var online = false
    /// Why a board is offline, as its last will says (`connection lost`); nil after a clean stop.
    public var offlineReason: String?
    public var version: String?
    public var configDigest: String?
    public var regionCount: Int?
    public var regionsDigest: String?
    public var alarms: [Alarm] = []
    public var backlogs: [Backlog] = []
    public var lastFix: Timestamp?
    /// The board's system clock when it published (`tst`).
    public var published: Timestamp?
    public var uptime: Int?
    public var activity: String?
    public var lastError: String?

    /// Reads the message `payload` of `topic`.
    public init(topic: String, payload: [UInt8]) {
        self.topic = topic
        device = Self.device(fromTopic: topic)
        let value: JSONValue
        do {
            value = try JSONValue(parsing: payload, limits: JSONLimits())
        } catch {
            problem = "unreadable: not JSON (\(payload.count) bytes)"
            return
        }
        guard value["_type"]?.string == "status" else {
            problem = "unreadable: not a _type status message"
            return
        }
        guard let online = value["online"]?.boolean else {
            problem = "unreadable: no online member"
            return
        }
        if let device = value["device"]?.string, !device.isEmpty { self.device = device }
        self.online = online
        offlineReason = value["reason"]?.string
        version = value["version"]?.string
        configDigest = value["config_digest"]?.string
        regionCount = value["regions"]?["count"]?.number.flatMap { Int(exactly: $0) }
        regionsDigest = value["regions"]?["digest"]?.string
        alarms = (value["alarms"]?.elements ?? []).compactMap { alarm in
            alarm["code"]?.string.map { Alarm(code: $0, id: alarm["id"]?.string, message: alarm["message"]?.string) }
        }
        backlogs = (value["sinks"]?.elements ?? []).compactMap { sink in
            guard let name = sink["name"]?.string else { return nil }
            return Backlog(
                name: name,
                unsent: sink["unsent"]?.number.flatMap { Int(exactly: $0) } ?? 0,
                failing: sink["failing"]?.boolean ?? false
            )
        }
        lastFix = value["last_fix"]?["time"]?.string.flatMap { Timestamp(iso8601: $0) }
        published = value["tst"]?.number.flatMap { Int64(exactly: $0) }.map { Timestamp(seconds: $0) }
        uptime = value["uptime"]?.number.flatMap { Int(exactly: $0) }
        activity = value["activity"]?["state"]?.string
        if let error = value["last_error"], let code = error["code"]?.string {
            lastError = code + (error["message"]?.string.map { ": " + $0 } ?? "")
        }
    }

    /// Whether the board needs a look: unreadable, offline, or with an alarm.
    public var needsAttention: Bool { problem != nil || !online || !alarms.isEmpty }

    /// `owntracks/fleet/bus-7/status` → `bus-7`.
    static func device(fromTopic topic: String) -> String {
        var levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        if levels.last == "status" { levels.removeLast() }
        return levels.last.map(String.init) ?? topic
    }

    /// Boards that need a look first (``needsAttention``), then by device and topic.
    public static func ordered(_ boards: [FleetBoard]) -> [FleetBoard] {
        boards.sorted { first, second in
            if first.needsAttention != second.needsAttention { return first.needsAttention }
            if first.device != second.device { return first.device.utf8.lexicographicallyPrecedes(second.device.utf8) }
            return first.topic.utf8.lexicographicallyPrecedes(second.topic.utf8)
        }
    }
}
