/// `[spool]`: the durable spool in the state directory (docs/architecture.md, "Durability").
public struct SpoolSettings: Sendable, Equatable {
    /// How often the spool commits what arrived since its last commit; `pause`, `region` and `trip` events
    /// commit at once. Zero commits every event alone (the most durable, and the most wear).
    public var commitInterval: Duration
    /// The most the spool keeps; past it, delivered events go first, then routine locations are thinned.
    public var maxBytes: ByteCount

    public init(commitInterval: Duration = .seconds(1), maxBytes: ByteCount = ByteCount(bytes: 64 << 20)) {
        self.commitInterval = commitInterval
        self.maxBytes = maxBytes
    }
}

/// `[sinks.file]`: the fleet-review logs in the log directory (docs/spool-and-logs.md, "The
/// spool, deferred batches and the fleet-review logs").
public struct FileSinkSettings: Sendable, Equatable {
    public var enabled: Bool
    /// Files older than this many days are removed; 0 keeps them.
    public var maxAgeDays: Int
    /// The most the logs may take together; the oldest files are removed first.
    public var maxTotalBytes: ByteCount

    public init(enabled: Bool = true, maxAgeDays: Int = 90, maxTotalBytes: ByteCount = ByteCount(bytes: 1 << 30)) {
        self.enabled = enabled
        self.maxAgeDays = maxAgeDays
        self.maxTotalBytes = maxTotalBytes
    }
}
