/// When the board advertises itself as an iBeacon (`[beacons.advertise] when`): Core Location's "turning a device
/// into an iBeacon", for a depot gate or a phone that ranges the vehicle without GNSS or network.
///
/// The policy only decides whether the board should advertise and why; whether BlueZ carries it out is the
/// advertiser's to say. Pure: the caller passes the activity, the regions the vehicle is inside, and `now`.
public struct AdvertisingPolicy: Sendable {
    /// When to advertise.
    public enum Rule: Hashable, Sendable {
        case always
        /// While the vehicle moves (not paused): a gate sees it drive through. A pause for want of a fix
        /// (`no_fix`: an underground depot, a tunnel) is no sign of a parked vehicle, so it goes on advertising.
        case whileMoving
        /// While the vehicle is paused: parked in a depot or a loading bay.
        case whilePaused
        /// While the vehicle is inside one of these regions (geographic or beacon region ids).
        case insideRegions(Set<String>)
    }

    /// Why the wish changed (the `reason` of a `beacon_advertising` event).
    public enum Reason: String, Hashable, Sendable {
        /// `when = "always"`: from the start.
        case always
        /// The vehicle moves: it started under `moving`, it stopped under `paused`.
        case moving
        /// The vehicle paused: it started under `paused`, it stopped under `moving`.
        case paused
        /// The vehicle entered one of the regions (``Change/regionID``).
        case insideRegion = "inside_region"
        /// The vehicle left the last of the regions.
        case outsideRegions = "outside_regions"
        /// The agent stops (a clean exit). A reload leaves `[beacons.advertise]` as the agent started with it.
        case stopping
    }

    /// A change of the wish to advertise.
    public struct Change: Hashable, Sendable {
        public var advertising: Bool
        public var reason: Reason
        /// The region entered, for ``Reason/insideRegion``.
        public var regionID: String?

        public init(advertising: Bool, reason: Reason, regionID: String? = nil) {
            self.advertising = advertising
            self.reason = reason
            self.regionID = regionID
        }
    }

    public let rule: Rule
    /// Whether the board should advertise, as of the last call.
    public private(set) var wantsAdvertising = false
    /// The last change, and when it was made (`waymark status`).
    public private(set) var lastChange: Change?
    public private(set) var since: MonotonicInstant?
    private var stopped = false

    public init(rule: Rule) { self.rule = rule }

    /// Decides from the vehicle's state at `now`; returns the change, or nil when the wish stays as it was.
    ///
    /// - Parameters:
    ///   - pause: why the agent paused location updates (stationary: the vehicle is parked), nil when it did not.
    ///   - inside: the ids of the regions the vehicle is inside now, geographic and beacon alike.
    public mutating func update(
        pause: PauseReport.Reason?,
        inside: some Collection<String>,
        now: MonotonicInstant
    ) -> Change? {
        guard !stopped else { return nil }
        let paused = pause != nil
        let change: Change
        switch rule {
        case .always:
            change = Change(advertising: true, reason: .always)
        case .whileMoving where pause == .noFix:
            // No change: advertising goes on (or stays off) through a loss of the fix.
            return nil
        case .whileMoving:
            change = Change(advertising: !paused, reason: paused ? .paused : .moving)
        case .whilePaused:
            change = Change(advertising: paused, reason: paused ? .paused : .moving)
        case .insideRegions(let ids):
            // The first by id: the same region names the reason whatever order the caller lists them in.
            let entered = inside.filter { ids.contains($0) }.min()
            change =
                entered.map { Change(advertising: true, reason: .insideRegion, regionID: $0) }
                ?? Change(advertising: false, reason: .outsideRegions)
        }
        return take(change, now: now)
    }

    /// Stops for good (a clean exit); nil when the board was not advertising.
    public mutating func stop(now: MonotonicInstant) -> Change? {
        defer { stopped = true }
        guard !stopped else { return nil }
        return take(Change(advertising: false, reason: .stopping), now: now)
    }

    private mutating func take(_ change: Change, now: MonotonicInstant) -> Change? {
        // The first decision to stay silent says nothing: the board never advertised.
        guard change.advertising != wantsAdvertising else { return nil }
        wantsAdvertising = change.advertising
        lastChange = change
        since = now
        return change
    }
}
