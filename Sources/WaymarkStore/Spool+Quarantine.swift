import WaymarkCore

/// An event a sink's server refused (an HTTP 4xx for that event alone): kept in the spool with the server's answer,
/// listed by `waymark spool stats` and exported by `waymark spool export --quarantined`, never sent again by
/// itself. The sink's cursor has moved over it.
public struct QuarantinedEvent: Hashable, Sendable {
    public var sink: String
    public var event: StoredEvent
    /// The server's status and the start of its answer.
    public var status: Int
    public var answer: String
    /// When the server refused it, on the system clock.
    public var refusedAt: Timestamp

    public init(sink: String, event: StoredEvent, status: Int, answer: String, refusedAt: Timestamp) {
        self.sink = sink
        self.event = event
        self.status = status
        self.answer = answer
        self.refusedAt = refusedAt
    }
}

extension Spool {
    /// The most events one sink keeps in quarantine; past it the oldest go, counted (`quarantine_dropped.SINK`
    /// in the spool's state) and said by the caller. A server that refuses everything is taken as misconfigured
    /// long before (``quarantineLimit`` in the delivery rules), so this bounds only a server that refuses one
    /// event in a few, for weeks.
    public static let quarantineCapacity = 10_000

    static func insert(_ quarantined: [QuarantinedEvent], _ database: Database) throws {
        guard !quarantined.isEmpty else { return }
        let statement = try database.statement(
            """
            INSERT INTO quarantine (sink, seq, kind, event_time, time, status, answer, line)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(sink, seq) DO UPDATE SET time = excluded.time, status = excluded.status,
            answer = excluded.answer
            """
        )
        defer { statement.clearBindings() }
        for item in quarantined {
            try statement.bind(item.sink, at: 1)
            try statement.bind(Int64(item.event.seq), at: 2)
            try statement.bind(Int64(item.event.kind.code), at: 3)
            try statement.bind(milliseconds(item.event.time), at: 4)
            try statement.bind(milliseconds(item.refusedAt), at: 5)
            try statement.bind(Int64(item.status), at: 6)
            try statement.bind(item.answer, at: 7)
            try item.event.line.withUnsafeBytes { bytes in
                try statement.bind(unsafeBlob: bytes, at: 8)
                _ = try statement.step()
            }
        }
        for sink in Set(quarantined.map(\.sink)) {
            let count = try database.integer("SELECT COUNT(*) FROM quarantine WHERE sink = ?", sink) ?? 0
            let excess = count - Int64(quarantineCapacity)
            guard excess > 0 else { continue }
            try database.run(
                "DELETE FROM quarantine WHERE sink = ?1 AND seq IN (SELECT seq FROM quarantine WHERE sink = ?1 ORDER BY seq LIMIT ?2)",
                sink,
                excess
            )
            try database.run(
                "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
                StateKey.quarantineDroppedPrefix + sink,
                excess
            )
        }
    }

    /// The events in quarantine, of `sink` or of every sink, in sink and `seq` order.
    public func quarantined(sink: String? = nil) throws(SpoolError) -> [QuarantinedEvent] {
        try reading { database in
            guard try Self.hasQuarantine(database) else { return [] }
            var items: [QuarantinedEvent] = []
            let filter = sink == nil ? "" : " WHERE sink = ?"
            try database.forEachRow(
                """
                SELECT sink, seq, kind, event_time, time, status, answer, line FROM quarantine\(filter)
                ORDER BY sink, seq
                """,
                sink.map { [$0] } ?? []
            ) { row in
                let event = StoredEvent(
                    seq: UInt64(row.int64(at: 1)),
                    kind: StoredEvent.Kind(code: Int(row.int64(at: 2))),
                    time: Self.timestamp(row.int64(at: 3)),
                    line: row.blob(at: 7)
                )
                items.append(
                    QuarantinedEvent(
                        sink: row.text(at: 0),
                        event: event,
                        status: Int(row.int64(at: 5)),
                        answer: row.text(at: 6),
                        refusedAt: Self.timestamp(row.int64(at: 4))
                    )
                )
            }
            return items
        }
    }

    /// How many events each sink has in quarantine.
    func quarantineCounts(_ database: Database) throws -> [String: Int] {
        guard try Self.hasQuarantine(database) else { return [:] }
        var counts: [String: Int] = [:]
        try database.forEachRow("SELECT sink, COUNT(*) FROM quarantine GROUP BY sink") {
            counts[$0.text(at: 0)] = Int($0.int64(at: 1))
        }
        return counts
    }

    /// A spool of schema 1 opened for reading (an older agent runs beside this command) has no quarantine yet.
    private static func hasQuarantine(_ database: Database) throws -> Bool {
        try database.integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'quarantine'") == 1
    }
}
