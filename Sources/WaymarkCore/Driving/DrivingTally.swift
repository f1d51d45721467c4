/// A trip's `driving` events: how many of each kind, and the worst value of each (the largest peak: m/s² for the
/// harsh kinds, m/s for overspeed). An overspeed counts once, at its `overspeed_start`; its worst speed comes with
/// its end.
public struct DrivingTally: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var count = 0
        public var worst: Double?
        /// Overspeed only: the time spent over the limit, the episodes ended so far.
        public var duration = Duration.zero
    }

    /// By kind: `harsh_acceleration`, `harsh_braking`, `harsh_cornering`, `overspeed`.
    public private(set) var entries: [String: Entry] = [:]

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    public mutating func add(_ report: DrivingReport) {
        switch report.kind {
        case .harshAcceleration, .harshBraking, .harshCornering:
            entries[report.kind.rawValue, default: Entry()].count += 1
            raise(report.kind.rawValue, to: report.peak)
        case .overspeedStart:
            entries["overspeed", default: Entry()].count += 1
            raise("overspeed", to: report.peak)
        case .overspeedEnd:
            raise("overspeed", to: report.peak)
            entries["overspeed", default: Entry()].duration += report.duration
        }
    }

    private mutating func raise(_ key: String, to value: Double) {
        let worst = entries[key]?.worst
        entries[key, default: Entry()].worst = max(worst ?? value, value)
    }
}
