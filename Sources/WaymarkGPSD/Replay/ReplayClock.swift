import WaymarkCore

/// The simulated clocks of a replay, driven by the capture's own GPS times.
///
/// Monotonic time advances by every forward step of GPS time and stands still when the capture's time
/// goes backwards (receivers do that, and captures are spliced from several sessions); the wall clock is
/// the latest GPS time seen. A Bluetooth capture replayed after a drive goes on on the drive's clock.
public struct ReplayClock: Sendable {
    /// What a replay calls its server in `status` and error events.
    static let server = "replay"

    public private(set) var monotonic = MonotonicInstant.zero
    public private(set) var wallClock: Timestamp
    private var lastTime: Timestamp?

    init(start: Timestamp) { wallClock = start }

    /// A clock that goes on from `monotonic` and `wallClock`, the last time seen.
    public init(continuingAt monotonic: MonotonicInstant, wallClock: Timestamp) {
        self.monotonic = monotonic
        self.wallClock = wallClock
        lastTime = wallClock
    }

    /// The longest step the simulated clock takes at once: a jump of years in a capture (a receiver's week
    /// rollover, spliced sessions) is a discontinuity, not years of waiting for every timeout.
    static let longestStep: Duration = .seconds(3600)

    public mutating func observe(_ time: Timestamp) {
        if let lastTime, time > lastTime {
            monotonic = monotonic + min(time.duration(since: lastTime), Self.longestStep)
        }
        lastTime = time
        if time > wallClock { wallClock = time }
    }

    /// `event` arriving now, or at `instant` when it arrived earlier than the report that moved the clock.
    func update(_ event: SourceEvent, at instant: MonotonicInstant? = nil) -> SourceUpdate {
        SourceUpdate(event, monotonic: instant ?? monotonic, wallClock: wallClock)
    }
}
