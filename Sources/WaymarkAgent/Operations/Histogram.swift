import WaymarkFormats

/// A Prometheus histogram's counts: observations at or under each bound, their number and their sum.
struct Histogram: Equatable {
    /// The upper bounds, ascending; `+Inf` is implied.
    let bounds: [Double]
    /// The bounds as the exposition writes them in `le`, then `+Inf`.
    let boundLabels: [String]
    /// Observations at or under each bound (not cumulative: the exposition adds them up).
    private(set) var counts: [Int]
    private(set) var count = 0
    private(set) var sum = 0.0

    init(bounds: [Double]) {
        self.bounds = bounds
        boundLabels = bounds.map(JSONText.number) + ["+Inf"]
        counts = Array(repeating: 0, count: bounds.count)
    }

    mutating func observe(_ value: Double) {
        count += 1
        sum += value
        if let index = bounds.firstIndex(where: { value <= $0 }) { counts[index] += 1 }
    }

    /// The cumulative count of each bound, then `+Inf`'s (all observations).
    var cumulative: [Int] {
        var total = 0
        return counts.map { count in
            total += count
            return total
        } + [count]
    }

    /// Seconds, for a spool commit: a sync of the WAL on an SD card takes milliseconds to a second.
    static let commitBounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
}
