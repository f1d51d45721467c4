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

    mutating func observe(_ time: Timestamp) {
        if let lastTime, time > lastTime { monotonic = monotonic + time.duration(since: lastTime) }
        lastTime = time
        if time > wallClock { wallClock = time }
    }

    func update(_ event: SourceEvent) -> SourceUpdate {
        SourceUpdate(event, monotonic: monotonic, wallClock: wallClock)
    }
}
