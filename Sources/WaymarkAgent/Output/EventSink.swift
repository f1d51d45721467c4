import WaymarkCore

/// Where emitted events go as they are emitted: stdout for `--print`. (The spool and its sinks get them
/// through the storage, committed first.)
public protocol EventSink: Sendable {
    /// Whether ``deliver(_:lines:)`` wants each event's JSON line; false spares encoding them.
    var wantsLines: Bool { get }
    /// Takes events that already carry their `seq`, with their JSON lines (without a line break; none when
    /// ``wantsLines`` is false): the very bytes the spool keeps, encoded once.
    func deliver(_ events: [Event], lines: [[UInt8]])
    /// Makes everything delivered so far visible (written out).
    func flush()
}

/// Discards events: `waymark run` without `--print`, whose events go to the spool only.
public struct DiscardingSink: EventSink {
    public init() {}
    public var wantsLines: Bool { false }
    public func deliver(_ events: [Event], lines: [[UInt8]]) {}
    public func flush() {}
}
