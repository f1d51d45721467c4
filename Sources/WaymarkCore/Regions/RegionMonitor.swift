/// Monitors regions along the fixes (Core Location's region monitoring): a ``RegionTracker`` per region,
/// fed by every fix accurate enough, with a ``RegionLookup`` so that the work per fix does not grow with
/// the regions far from the vehicle.
///
/// A region far from every fix (never a candidate) is outside once the first fix has been seen, without
/// any per-region work. Regions are identified by their `id`; their states survive a change of the region
/// set (a reloaded file), and a region added after the first fix is `unknown` until the next one, which
/// reports its state without an enter or exit (as Core Location does for a region when it is added).
///
/// Pure: the fixes carry their times.
public struct RegionMonitor<Lookup: RegionLookup>: Sendable {
    /// What one fix changed.
    public struct Transition: Hashable, Sendable {
        public var regionID: String
        /// The confirmed change: the new state, the time and place of the crossing.
        public var change: RegionTracker.Change
        /// GPS time of the fix that confirmed it.
        public var confirmed: Timestamp
        /// The region's first determination (after a start or when it was added): a `region_state`, not
        /// an `enter` or `exit`, unless it differs from a saved state (then it happened while the agent was
        /// not watching: an `offline` enter or exit).
        public var kind: Kind
        public var notifies: Bool

        public enum Kind: Hashable, Sendable {
            case crossing
            case determination
            case offlineCrossing
        }
    }

    public var settings: RegionSettings
    public private(set) var lookup: Lookup
    /// Trackers of the regions that have been candidates (by id); every other region is outside once
    /// ``hasDetermined``.
    private var trackers: [String: RegionTracker] = [:]
    /// The regions inside or with a pending change: checked at every fix, candidates or not.
    private var active: Set<String> = []
    /// The regions saved as inside before this start, still to be compared with their first determination;
    /// nil when nothing was saved (a first start).
    private var savedInside: Set<String>?
    /// Whether a saved snapshot exists: then every region not saved as inside was outside.
    private let hasSnapshot: Bool
    /// Regions added after the first fix: unknown until the next.
    private var added: Set<String> = []
    /// Whether a fix has been seen: from then on a region that is no candidate is outside.
    public private(set) var hasDetermined = false
    private var candidates: [Int32] = []

    /// - Parameter savedInside: the ids of the regions the vehicle was inside when the states were last saved,
    ///   or nil when nothing was saved; a region whose first determination differs from what was saved
    ///   reports the crossing it missed.
    public init(lookup: Lookup, settings: RegionSettings = .init(), savedInside: Set<String>? = nil) {
        self.lookup = lookup
        self.settings = settings
        self.savedInside = savedInside
        hasSnapshot = savedInside != nil
    }

    /// The state of a region, by id; nil for an id not monitored.
    public func state(of id: String) -> RegionState? {
        guard lookup.slot(of: id) != nil else { return nil }
        if let tracker = trackers[id] { return tracker.state }
        return hasDetermined && !added.contains(id) ? .outside : .unknown
    }

    /// The ids of the regions the vehicle is inside.
    ///
    /// Before the first fix, the regions saved as inside that are monitored count as inside: that is what the
    /// monitor knows of them until a fix determines them, and what is saved again if the agent stops before.
    public var insideIDs: [String] {
        var inside = Set(active.filter { trackers[$0]?.state == .inside })
        if let savedInside { inside.formUnion(savedInside.filter { lookup.slot(of: $0) != nil }) }
        return inside.sorted()
    }

    /// Replaces the region set (a reloaded file): regions kept by id keep their states; new ones are unknown
    /// until the next fix; removed ones are forgotten.
    public mutating func replace(_ lookup: Lookup) {
        let before = Self.ids(in: self.lookup)
        self.lookup = lookup
        let now = Self.ids(in: lookup)
        for removed in before.subtracting(now) {
            trackers[removed] = nil
            active.remove(removed)
            added.remove(removed)
        }
        if hasDetermined { added.formUnion(now.subtracting(before)) }
    }

    /// Feeds one fix; returns the transitions it confirmed, in region order.
    public mutating func observe(_ location: Location) -> [Transition] {
        if let accuracy = location.horizontalAccuracy, accuracy > settings.maxAccuracy { return [] }
        let coordinate = location.coordinate
        candidates.removeAll(keepingCapacity: true)
        lookup.candidates(near: coordinate, within: settings.cushion, into: &candidates)
        var checked = Set<Int32>()
        var transitions: [Transition] = []
        for slot in candidates where checked.insert(slot).inserted {
            observe(slot, location, into: &transitions)
        }
        for id in active {
            guard let slot = lookup.slot(of: id), checked.insert(slot).inserted else { continue }
            observe(slot, location, into: &transitions)
        }
        // Regions added since the last fix, and regions saved as inside that are no candidates now, are
        // determined here too (the latter are outside: they exited while the agent was not watching).
        for id in added.union(savedInside ?? []) {
            guard let slot = lookup.slot(of: id), checked.insert(slot).inserted else { continue }
            observe(slot, location, into: &transitions)
        }
        hasDetermined = true
        added.removeAll()
        savedInside = nil
        return transitions.sorted { $0.regionID < $1.regionID }
    }

    private mutating func observe(_ slot: Int32, _ location: Location, into transitions: inout [Transition]) {
        guard let region = lookup.regionFlags(at: slot) else { return }
        let id = region.id
        var tracker = trackers[id] ?? RegionTracker(state: hasDetermined && !added.contains(id) ? .outside : .unknown)
        let wasUnknown = tracker.state == .unknown
        let distance = lookup.signedDistance(ofRegionAt: slot, to: location.coordinate)
        if let change = tracker.observe(
            signedDistance: distance,
            at: location.coordinate,
            time: location.time,
            cushion: settings.cushion,
            dwell: settings.dwell
        ) {
            let kind: Transition.Kind
            if !wasUnknown {
                kind = .crossing
            } else if hasSnapshot, !hasDetermined, (savedInside?.contains(id) == true) != (change.state == .inside) {
                kind = .offlineCrossing
            } else {
                kind = .determination
            }
            // At a start only the regions found inside are reported; a region added later reports either state.
            let reported = kind != .determination || change.state == .inside || added.contains(id)
            if reported {
                let notifies =
                    kind == .determination
                    ? true : (change.state == .inside ? region.notifyOnEntry : region.notifyOnExit)
                transitions.append(
                    Transition(regionID: id, change: change, confirmed: location.time, kind: kind, notifies: notifies)
                )
            }
        }
        if tracker.state == .inside || tracker.pending != nil {
            active.insert(id)
        } else {
            active.remove(id)
        }
        trackers[id] = tracker
    }

    private static func ids(in lookup: Lookup) -> Set<String> {
        Set((0..<Int32(clamping: lookup.slotCount)).compactMap { lookup.regionFlags(at: $0)?.id })
    }
}
