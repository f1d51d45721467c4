import WaymarkCore

/// Where emitted events go: stdout for `--print`, and in later issues the spool.
public protocol EventSink: Sendable {
    /// Takes events that already carry their `seq`.
    func deliver(_ events: [Event])
    /// Makes everything delivered so far visible (written out).
    func flush()
}

/// Discards events: `waymark run` without `--print`, until the spool exists.
public struct DiscardingSink: EventSink {
    public init() {}
    public func deliver(_ events: [Event]) {}
    public func flush() {}
}
