/// Monitors beacon regions (Core Location's `CLBeaconRegion` monitoring) and ranges their beacons.
///
/// - A region is entered when a matching beacon is heard while it is outside or unknown.
/// - It exits after ``BeaconSettings/exitAfter`` of scanning time without a matching beacon; the exit carries the
///   last beacon heard. Time while the agent does not scan (``setScanning(_:now:)``) does not count: a paused
///   agent scans on a duty cycle, and a region must not exit between its scan windows.
/// - At a first start (no saved states) regions are unknown: a sighting enters, ``BeaconSettings/exitAfter``
///   without one determines them outside. After a restart, the regions saved as inside start inside (a first
///   sighting gives no second enter; ``BeaconSettings/exitAfter`` without one exits them), the others outside.
/// - A beacon is ranged (``BeaconRanger``) while it matches a region whose ``BeaconRegion/ranging`` (or else
///   ``BeaconSettings/ranging``) is true; it is reported for the first such region by id.
///
/// A beacon matching several regions serves each. Outputs come in region id order, then beacon order. Pure: the
/// caller passes `now`, and calls ``advance(to:)`` at ``nextDeadline``.
public struct BeaconMonitor: Sendable {
    /// What the monitor reports.
    public enum Output: Hashable, Sendable {
        /// A region was entered or exited. `beacon` is the beacon that entered it or the last one heard before the
        /// exit; nil only for the exit of a region saved as inside and not heard since the start. `notifies`
        /// follows the region's `notifyOnEntry` or `notifyOnExit`.
        case crossing(regionID: String, crossing: RegionEvent.Crossing, beacon: BeaconID?, notifies: Bool)
        /// A region's first state without a crossing: an unknown region not heard for
        /// ``BeaconSettings/exitAfter`` is outside.
        case determination(regionID: String, state: RegionState)
        /// A ranged beacon to report, and why.
        case ranging(RangedBeacon, BeaconRanger.Change)
    }

    private struct Watch: Sendable {
        var region: BeaconRegion
        var state: RegionState
        /// The last matching beacon heard since the start.
        var lastBeacon: BeaconID?
        /// On the scanning clock: the last matching sighting, or when the watch began (the start, or the region
        /// was added). An exit or a determination falls due ``BeaconSettings/exitAfter`` after it.
        var since: MonotonicInstant
    }

    public private(set) var settings: BeaconSettings
    /// The beacons ranged.
    public private(set) var ranger: BeaconRanger
    private var clock: ScanClock
    /// By region id.
    private var watches: [Watch] = []
    /// The watches a sighting can match, by UUID and major: a thousand regions cost a sighting what ten do. Made
    /// again wherever the regions change (the init, ``replace(_:now:)``).
    private var regionIndex = BeaconRegionIndex([])
    /// The states saved before this start, for the regions of the first region file: the init's regions, or those
    /// of the first ``replace(_:now:)`` when the init had none (the agent makes the monitor before it reads its
    /// region file). Nil once applied, or when nothing was saved.
    private var savedInside: Set<String>?

    /// - Parameters:
    ///   - regions: the regions to monitor; ids are unique (of two with one id, the first is kept).
    ///   - savedInside: the ids of the regions the vehicle was inside when the states were last saved, or nil when
    ///     nothing was saved (a first start).
    ///   - scanning: whether the agent scans from `now` on.
    public init(
        regions: [BeaconRegion],
        settings: BeaconSettings = .init(),
        savedInside: Set<String>? = nil,
        scanning: Bool = true,
        now: MonotonicInstant
    ) {
        self.settings = settings
        ranger = BeaconRanger(settings: settings, scanning: scanning, now: now)
        clock = ScanClock(scanning: scanning, now: now)
        let start = clock.scanTime(at: now)
        watches = Self.unique(regions).map { region in
            Watch(region: region, state: Self.firstState(of: region.id, saved: savedInside), since: start)
        }
        regionIndex = BeaconRegionIndex(watches.map(\.region.constraint))
        self.savedInside = regions.isEmpty ? savedInside : nil
    }

    /// A region's state at the start: inside or outside as saved, unknown when nothing was saved.
    private static func firstState(of id: String, saved: Set<String>?) -> RegionState {
        guard let saved else { return .unknown }
        return saved.contains(id) ? .inside : .outside
    }

    /// The regions monitored, by id.
    public var regions: [BeaconRegion] { watches.map(\.region) }

    /// The state of a region, by id; nil for an id not monitored.
    public func state(of id: String) -> RegionState? { watches.first { $0.region.id == id }?.state }

    /// The ids of the regions the vehicle is inside, sorted.
    public var insideIDs: [String] { watches.filter { $0.state == .inside }.map(\.region.id) }

    /// The beacons ranged now, nearest first, unknown proximity last, as of the last call (`waymark status`).
    public var ranged: [RangedBeacon] { ranger.ranged }

    /// Whether time counts toward exits and losses.
    public var isScanning: Bool { clock.isScanning }

    /// The earliest instant at which an exit, a determination, or a ranged beacon's change or loss falls due;
    /// nil when nothing is pending or the agent is not scanning.
    public var nextDeadline: MonotonicInstant? {
        let exits = watches.lazy.filter { $0.state != .outside }.compactMap { watch in
            clock.deadline(at: watch.since + settings.exitAfter)
        }
        return [exits.min(), ranger.nextDeadline].compactMap { $0 }.min()
    }

    /// Replaces the regions (a reloaded file): regions kept by id keep their states; removed ones are forgotten
    /// without an exit, and so are the beacons ranged for no region left; new ones are unknown (a sighting enters
    /// them, ``BeaconSettings/exitAfter`` without one determines them outside), except at the first file after a
    /// start without regions, whose regions start as saved.
    public mutating func replace(_ regions: [BeaconRegion], now: MonotonicInstant) {
        let start = clock.scanTime(at: now)
        var kept: [String: Watch] = [:]
        for watch in watches { kept[watch.region.id] = watch }
        let saved = savedInside
        savedInside = nil
        watches = Self.unique(regions).map { region in
            guard var watch = kept[region.id] else {
                return Watch(region: region, state: Self.firstState(of: region.id, saved: saved), since: start)
            }
            watch.region = region
            return watch
        }
        regionIndex = BeaconRegionIndex(watches.map(\.region.constraint))
        reassignRanging()
    }

    /// Takes new settings from `now` on. Exits they make due come with the next ``advance(to:)``; beacons no region
    /// ranges any more are forgotten without a report.
    public mutating func apply(_ settings: BeaconSettings, now: MonotonicInstant) {
        self.settings = settings
        ranger.apply(settings)
        reassignRanging()
    }

    /// Feeds one sighting heard at `now`; returns the enters it makes, then its ranging report.
    public mutating func observe(_ sighting: BeaconSighting, now: MonotonicInstant) -> [Output] {
        let scanTime = clock.scanTime(at: now)
        var outputs: [Output] = []
        var rangedFor: String?
        for index in regionIndex.candidates(for: sighting.beacon)
        where watches[index].region.constraint.matches(sighting.beacon) {
            let region = watches[index].region
            watches[index].lastBeacon = sighting.beacon
            watches[index].since = scanTime
            if watches[index].state != .inside {
                watches[index].state = .inside
                outputs.append(
                    .crossing(
                        regionID: region.id,
                        crossing: .enter,
                        beacon: sighting.beacon,
                        notifies: region.notifyOnEntry
                    )
                )
            }
            if rangedFor == nil, ranges(region) { rangedFor = region.id }
        }
        if let rangedFor, let report = ranger.observe(sighting, regionID: rangedFor, now: now) {
            outputs.append(.ranging(report.beacon, report.change))
        }
        return outputs
    }

    /// Reports the exits, determinations and ranging changes that fell due by `now`.
    public mutating func advance(to now: MonotonicInstant) -> [Output] {
        let scanTime = clock.scanTime(at: now)
        var outputs: [Output] = []
        for index in watches.indices
        where watches[index].state != .outside && scanTime - watches[index].since >= settings.exitAfter {
            let watch = watches[index]
            watches[index].state = .outside
            if watch.state == .inside {
                outputs.append(
                    .crossing(
                        regionID: watch.region.id,
                        crossing: .exit,
                        beacon: watch.lastBeacon,
                        notifies: watch.region.notifyOnExit
                    )
                )
            } else {
                outputs.append(.determination(regionID: watch.region.id, state: .outside))
            }
        }
        outputs += ranger.advance(to: now).map { .ranging($0.beacon, $0.change) }
        return outputs
    }

    /// Starts or stops counting scanning time, after reporting what fell due by `now`.
    public mutating func setScanning(_ scanning: Bool, now: MonotonicInstant) -> [Output] {
        let outputs = advance(to: now)
        clock.setScanning(scanning, now: now)
        _ = ranger.setScanning(scanning, now: now)  // Its reports came with `advance(to:)`.
        return outputs
    }

    private func ranges(_ region: BeaconRegion) -> Bool { region.ranging ?? settings.ranging }

    /// Gives each ranged beacon the first region by id that matches it and ranges, or forgets it.
    private mutating func reassignRanging() {
        let watches = self.watches
        let settings = self.settings
        ranger.reassign { beacon in
            watches.first { watch in
                watch.region.constraint.matches(beacon) && (watch.region.ranging ?? settings.ranging)
            }?.region.id
        }
    }

    /// The regions sorted by id, the first of each id kept.
    private static func unique(_ regions: [BeaconRegion]) -> [BeaconRegion] {
        var seen = Set<String>()
        return regions.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
    }
}
