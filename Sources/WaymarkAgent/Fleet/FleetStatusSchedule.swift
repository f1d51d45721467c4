import WaymarkCore

/// When the board publishes its status (docs/fleet.md, "When a board publishes"): at every connection the broker
/// accepts, at once; after a change of what an operator acts on (an alarm, an error, the activity, a trip, the
/// regions, the configuration), once `status_interval` passed since the last; after a change of the figures that
/// move all the time only (``FleetStatus/settled``), once `status_refresh` passed; nothing while nothing changed.
/// No I/O, no clock: the caller passes `now`.
struct FleetStatusSchedule {
    enum Action: Equatable {
        /// Publish this status now, then tell ``published(_:at:)``.
        case publish(FleetStatus)
        /// Nothing to do until this instant (nil: until a new status, a connection).
        case wait(until: MonotonicInstant?)
    }

    let minimumInterval: Duration
    /// Zero: the moving figures go only with another change.
    let refresh: Duration
    private var latest: FleetStatus?
    private var lastPublished: (status: FleetStatus, at: MonotonicInstant)?
    private var connected = false
    /// A connection was made and its status not yet published.
    private var owesConnection = false

    init(minimumInterval: Duration, refresh: Duration) {
        self.minimumInterval = minimumInterval
        self.refresh = refresh
    }

    /// The agent's status now.
    mutating func offer(_ status: FleetStatus) { latest = status }

    /// The broker accepted a connection: the status goes at once (the last will may have replaced it).
    mutating func connected(at now: MonotonicInstant) {
        connected = true
        owesConnection = true
    }

    mutating func disconnected() { connected = false }

    /// What to do at `now`.
    func next(at now: MonotonicInstant) -> Action {
        guard connected, let latest else { return .wait(until: nil) }
        guard !owesConnection, let lastPublished else { return .publish(latest) }
        let due: MonotonicInstant
        if latest.settled != lastPublished.status.settled {
            due = lastPublished.at + minimumInterval
        } else if latest != lastPublished.status && refresh > .zero {
            due = lastPublished.at + refresh
        } else {
            return .wait(until: nil)
        }
        return now >= due ? .publish(latest) : .wait(until: due)
    }

    /// `status` went to the broker at `now`.
    mutating func published(_ status: FleetStatus, at now: MonotonicInstant) {
        lastPublished = (status, now)
        owesConnection = false
    }
}
