/// The RSSI samples of one beacon within the smoothing window, at most ``capacity`` of them, and their median.
///
/// A beacon can advertise a thousand times a second: the window keeps one sample per slot of a sixteenth of the
/// window (the latest heard in it), in a ring of ``capacity``, so that memory and the work per sighting stay
/// constant. Below 16 sightings per window every sighting has a slot of its own.
struct RSSIWindow: Hashable, Sendable {
    static let capacity = 16

    private struct Sample: Hashable, Sendable {
        var rssi: Int
        var heard: MonotonicInstant
    }

    /// A ring: once full, `oldest` is where the next slot goes.
    private var samples: [Sample] = []
    private var oldest = 0
    /// When the newest slot was opened: sightings within a slot's width of it replace its sample.
    private var newestSlotOpened: MonotonicInstant?

    /// How many samples are kept (at most ``capacity``), fresh or not.
    var count: Int { samples.count }

    init() {
        samples.reserveCapacity(Self.capacity)
    }

    /// Adds a sample heard at `now` (on the scanning clock), for a smoothing window of `window`.
    mutating func add(_ rssi: Int, at now: MonotonicInstant, window: Duration) {
        let sample = Sample(rssi: rssi, heard: now)
        let newest = samples.isEmpty ? nil : (oldest + samples.count - 1) % samples.count
        if let newest, let opened = newestSlotOpened, now - opened < window / Self.capacity {
            samples[newest] = sample
        } else if samples.count < Self.capacity {
            samples.append(sample)
            newestSlotOpened = now
        } else {
            samples[oldest] = sample
            oldest = (oldest + 1) % Self.capacity
            newestSlotOpened = now
        }
    }

    /// Whether a sample heard at `heard` is still in the window at `now`: younger than `window`, or heard at `now`.
    static func isFresh(_ heard: MonotonicInstant, at now: MonotonicInstant, window: Duration) -> Bool {
        now - heard < max(window, .nanoseconds(1))
    }

    /// The median RSSI of the samples in the window at `now` (the mean of the middle two for an even count); nil
    /// when there is none.
    func median(at now: MonotonicInstant, window: Duration) -> Double? {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.capacity) { buffer in
            var count = 0
            for sample in samples where Self.isFresh(sample.heard, at: now, window: window) {
                buffer.initializeElement(at: count, to: sample.rssi)
                count += 1
            }
            guard count > 0 else { return nil }
            var fresh = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
            fresh.sort()
            let middle = count / 2
            return count.isMultiple(of: 2) ? Double(fresh[middle - 1] + fresh[middle]) / 2 : Double(fresh[middle])
        }
    }
}
