import Glibc

/// Ranges beacons (Core Location's beacon ranging, `CLBeacon`): smooths each beacon's RSSI, estimates its distance
/// and proximity, and says when to report it.
///
/// - Smoothing: the median RSSI of the sightings within ``BeaconSettings/smoothingWindow`` (at most 16 samples
///   per beacon, one per sixteenth of the window at high rates: memory and work per sighting are constant).
/// - Distance: the log-distance path-loss model (``estimatedDistance(rssi:measuredPower:pathLossExponent:)``).
/// - Proximity: ``BeaconProximity``, with its hysteresis; unknown while no sighting is in the smoothing window.
/// - Reports: `appeared` at a beacon's first sighting, `proximity` when its proximity changes (to unknown too),
///   `lost` when it has not been heard for ``BeaconSettings/exitAfter`` (then it is forgotten), and otherwise
///   `update` at the first sighting ``BeaconSettings/rangingInterval`` or more after its last report.
///
/// The smoothing window and the loss count scanning time only (``setScanning(_:now:)``); the ranging interval
/// counts monotonic time. Pure: the caller passes `now`.
public struct BeaconRanger: Sendable {
    /// Why a beacon is reported.
    public enum Change: String, Hashable, Sendable, CaseIterable {
        /// Its first sighting (again after it was lost).
        case appeared
        /// Its proximity class changed.
        case proximity
        /// Still heard, same proximity: the periodic report.
        case update
        /// Not heard for ``BeaconSettings/exitAfter``; it is forgotten.
        case lost
    }

    /// A beacon to report, and why.
    public struct Report: Hashable, Sendable {
        public var beacon: RangedBeacon
        public var change: Change

        public init(beacon: RangedBeacon, change: Change) {
            self.beacon = beacon
            self.change = change
        }
    }

    private struct Track: Sendable {
        var current: RangedBeacon
        var samples = RSSIWindow()
        /// When it was last heard, on the scanning clock.
        var heardScanTime: MonotonicInstant
        /// When it was last reported, on the monotonic clock.
        var reported: MonotonicInstant
    }

    public private(set) var settings: BeaconSettings
    private var clock: ScanClock
    private var tracks: [BeaconID: Track] = [:]

    /// - Parameter scanning: whether the agent scans from `now` on.
    public init(settings: BeaconSettings = .init(), scanning: Bool = true, now: MonotonicInstant) {
        self.settings = settings
        clock = ScanClock(scanning: scanning, now: now)
    }

    /// The distance in metres that the log-distance path-loss model gives, d = 10^((measuredPower − rssi) / (10 n)),
    /// rounded to 0.01 m and at least 0.01 m; -1 (unknown) when n is not more than 0.
    ///
    /// With n = 2, an RSSI equal to the measured power is 1 m, and each 6 dB fainter doubles the distance.
    public static func estimatedDistance(rssi: Double, measuredPower: Int, pathLossExponent n: Double) -> Double {
        guard n > 0, n.isFinite, rssi.isFinite else { return -1 }
        let metres = pow(10, (Double(measuredPower) - rssi) / (10 * n))
        guard metres.isFinite else { return -1 }
        return max(0.01, (metres * 100).rounded() / 100)
    }

    /// Whether time counts toward losses and the smoothing window.
    public var isScanning: Bool { clock.isScanning }

    /// The beacons ranged now, nearest first, unknown proximity last (then by beacon), as of the last call.
    public var ranged: [RangedBeacon] {
        tracks.values.map(\.current).sorted { lhs, rhs in
            let left = lhs.accuracy < 0 ? Double.infinity : lhs.accuracy
            let right = rhs.accuracy < 0 ? Double.infinity : rhs.accuracy
            return left != right ? left < right : lhs.beacon < rhs.beacon
        }
    }

    /// How many RSSI samples are kept for `beacon` (at most 16); nil when it is not ranged.
    public func sampleCount(of beacon: BeaconID) -> Int? { tracks[beacon]?.samples.count }

    /// The earliest instant at which a beacon becomes unknown or is lost while scanning; nil when nothing is
    /// ranged or the agent is not scanning.
    public var nextDeadline: MonotonicInstant? {
        tracks.values.compactMap { track -> MonotonicInstant? in
            let window = max(settings.smoothingWindow, .nanoseconds(1))
            let due =
                track.current.proximity == .unknown
                ? track.heardScanTime + settings.exitAfter
                : track.heardScanTime + min(window, settings.exitAfter)
            return clock.deadline(at: due)
        }.min()
    }

    /// Takes new settings: the beacons ranged are kept, their samples too.
    public mutating func apply(_ settings: BeaconSettings) {
        self.settings = settings
    }

    /// Feeds one sighting of a beacon ranged for `regionID`; returns its report, if one is due.
    public mutating func observe(_ sighting: BeaconSighting, regionID: String, now: MonotonicInstant) -> Report? {
        let scanTime = clock.scanTime(at: now)
        // Taken out of the dictionary while it changes, so that its samples are not copied.
        var track: Track
        let appeared: Bool
        if let known = tracks.removeValue(forKey: sighting.beacon) {
            track = known
            appeared = false
        } else {
            let beacon = RangedBeacon(
                beacon: sighting.beacon,
                regionID: regionID,
                rssi: 0,
                accuracy: -1,
                proximity: .unknown,
                measuredPower: sighting.measuredPower,
                lastHeard: now
            )
            track = Track(current: beacon, heardScanTime: scanTime, reported: now)
            appeared = true
        }
        let previous = track.current.proximity
        track.samples.add(sighting.rssi, at: scanTime, window: settings.smoothingWindow)
        track.heardScanTime = scanTime
        track.current.regionID = regionID
        track.current.measuredPower = sighting.measuredPower
        track.current.lastHeard = now
        smooth(&track, at: scanTime)
        let change: Change?
        if appeared {
            change = .appeared
        } else if track.current.proximity != previous {
            change = .proximity
        } else if now - track.reported >= settings.rangingInterval {
            change = .update
        } else {
            change = nil
        }
        if change != nil { track.reported = now }
        tracks[sighting.beacon] = track
        return change.map { Report(beacon: track.current, change: $0) }
    }

    /// Reports the beacons that became unknown or were lost by `now`, in beacon order.
    public mutating func advance(to now: MonotonicInstant) -> [Report] {
        let scanTime = clock.scanTime(at: now)
        var reports: [Report] = []
        for beacon in tracks.keys.sorted() {
            guard var track = tracks[beacon] else { continue }
            if scanTime - track.heardScanTime >= settings.exitAfter {
                tracks[beacon] = nil
                Self.forget(&track.current)
                reports.append(Report(beacon: track.current, change: .lost))
            } else if track.current.proximity != .unknown,
                !RSSIWindow.isFresh(track.heardScanTime, at: scanTime, window: settings.smoothingWindow)
            {
                Self.forget(&track.current)
                track.reported = now
                tracks[beacon] = track
                reports.append(Report(beacon: track.current, change: .proximity))
            }
        }
        return reports
    }

    /// Starts or stops counting scanning time, after reporting what fell due by `now`.
    public mutating func setScanning(_ scanning: Bool, now: MonotonicInstant) -> [Report] {
        let reports = advance(to: now)
        clock.setScanning(scanning, now: now)
        return reports
    }

    /// Gives each beacon ranged its region again (after the regions or settings changed): `regionID(beacon)`, or
    /// nil to forget it without a report.
    public mutating func reassign(_ regionID: (BeaconID) -> String?) {
        for beacon in Array(tracks.keys) {
            if let id = regionID(beacon) {
                tracks[beacon]?.current.regionID = id
            } else {
                tracks[beacon] = nil
            }
        }
    }

    /// Sets the smoothed RSSI, the distance and the proximity from the samples in the window at `scanTime`.
    private func smooth(_ track: inout Track, at scanTime: MonotonicInstant) {
        guard let median = track.samples.median(at: scanTime, window: settings.smoothingWindow) else {
            Self.forget(&track.current)
            return
        }
        let accuracy = Self.estimatedDistance(
            rssi: median,
            measuredPower: track.current.measuredPower,
            pathLossExponent: settings.pathLossExponent
        )
        track.current.rssi = Int(median.rounded())
        track.current.accuracy = accuracy
        track.current.proximity =
            accuracy < 0 ? .unknown : BeaconProximity(distanceMeters: accuracy, previous: track.current.proximity)
    }

    /// No sample in the window: Core Location's unknown values.
    private static func forget(_ beacon: inout RangedBeacon) {
        beacon.rssi = 0
        beacon.accuracy = -1
        beacon.proximity = .unknown
    }
}
