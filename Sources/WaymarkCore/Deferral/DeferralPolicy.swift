/// Core Location's `allowDeferredLocationUpdates(untilTraveled:timeout:)` for a vehicle: decides when a window
/// of deferred events ends, so that its batch goes to the sinks (``DeferralSettings``).
///
/// A window opens at the first event observed while deferral is enabled and none is open, and ends in exactly
/// one ``DeferralReport``: when the event that ``observe(_:bytes:now:)`` counts meets a threshold, when
/// ``advance(to:)`` finds its timeout passed, at ``finish(now:)``, or when ``apply(_:now:)`` turns deferral
/// off. No report is ever given without a window open, and none while deferral is off.
///
/// Pure: the caller passes the monotonic clock's `now`, and calls ``advance(to:)`` at ``nextDeadline`` and
/// before each ``observe(_:bytes:now:)``, so that a window whose timeout passed ends before the next event
/// rather than with it.
public struct DeferralPolicy: Sendable {
    public private(set) var settings: DeferralSettings

    private var window: Window?
    /// The last location observed, in a window or not: the next window measures its distance from there, as
    /// Core Location measures from where deferral began.
    private var lastLocation: Coordinate?

    private struct Window: Sendable {
        let opened: MonotonicInstant
        var events = 0
        var bytes = 0
        /// Metres along the locations since the window opened; nil while no location is known.
        var distance: Double?

        init(opened: MonotonicInstant, from start: Coordinate?) {
            self.opened = opened
            distance = start == nil ? nil : 0
        }
    }

    public init(settings: DeferralSettings) { self.settings = settings }

    /// Whether a window is open.
    public var isDeferring: Bool { window != nil }

    /// The open window: when it opened, the events and bytes it holds, the metres it covered; nil when none is.
    public var openWindow: (opened: MonotonicInstant, events: Int, bytes: Int, distance: Double?)? {
        window.map { ($0.opened, $0.events, $0.bytes, $0.distance) }
    }

    /// When ``advance(to:)`` next has something to do: the open window's timeout; nil when no window is open
    /// or it has no timeout. After a reload that shortened the timeout it may already have passed.
    public var nextDeadline: MonotonicInstant? {
        guard let window, let timeout = settings.timeout else { return nil }
        return window.opened + timeout
    }

    /// Observes one emitted event (already numbered), `bytes` its encoded size, at `now`.
    ///
    /// The event belongs to the window, which it opens if none is open. It is counted, then the window is
    /// judged; when several reasons to end it hold at once, the report gives the first in the order of
    /// ``DeferralReport/Reason``'s cases: `traveled`, `timeout`, `max_events`, `max_bytes`, `pause`,
    /// `region`. `timeout` holds here only for a caller that did not call ``advance(to:)`` first; the event
    /// then ends the window with it.
    ///
    /// - Returns: The report when this event ends the window (no window is open afterwards); nil otherwise,
    ///   always nil while deferral is disabled. A `deferred_finished` event is ignored: nil, not counted.
    public mutating func observe(_ event: Event, bytes: Int, now: MonotonicInstant) -> DeferralReport? {
        precondition(bytes >= 0, "an event's encoded size cannot be negative")
        if case .deferredFinished = event.kind { return nil }
        let previousLocation = lastLocation
        if case .location(let location) = event.kind { lastLocation = location.coordinate }
        guard settings.enabled else { return nil }
        var current = window ?? Window(opened: now, from: previousLocation)
        current.events += 1
        current.bytes += bytes
        if case .location(let location) = event.kind {
            let step = previousLocation.map { Geodesic.distance(from: $0, to: location.coordinate) } ?? 0
            current.distance = (current.distance ?? 0) + step
        }
        window = current
        guard let reason = reasonToEnd(current, after: event, now: now) else { return nil }
        return end(reason, now: now)
    }

    /// Time passes without an event: ends the open window with `timeout` when its timeout has passed.
    public mutating func advance(to now: MonotonicInstant) -> DeferralReport? {
        guard let deadline = nextDeadline, now >= deadline else { return nil }
        return end(.timeout, now: now)
    }

    /// Graceful shutdown (or the end of a replay): ends the open window with `shutdown`.
    public mutating func finish(now: MonotonicInstant) -> DeferralReport? {
        guard window != nil else { return nil }
        return end(.shutdown, now: now)
    }

    /// New settings: a reload, or `waymark defer off` / `waymark defer on`.
    ///
    /// Turning deferral off ends the open window with `disabled`. Any other change keeps the open window and
    /// judges it by the new thresholds from the next ``observe(_:bytes:now:)`` or ``advance(to:)`` on, so a
    /// threshold lowered below what the window already holds ends it at its next event.
    public mutating func apply(_ settings: DeferralSettings, now: MonotonicInstant) -> DeferralReport? {
        self.settings = settings
        guard !settings.enabled, window != nil else { return nil }
        return end(.disabled, now: now)
    }

    /// The first reason, in the order of ``DeferralReport/Reason``'s cases, to end `window` after `event`.
    private func reasonToEnd(_ window: Window, after event: Event, now: MonotonicInstant) -> DeferralReport.Reason? {
        if let limit = settings.untilTraveled, let distance = window.distance, distance >= limit { return .traveled }
        if let timeout = settings.timeout, now >= window.opened + timeout { return .timeout }
        if let limit = settings.maxEvents, window.events >= limit { return .maxEvents }
        if let limit = settings.maxBytes, window.bytes >= limit { return .maxBytes }
        switch event.kind {
        case .pause: return .pause
        case .region where settings.endsOnRegion: return .region
        default: return nil
        }
    }

    private mutating func end(_ reason: DeferralReport.Reason, now: MonotonicInstant) -> DeferralReport {
        guard let window else { preconditionFailure("a deferral window ends only while one is open") }
        self.window = nil
        return DeferralReport(
            reason: reason,
            events: window.events,
            distance: window.distance,
            duration: now - window.opened
        )
    }
}
