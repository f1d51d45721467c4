import WaymarkCore

/// The simulated clocks of a replay, driven by the capture's own GPS times.
///
/// Monotonic time advances by every forward step of GPS time and stands still when the capture's time
/// goes backwards (receivers do that, and captures are spliced from several sessions); the wall clock is
/// the latest GPS time seen.
struct ReplayClock {
    /// What a replay calls its server in `status` and error events.
    static let server = "replay"

    private(set) var monotonic = MonotonicInstant.zero
    private(set) var wallClock: Timestamp
    private var lastTime: Timestamp?

    init(start: Timestamp) { wallClock = start }

    /// The longest step the simulated clock takes at once: a jump of years in a capture (a receiver's week
    /// rollover, spliced sessions) is a discontinuity, not years of waiting for every timeout.
    static let longestStep: Duration = .seconds(3600)

    mutating func observe(_ time: Timestamp) {
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
