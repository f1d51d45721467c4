import WaymarkCore

/// What `waymark spool stats` reports.
public struct SpoolStats: Equatable, Sendable {
    public struct Sink: Equatable, Sendable {
        public var name: String
        /// The last `seq` the sink confirmed.
        public var cursor: UInt64
        /// Events in the spool after the cursor.
        public var unsent = 0
        public var oldestUnsentSeq: UInt64?
        public var oldestUnsentTime: Timestamp?
        /// Events its server refused, kept in quarantine.
        public var quarantined = 0

        public init(name: String, cursor: UInt64) {
            self.name = name
            self.cursor = cursor
        }
    }

    public var path: String
    public var events = 0
    public var firstSeq: UInt64?
    public var lastSeq: UInt64 = 0
    /// What the events are counted for against `[spool] max_bytes`.
    public var bytes: Int64 = 0
    /// The database file's size (pages in use and free), without its WAL.
    public var fileBytes: Int64 = 0
    /// The WAL's size on disk: 4 to 5 MB once the spool has committed that much, kept at its size through stops.
    public var walBytes: Int64 = 0
    public var drops: [String: Int] = [:]
    public var sinks: [Sink] = []

    public init(path: String) { self.path = path }
}
