import WaymarkCore
import WaymarkFormats

/// `waymark fleet status`'s output (docs/fleet.md): one line per board, or a JSON array.
public enum FleetTable {
    /// One line per board, in ``FleetBoard/ordered(_:)``'s order: device, online or offline, the last fix's age
    /// at `now` (the workstation's clock), the alarms, the backlogs, the version, the digests' first 12 digits.
    public static func lines(_ boards: [FleetBoard], now: Timestamp) -> [String] {
        let ordered = FleetBoard.ordered(boards)
        let width = ordered.map(\.device.count).max() ?? 0
        return ordered.map { board in
            let device = board.device.padding(to: width)
            if let problem = board.problem { return "\(device)  \(problem) (on \(board.topic))" }
            var columns = [board.online ? "online " : "offline"]
            columns.append(board.lastFix.map { "fix \(age(now.duration(since: $0))) ago" } ?? "no fix yet")
            columns.append(
                board.alarms.isEmpty
                    ? "no alarm"
                    : "alarm " + board.alarms.map { $0.code + ($0.id.map { " \($0)" } ?? "") }.joined(separator: ", ")
            )
            if !board.backlogs.isEmpty {
                columns.append(
                    "unsent "
                        + board.backlogs.map { "\($0.name) \($0.unsent)\($0.failing ? " failing" : "")" }
                        .joined(separator: ", ")
                )
            }
            columns.append(board.version.map { "v\($0)" } ?? "version ?")
            columns.append("config " + (board.configDigest.map { String($0.prefix(12)) } ?? "?"))
            if let count = board.regionCount, let digest = board.regionsDigest {
                columns.append("regions \(count) \(digest.prefix(12))")
            }
            if !board.online, let reason = board.offlineReason { columns.append("(\(reason))") }
            return device + "  " + columns.joined(separator: "  ")
        }
    }

    /// A JSON array, one object per board in the same order: `device`, `topic`, `online`, `readable` (and
    /// `problem` when not), `version`, `config_digest`, `regions_digest`, `regions`, `alarms`, `last_fix` (its
    /// time, or null), `last_fix_age` (seconds at `now`), `sinks`, `uptime`, `tst`.
    public static func json(_ boards: [FleetBoard], now: Timestamp) -> String {
        jsonArray(FleetBoard.ordered(boards)) { writer, board in
            writer.string("device", board.device)
            writer.string("topic", board.topic)
            writer.boolean("online", board.online)
            writer.boolean("readable", board.problem == nil)
            if let problem = board.problem { writer.string("problem", problem) }
            optional(&writer, "version", board.version)
            optional(&writer, "config_digest", board.configDigest)
            optional(&writer, "regions_digest", board.regionsDigest)
            if let count = board.regionCount { writer.integer("regions", Int64(count)) }
            writer.objects("alarms", board.alarms) { entry, alarm in
                entry.string("code", alarm.code)
                if let id = alarm.id { entry.string("id", id) }
                if let message = alarm.message { entry.string("message", message) }
            }
            if let fix = board.lastFix {
                writer.timestamp("last_fix", fix)
                writer.number("last_fix_age", (now.duration(since: fix).secondsValue).rounded())
            } else {
                writer.null("last_fix")
            }
            writer.objects("sinks", board.backlogs) { entry, backlog in
                entry.string("name", backlog.name)
                entry.integer("unsent", Int64(backlog.unsent))
                entry.boolean("failing", backlog.failing)
            }
            if let uptime = board.uptime { writer.integer("uptime", Int64(uptime)) }
            if let published = board.published { writer.integer("tst", published.seconds) }
            if let offline = board.offlineReason { writer.string("offline_reason", offline) }
            if let error = board.lastError { writer.string("last_error", error) }
        }
    }

    /// A JSON array on one line, one object per element, each written by `body`.
    static func jsonArray<Element>(_ elements: [Element], _ body: (inout JSONObjectWriter, Element) -> Void) -> String {
        var text: [UInt8] = Array("[".utf8)
        for (index, element) in elements.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            var object: [UInt8] = []
            JSONObjectWriter.write(into: &object) { writer in body(&writer, element) }
            object.removeLast()
            text += object
        }
        text += Array("]".utf8)
        return String(decoding: text, as: UTF8.self)
    }

    private static func optional(_ writer: inout JSONObjectWriter, _ key: StaticString, _ value: String?) {
        if let value { writer.string(key, value) } else { writer.null(key) }
    }

    /// `42 s`, `5 min`, `3 h`, `2 d`.
    static func age(_ duration: Duration) -> String {
        let seconds = max(0, Int(duration.secondsValue))
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
