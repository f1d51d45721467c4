/// Whether the vehicle is in a region, as the monitor knows it.
public enum RegionState: String, Hashable, Sendable {
    case unknown
    case inside
    case outside
}

/// One region's state machine (Core Location's rules): a fix inside by at least `cushion` metres says
/// inside, outside by more than `cushion` says outside, in between says nothing; a change is confirmed when
/// it has held for `dwell` of GPS time, and dated by the first fix that saw it (the crossing).
///
/// With `cushion = 0` and `dwell = 0`, inside means a signed distance ≤ 0 and every change is confirmed at
/// the fix that makes it: the events are exactly the boundary crossings of the fixes.
public struct RegionTracker: Hashable, Sendable {
    /// A confirmed change.
    public struct Change: Hashable, Sendable {
        public var state: RegionState
        /// GPS time of the first fix of the new state: the crossing.
        public var since: Timestamp
        /// The position of that fix.
        public var at: Coordinate
    }

    public private(set) var state: RegionState = .unknown
    /// A change seen and not yet confirmed: the new state and the first fix that saw it.
    public private(set) var pending: Change?

    public init(state: RegionState = .unknown) {
        self.state = state
    }

    /// Feeds one qualifying fix, at `signedDistance` metres from the boundary (negative inside). Returns the
    /// change it confirms, if any; a first determination (from `unknown`) is a change too.
    public mutating func observe(
        signedDistance: Double,
        at coordinate: Coordinate,
        time: Timestamp,
        cushion: Double,
        dwell: Duration
    ) -> Change? {
        let observed: RegionState
        if signedDistance <= -cushion {
            observed = .inside
        } else if signedDistance > cushion {
            observed = .outside
        } else if state == .unknown {
            observed = signedDistance <= 0 ? .inside : .outside
        } else {
            return nil
        }
        if state == .unknown {
            state = observed
            pending = nil
            return Change(state: observed, since: time, at: coordinate)
        }
        guard observed != state else {
            pending = nil
            return nil
        }
        if pending?.state != observed { pending = Change(state: observed, since: time, at: coordinate) }
        guard let change = pending, time.duration(since: change.since) >= dwell else { return nil }
        state = observed
        pending = nil
        return change
    }
}
