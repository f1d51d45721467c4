/// Scanning time: a monotonic clock that stands still while the agent does not scan, so that the time between the
/// scan windows of a duty cycle does not count toward an exit or a loss.
///
/// Its instants (``scanTime(at:)``) are only compared with each other; ``deadline(at:)`` turns one back into an
/// instant of the monotonic clock.
struct ScanClock: Hashable, Sendable {
    private(set) var isScanning: Bool
    /// The monotonic instant of the last change of ``isScanning``.
    private var mark: MonotonicInstant
    /// The scanning time at `mark`.
    private var scanTimeAtMark = MonotonicInstant.zero

    init(scanning: Bool, now: MonotonicInstant) {
        isScanning = scanning
        mark = now
    }

    /// The scanning time at `now`; an instant before the last change counts as that change.
    func scanTime(at now: MonotonicInstant) -> MonotonicInstant {
        guard isScanning, now > mark else { return scanTimeAtMark }
        return scanTimeAtMark + (now - mark)
    }

    mutating func setScanning(_ scanning: Bool, now: MonotonicInstant) {
        scanTimeAtMark = scanTime(at: now)
        mark = max(mark, now)
        isScanning = scanning
    }

    /// The monotonic instant at which the scanning time reaches `scanTime` if scanning goes on; nil while not
    /// scanning.
    func deadline(at scanTime: MonotonicInstant) -> MonotonicInstant? {
        guard isScanning else { return nil }
        return mark + max(.zero, scanTime - scanTimeAtMark)
    }
}
