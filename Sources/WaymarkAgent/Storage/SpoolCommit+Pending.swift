import WaymarkStore

extension SpoolCommit {
    /// Adds what `later` holds after what this one holds: its events after these, its state over this.
    mutating func merge(_ later: SpoolCommit) {
        events += later.events
        cursors.merge(later.cursors) { $1 }
        quarantined += later.quarantined
        if later.writesWindow {
            writesWindow = true
            windowStart = later.windowStart
        }
        if let inside = later.insideRegions { insideRegions = inside }
        if let floor = later.seqFloor { seqFloor = max(seqFloor ?? 0, floor) }
        if let trip = later.openTrip { openTrip = trip }
        if let metres = later.odometer { odometer = metres }
    }

    /// Leaves the events only: the state goes with another commit.
    mutating func keepingEventsOnly() {
        cursors = [:]
        quarantined = []
        writesWindow = false
        windowStart = nil
        insideRegions = nil
        seqFloor = nil
        openTrip = nil
        odometer = nil
    }

    /// Drops the oldest routine events (`location`, `heading`, `status`) while more than `limit` events are
    /// held, then the oldest of any kind; returns what it dropped, by kind.
    mutating func dropOldestRoutine(beyond limit: Int) -> [StoredEvent.Kind: Int] {
        var excess = events.count - limit
        guard excess > 0 else { return [:] }
        var dropped: [StoredEvent.Kind: Int] = [:]
        let routine: Set<StoredEvent.Kind> = [.location, .heading, .status]
        for pass in 0..<2 {
            events.removeAll { event in
                guard excess > 0, pass == 1 || routine.contains(event.kind) else { return false }
                excess -= 1
                dropped[event.kind, default: 0] += 1
                return true
            }
        }
        return dropped
    }
}
