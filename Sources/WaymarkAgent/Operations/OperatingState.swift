import WaymarkCore

/// What the agent did since it started, beyond what the pipeline keeps: the connection's history, the sky, the
/// events by type and the last errors. ``AgentCore`` feeds it; `waymark status`, the status line and the
/// metrics read it.
struct OperatingState {
    /// The one line for systemd (`STATUS=`), which follows the same updates.
    var line: StatusLine
    /// When the connection to gpsd was made (event time); nil while there is none.
    private(set) var connectedSince: Timestamp?
    /// Connections made after the first.
    private(set) var reconnects = 0
    private var connections = 0
    /// The receiver's last sky report.
    private(set) var satellitesVisible: Int?
    /// Events delivered since the start, by `type`, in the order of ``EventType/allCases``.
    private(set) var eventsByType = [Int](repeating: 0, count: EventType.allCases.count)
    /// The last ``recentErrorLimit`` `error` events, oldest first.
    private(set) var recentErrors: [ErrorEntry] = []
    /// Whether anything `waymark status` shows, other than figures that move with every fix, changed since
    /// ``takeChange()``.
    private var changed = true

    static let recentErrorLimit = 10

    struct ErrorEntry: Equatable {
        var time: Timestamp
        var code: String
        var subject: String?
        var message: String
    }

    init(server: String) { line = StatusLine(server: server) }

    /// Takes what a source update says about the connection and the sky; `connectedAt` is the event time of a
    /// connection (worked out for that update only).
    mutating func observe(_ event: SourceEvent, connectedAt: Timestamp?) {
        line.observe(event)
        switch event {
        case .connected:
            connections += 1
            reconnects = max(0, connections - 1)
            connectedSince = connectedAt
            changed = true
        case .unavailable:
            // Each failed attempt (at most one per [gpsd] reconnect_min, backing off) changes when the next comes.
            changed = true
            connectedSince = nil
            satellitesVisible = nil
        case .deviceActive, .deviceGone:
            changed = true
        case .sky(let sky):
            if let visible = sky.satellitesVisible { satellitesVisible = visible }
        default:
            break
        }
    }

    /// Takes what an event says, as it is made (before it may wait for the clock to be dated): a pause, an error.
    mutating func observe(_ event: Event) {
        line.observe(event)
        guard case .error(let report) = event.kind else { return }
        recentErrors.append(
            ErrorEntry(time: event.time, code: report.code.rawValue, subject: report.subject, message: report.message)
        )
        if recentErrors.count > Self.recentErrorLimit { recentErrors.removeFirst() }
        changed = true
    }

    /// Counts an event as it is emitted (numbered, stored, printed).
    mutating func count(_ event: Event) {
        eventsByType[Self.position(of: event.eventType)] += 1
        switch event.kind {
        case .location, .heading: break
        default: changed = true
        }
    }

    /// Events of `type` delivered since the start.
    func events(_ type: EventType) -> Int { eventsByType[Self.position(of: type)] }

    private static let positions = Dictionary(uniqueKeysWithValues: EventType.allCases.enumerated().map { ($1, $0) })

    /// Where `type` is in ``EventType/allCases``: every case is.
    private static func position(of type: EventType) -> Int {
        guard let position = positions[type] else { preconditionFailure("\(type) is not in EventType.allCases") }
        return position
    }

    /// Whether something changed that `waymark status` should show soon; resets the flag.
    mutating func takeChange() -> Bool {
        defer { changed = false }
        return changed
    }

    /// Marks a change the state cannot see (an alarm, a deferral window).
    mutating func noteChange() { changed = true }
}
