import Glibc
import WaymarkClocks
import WaymarkCore
import WaymarkFormats
import WaymarkSystem

extension Agent {
    /// What `waymark status` prints: whether an agent runs, and its state as JSON and as a table for a person.
    public struct StatusAnswer: Sendable {
        /// Whether an agent runs; nil when the status file could not be read at all (no permission).
        public var running: Bool?
        public var json: JSONValue
        public var text: String
    }

    /// `waymark status`: the running agent's status file, asked to be fresh (SIGWINCH, when this process may
    /// signal the agent) and with its ages carried to now; or, when no agent runs, how old the last status file
    /// is and what the spool holds. Only the agent of `configuration`'s `state_dir` counts: a status file that
    /// another agent wrote (``StatusFile/owner(stateDirectory:)``) is named as that agent's, never shown.
    public static func status(_ configuration: Configuration, refresh: Bool = true) -> StatusAnswer {
        let path = OperationsOutput.statusPath(configuration)
        var file = StatusFile(path: path)
        if let denied = file.denied {
            let message =
                "cannot read \(path) (\(denied)): run waymark status as root or as a member of the group waymark"
            return StatusAnswer(running: nil, json: .object([("error", .string(message))]), text: message)
        }
        let stateDirectory = AgentLock.canonicalPath(configuration.agent.stateDirectory)
        let owner = file.owner(stateDirectory: configuration.agent.stateDirectory)
        if owner == .this, let identity = file.identity, file.isRunning, identity.isRunning {
            let refreshed = refresh ? file.refresh(signalling: identity.pid) : "not asked"
            if file.isRunning, let json = file.json {
                var live = StatusFile.carriedToNow(json)
                live.set("fresh", .boolean(refreshed == nil))
                var text = StatusTable.text(live)
                if let refreshed, let since = live["as_of"]?.number {
                    text += "\n(as written \(StatusTable.duration(since)) ago; not refreshed: \(refreshed))"
                }
                return StatusAnswer(running: true, json: live, text: text)
            }
        }
        var members: [(key: String, value: JSONValue)] = [("running", .boolean(false)), ("status_file", .string(path))]
        var lines = ["waymark is not running"]
        if case .other(let state) = owner, let identity = file.identity {
            let running = file.isRunning && identity.isRunning
            members.append(
                (
                    "status_file_owner",
                    .object([
                        ("pid", .number(Double(identity.pid))), ("state_dir", .string(state)),
                        ("running", .boolean(running)),
                    ])
                )
            )
            lines[0] +=
                " with state_dir \(stateDirectory) (the status file \(path) is another agent's: pid \(identity.pid), "
                + "state_dir \(state), \(running ? "running" : "not running"); give each agent a runtime_dir of its own)"
        } else if let age = StatusFile.age(path) {
            members.append(("status_file_age", .number(age.rounded())))
            let who = file.identity.map { " by pid \($0.pid)" } ?? ""
            lines[0] += " (its status file \(path) was written \(StatusTable.duration(age)) ago\(who))"
        } else {
            lines[0] += " (no status file \(path))"
        }
        do {
            let stats = try JSONValue(parsing: Array(try spoolStatistics(configuration).utf8))
            members.append(("spool", stats))
            lines += StatusTable.spoolLines(stats)
        } catch {
            members.append(("spool_error", .string("\(error)")))
            lines.append("spool         \(error)")
        }
        return StatusAnswer(running: false, json: .object(members), text: lines.joined(separator: "\n"))
    }
}

/// The status file as `waymark status` reads it.
struct StatusFile {
    let path: String
    private(set) var json: JSONValue?
    /// Why the file could not be read, when it is there and this process may not read it.
    private(set) var denied: String?

    init(path: String) {
        self.path = path
        json = Self.read(path)
        if json == nil, access(path, F_OK) == 0 || errno == EACCES, access(path, R_OK) != 0, errno == EACCES {
            denied = SystemError.reason(EACCES)
        }
    }

    private static func read(_ path: String) -> JSONValue? {
        guard let bytes = try? Files.contents(path) else { return nil }
        return try? JSONValue(parsing: bytes)
    }

    /// Whose agent wrote the file, of a configuration with `stateDirectory`.
    enum Owner: Equatable {
        /// The agent holding that state directory: the file names it, and its pid is the one in the state
        /// directory's lock (when that can be read).
        case this
        /// An agent of another state directory (which the file names).
        case other(String)
        /// The file names no state directory, or its pid is not the lock's: nobody's now.
        case unknown
    }

    func owner(stateDirectory: String) -> Owner {
        guard let state = json?["state_dir"]?.string else { return .unknown }
        guard state == AgentLock.canonicalPath(stateDirectory) else { return .other(state) }
        let holder = AgentLock.written(in: stateDirectory)?.pid
        return holder == nil || holder == identity?.pid ? .this : .unknown
    }

    /// The process that wrote it.
    var identity: ProcessIdentity? {
        guard let pid = json?["pid"]?.number else { return nil }
        guard let pid = Int32(exactly: pid), pid > 0 else { return nil }
        return ProcessIdentity(pid: pid, startTicks: json?["process_start"]?.number.flatMap { UInt64(exactly: $0) })
    }

    /// Whether the agent that wrote it said it runs (it says `stopped` as it stops).
    var isRunning: Bool { json?["state"]?.string == "running" }

    /// Asks the agent for a fresh file and waits up to 2 s for it; keeps the file as it is when the agent may not
    /// be signalled or does not answer, and says why (nil: refreshed).
    mutating func refresh(signalling pid: Int32) -> String? {
        let before = json?["written_monotonic"]?.number ?? 0
        guard kill(pid, SIGWINCH) == 0 else {
            return "this user may not signal the agent (pid \(pid)): \(SystemError.reason(errno))"
        }
        for _ in 0..<100 {
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
            if let fresh = Self.read(path), (fresh["written_monotonic"]?.number ?? 0) > before {
                json = fresh
                return nil
            }
        }
        return "the agent did not answer within 2 s"
    }

    /// The file with its ages (`uptime`, the last fix's, the deferral window's, the sinks' oldest unsent event)
    /// carried from when it was written to now, and `running` and `as_of` (seconds since it was written) added.
    static func carriedToNow(_ json: JSONValue) -> JSONValue {
        let written = json["written_monotonic"]?.number ?? 0
        let since = max(0, Double(SystemClocks.monotonic().nanoseconds) / 1e9 - written)
        func later(_ value: JSONValue?) -> JSONValue? {
            value?.number.map { .number((($0 + since) * 1000).rounded() / 1000) }
        }
        var live = json
        live.set("running", .boolean(true))
        live.set("as_of", .number((since * 1000).rounded() / 1000))
        if let uptime = later(json["uptime"]) { live.set("uptime", uptime) }
        if var fix = json["last_fix"], let age = later(fix["age"]) {
            fix.set("age", age)
            live.set("last_fix", fix)
        }
        if var window = json["deferral"], let open = later(window["open_for"]) {
            window.set("open_for", open)
            live.set("deferral", window)
        }
        if let sinks = json["sinks"]?.elements {
            live.set(
                "sinks",
                .array(
                    sinks.map { sink in
                        var sink = sink
                        if let age = later(sink["oldest_unsent_age"]) { sink.set("oldest_unsent_age", age) }
                        return sink
                    }
                )
            )
        }
        return live
    }

    /// Seconds since the file was last written, by its modification time; nil when there is none.
    static func age(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return max(0, SystemClocks.wall().secondsSince1970 - modified)
    }
}

/// `waymark status` for a person: one line per subject, a column of names.
enum StatusTable {
    static func text(_ json: JSONValue) -> String {
        var lines: [String] = []
        func line(_ name: String, _ value: String) {
            lines.append(name.padding(toLength: 14) + value)
        }
        let version = json["version"]?.string ?? "?"
        let pid = int(json["pid"]).map(String.init) ?? "?"
        lines.append("waymark \(version), pid \(pid), up \(duration(json["uptime"]?.number ?? 0))")
        if let gpsd = json["gpsd"] {
            var text = gpsd["server"]?.string ?? "?"
            if gpsd["connected"]?.boolean == true {
                text += ", connected" + (gpsd["since"]?.string.map { " since \($0)" } ?? "")
            } else {
                text +=
                    ", not connected"
                    + (int(gpsd["retry_in"], rounding: .up).map { ", retrying in \($0) s" } ?? "")
            }
            let reconnects = int(gpsd["reconnects"]) ?? 0
            text += ", \(reconnects) \(reconnects == 1 ? "reconnect" : "reconnects")"
            line("gpsd", text)
        }
        var receiver = json["device"]?.string ?? "no receiver"
        let modes = ["fix mode not seen", "no fix", "2D fix", "3D fix"]
        if let mode = int(json["fix_mode"]), modes.indices.contains(mode) { receiver += ", " + modes[mode] }
        if let used = int(json["satellites_used"]) {
            receiver +=
                ", \(used)" + (int(json["satellites_visible"]).map { " of \($0)" } ?? "")
                + " satellites used"
        }
        line("receiver", receiver)
        if let fix = json["last_fix"] {
            var text = "\(duration(fix["age"]?.number ?? 0)) ago: "
            text += "\(fix["lat"]?.number ?? 0), \(fix["lon"]?.number ?? 0)"
            if let accuracy = int(fix["h_acc"]) { text += " ±\(accuracy) m" }
            if let place = fix["place"]?.string { text += ", \(place)" }
            line("last fix", text)
        } else {
            line("last fix", "none since the start")
        }
        if let activity = json["activity"] {
            var text = activity["state"]?.string ?? "?"
            if let reason = activity["reason"]?.string { text += " (\(reason))" }
            if let since = activity["since"]?.string { text += " since \(since)" }
            if let trip = activity["trip"] {
                text += "; trip since \(trip["since"]?.string ?? "?"), \(length(trip["distance"]?.number ?? 0))"
            }
            line("activity", text)
        }
        if let odometer = json["odometer_m"]?.number { line("odometer", length(odometer)) }
        let regions = json["regions"]?.elements?.compactMap(\.string) ?? []
        line("regions", regions.isEmpty ? "inside none" : "inside " + regions.joined(separator: ", "))
        if let beacons = json["beacons"] {
            let ranged = beacons["ranged"]?.elements ?? []
            var text = beacons["scanning"]?.boolean == true ? "scanning" : "not scanning"
            text += ranged.isEmpty ? "" : ", \(ranged.count) ranged"
            if let sightings = int(beacons["sightings"]) { text += "; \(sightings) heard" }
            if let rejected = int(beacons["rejected"]), rejected > 0 { text += ", \(rejected) rejected" }
            if let failures = int(beacons["failures"]), failures > 0 { text += ", \(failures) failures" }
            line("beacons", text)
            for beacon in ranged {
                let identity = [
                    beacon["uuid"]?.string ?? "?", int(beacon["major"]).map(String.init) ?? "?",
                    int(beacon["minor"]).map(String.init) ?? "?",
                ]
                var detail = "".padding(toLength: 14) + identity.joined(separator: ":")
                detail += " \(beacon["proximity"]?.string ?? "?")"
                if let accuracy = beacon["accuracy"]?.number { detail += " ~\(length(accuracy))" }
                if let rssi = int(beacon["rssi"]) { detail += ", \(rssi) dBm" }
                if let id = beacon["id"]?.string { detail += " (\(id))" }
                lines.append(detail)
            }
        }
        if let advertising = json["advertising"] {
            var text = advertising["active"]?.boolean == true ? "as \(advertising["beacon"]?.string ?? "?")" : "off"
            if let wanted = advertising["wanted"]?.boolean, let reason = advertising["reason"]?.string {
                text += " (\(wanted ? "wanted" : "not wanted"): \(reason)"
                text += (advertising["id"]?.string.map { " \($0)" } ?? "") + ")"
            }
            if let seconds = advertising["for"]?.number { text += " for \(duration(seconds))" }
            if let error = advertising["error"]?.string { text += "; \(error)" }
            line("advertising", text)
        }
        if let source = json["heading_source"]?.string { line("heading", "from \(source)") }
        if let window = json["deferral"] {
            let events = int(window["events"]) ?? 0
            line("deferral", "window open for \(duration(window["open_for"]?.number ?? 0)), \(events) events")
        }
        if let spool = json["spool"] { lines += spoolLines(spool) }
        for sink in json["sinks"]?.elements ?? [] {
            var text = "\(int(sink["unsent"]) ?? 0) unsent"
            if let age = sink["oldest_unsent_age"]?.number { text += ", the oldest \(duration(age)) old" }
            if sink["failing"]?.boolean == true { text += ", failing" }
            line("sink \(sink["name"]?.string ?? "?")", text)
        }
        let alarms = json["alarms"]?.elements ?? []
        if alarms.isEmpty { line("alarms", "none") }
        for alarm in alarms {
            let subject = alarm["id"]?.string.map { " (\($0))" } ?? ""
            line(
                "alarm",
                "\(alarm["code"]?.string ?? "?")\(subject) since \(alarm["since"]?.string ?? "?"): "
                    + (alarm["message"]?.string ?? "")
            )
        }
        for error in json["errors"]?.elements ?? [] {
            line(
                "error",
                "\(error["time"]?.string ?? "?") \(error["code"]?.string ?? "?"): \(error["message"]?.string ?? "")"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The spool's line, from `waymark spool stats`'s object or the status file's.
    static func spoolLines(_ spool: JSONValue) -> [String] {
        var text = "\(int(spool["events"]) ?? 0) events, \(int(spool["bytes"]) ?? 0) bytes"
        let drops =
            spool["drops"].flatMap { value -> [(key: String, value: JSONValue)]? in
                guard case .object(let members) = value else { return nil }
                return members
            } ?? []
        text +=
            drops.isEmpty
            ? ", no drops"
            : ", dropped " + drops.map { "\(int($0.value) ?? 0) \($0.key)" }.joined(separator: ", ")
        var lines = ["spool".padding(toLength: 14) + text]
        for sink in spool["sinks"]?.elements ?? [] {
            guard let name = sink["name"]?.string, sink["cursor"] != nil else { continue }
            var line = "\(int(sink["unsent"]) ?? 0) unsent"
            if let time = sink["oldest_unsent_time"]?.string { line += ", the oldest from \(time)" }
            lines.append("sink \(name)".padding(toLength: 14) + line)
        }
        return lines
    }

    /// A whole number from the file, rounded; nil unless it is a finite number a person would read as one.
    static func int(_ value: JSONValue?, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        guard let number = value?.number, number.isFinite, abs(number) < 1e15 else { return nil }
        return Int(number.rounded(rule))
    }

    /// "45 s", "12 min", "3 h 05 min", "2 d 4 h".
    static func duration(_ seconds: Double) -> String {
        guard let whole = int(.number(seconds)) else { return "?" }
        if whole < 120 { return "\(whole) s" }
        if whole < 7200 { return "\(whole / 60) min" }
        if whole < 172_800 {
            let minutes = whole / 60 % 60
            return "\(whole / 3600) h \(minutes < 10 ? "0" : "")\(minutes) min"
        }
        return "\(whole / 86_400) d \(whole / 3600 % 24) h"
    }

    static func length(_ metres: Double) -> String {
        guard metres.isFinite, abs(metres) < 1e12 else { return "?" }
        return metres < 1000 ? "\(Int(metres.rounded())) m" : "\((metres / 100).rounded() / 10) km"
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
