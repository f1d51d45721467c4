import WaymarkCore

/// Where emitted events go as they are emitted: stdout for `--print`. (The spool and its sinks get them
/// through the storage, committed first.)
public protocol EventSink: Sendable {
    /// Takes events that already carry their `seq`.
    func deliver(_ events: [Event])
    /// Makes everything delivered so far visible (written out).
    func flush()
}

/// Discards events: `waymark run` without `--print`, whose events go to the spool only.
public struct DiscardingSink: EventSink {
    public init() {}
    public func deliver(_ events: [Event]) {}
    public func flush() {}
}
