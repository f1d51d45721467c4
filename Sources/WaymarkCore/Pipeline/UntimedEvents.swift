/// What dates the events not derived from a fix, as far as the agent knows now.
public enum EventClock: Equatable, Sendable {
    /// GPS time is known: it is the monotonic clock minus `delay` (``EventPipeline/gpsClockDelay``).
    case gps(delay: Duration)
    /// No fix yet: the system clock may be years off (a board without a real-time clock), or disagree
    /// with a receiver's GPS time, which dates every fix.
    case unknown

    /// GPS time at `instant` on the monotonic clock; nil unless GPS time is known.
    public func time(at instant: MonotonicInstant) -> Timestamp? {
        guard case .gps(let delay) = self else { return nil }
        return Self.gpsTime(at: instant, delay: delay)
    }

    /// GPS time at `instant`, when the monotonic clock runs `delay` ahead of it.
    public static func gpsTime(at instant: MonotonicInstant, delay: Duration) -> Timestamp {
        let (nanoseconds, overflow) = instant.nanoseconds.subtractingReportingOverflow(delay.nanoseconds)
        return Timestamp(nanosecondsSince1970: overflow ? (delay.nanoseconds > 0 ? .min : .max) : nanoseconds)
    }
}

/// The events made before the agent can date them (docs/architecture.md, "Clocks"), so that one drive
/// lands in one day's log whatever the system clock said at boot.
///
/// Until the first fix, events wait, in order, at most ``longestWait``: the fix's GPS time then dates each
/// of them back along the monotonic clock, to when it was made. Even a synchronized system clock does not
/// release them: fixes carry GPS time, and where the two disagree (a receiver's week-number rollover) the
/// events must still sort with the fixes. A wait that ends without a fix releases them as they are, but
/// never before ``floor`` (live: the last time the spool recorded, or this release's date; not 1970). The
/// wait happens once, at start; later events are never held.
///
/// Waiting events are not yet numbered or committed: a power cut during the wait loses them (a `status`,
/// the errors of a start without gpsd), never a fix.
public struct UntimedEvents: Sendable {
    /// The longest the first events wait for a fix: a cold start of a receiver takes about 30 s, one
    /// without almanac a few minutes.
    public static let longestWait = Duration.seconds(120)

    /// The earliest time an event may carry while the clock is unknown; nil sets none (a replay, whose
    /// system clock is the recording's).
    public let floor: Timestamp?
    /// Whether events still wait; false once they were released.
    public private(set) var isWaiting = true
    private var waiting: [(event: Event, madeAt: MonotonicInstant)] = []

    public init(floor: Timestamp?) { self.floor = floor }

    /// When the wait ends without a fix; nil when nothing waits.
    public var deadline: MonotonicInstant? { waiting.first.map { $0.madeAt + Self.longestWait } }

    /// Takes `events`, made at `now` and dated by `clock`, and returns those that may go on, in order: the
    /// ones that waited first.
    public mutating func admit(_ events: [Event], at now: MonotonicInstant, clock: EventClock) -> [Event] {
        guard isWaiting else { return clock == .unknown ? events.map(floored) : events }
        switch clock {
        case .gps:
            var released = waiting.map { event, madeAt in
                var event = event
                if let time = clock.time(at: madeAt) { event.time = time }
                return event
            }
            released += events
            return finish(released)
        case .unknown:
            waiting += events.map { ($0, now) }
            guard let deadline, now >= deadline else { return [] }
            return finish(waiting.map { floored($0.event) })
        }
    }

    /// The agent stops: what waits goes on as it is, never before ``floor``.
    public mutating func release() -> [Event] {
        guard isWaiting else { return [] }
        return finish(waiting.map { floored($0.event) })
    }

    private mutating func finish(_ events: [Event]) -> [Event] {
        isWaiting = false
        waiting = []
        return events
    }

    /// `time`, raised to ``floor`` while the clock is unknown: the one rule for events made without a fix.
    public func dated(_ time: Timestamp, clock: EventClock) -> Timestamp {
        guard clock == .unknown, let floor, time < floor else { return time }
        return floor
    }

    private func floored(_ event: Event) -> Event {
        var event = event
        event.time = dated(event.time, clock: .unknown)
        return event
    }
}
