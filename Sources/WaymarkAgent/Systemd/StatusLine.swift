import WaymarkCore

/// The one line `systemctl status` shows for the agent (`STATUS=`): what it is doing now, for a person.
///
///     3D fix, 9 satellites, moving; 12 events unsent
///     paused (stationary) since 14:02 UTC; 0 events unsent
///     gpsd unavailable at 127.0.0.1:2947, retrying in 8 s
///     3D fix, 9 satellites, moving; alarm region_file_rejected /etc/waymark/regions.geojson; 0 events unsent
struct StatusLine: Equatable {
    /// gpsd's address: the one configured until the connection names it.
    var server: String
    /// The last connection attempt failed; nil while connected or connecting.
    var outage: Outage?

    struct Outage: Equatable {
        /// When the next attempt comes, if the source said.
        var retryIn: Duration?
    }
    /// The receiver and its fix, as the pipeline knows them.
    var status = Status(gpsd: .unavailable)
    /// Why and since when the agent is paused; nil while it tracks.
    var pause: PauseReport?
    /// Events the sinks do not have yet; nil without a spool or sinks.
    var unsent: UInt64?
    /// The health alarms open now, named after the activity in the order they started.
    var alarms: [Alarm] = []

    init(server: String) { self.server = server }

    /// Takes what a source update says about the connection.
    mutating func observe(_ event: SourceEvent) {
        switch event {
        case .connected(let server, _):
            self.server = server
            outage = nil
        case .unavailable(let server, _, let retry):
            self.server = server
            outage = Outage(retryIn: retry)
        default:
            break
        }
    }

    /// Takes what an event says about the activity.
    mutating func observe(_ event: Event) {
        switch event.kind {
        case .pause(let report): pause = report
        case .resume: pause = nil
        default: break
        }
    }

    var text: String {
        var text = activity
        if !alarms.isEmpty {
            let names = alarms.sorted { $0.since < $1.since }.map { alarm in
                alarm.key.kind.rawValue + (alarm.key.subject.map { " \($0)" } ?? "")
            }
            text += "; alarm\(names.count == 1 ? "" : "s") " + names.joined(separator: ", ")
        }
        if let unsent { text += "; \(unsent) \(unsent == 1 ? "event" : "events") unsent" }
        return text
    }

    private var activity: String {
        if let outage {
            let retry = outage.retryIn.map { ", retrying in \(Self.seconds($0)) s" } ?? ""
            return "gpsd unavailable at \(server)\(retry)"
        }
        if let pause {
            let since = pause.since.map { " since \(Self.clockTime($0)) UTC" } ?? ""
            return "paused (\(pause.reason == .stationary ? "stationary" : "no fix"))\(since)"
        }
        guard status.gpsd == .connected else { return "connecting to gpsd at \(server)" }
        guard status.device != nil else { return "connected to gpsd at \(server), no receiver" }
        let satellites = status.satellitesUsed.map { ", \($0) \($0 == 1 ? "satellite" : "satellites")" } ?? ""
        switch status.fixMode {
        case .notSeen: return "receiver \(status.device ?? ""), waiting for its first report"
        case .noFix: return "no fix\(satellites)"
        case .twoD: return "2D fix\(satellites), moving"
        case .threeD: return "3D fix\(satellites), moving"
        }
    }

    /// Whole seconds, rounded up: "retrying in 1 s" rather than "in 0 s".
    private static func seconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }

    /// `HH:MM` of a UTC time.
    private static func clockTime(_ time: Timestamp) -> String {
        let secondOfDay = Int(((time.seconds % 86_400) + 86_400) % 86_400)
        let hour = secondOfDay / 3600
        let minute = secondOfDay / 60 % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}
