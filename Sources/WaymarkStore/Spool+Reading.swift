import WaymarkCore
import WaymarkSystem

extension Spool {
    /// What the spool knew when it was last committed.
    public func load() throws(SpoolError) -> SpoolState {
        try reading { database in
            var state = SpoolState()
            var values: [String: Int64] = [:]
            try database.forEachRow("SELECT key, value FROM state") { values[$0.text(at: 0)] = $0.int64(at: 1) }
            let maxSeq = try Self.newestSeq(database)
            state.lastSeq = UInt64(max(maxSeq, values[StateKey.seqFloor] ?? 0))
            state.windowStart = (values[StateKey.windowStart]).flatMap { $0 > 0 ? UInt64($0) : nil }
            for (key, value) in values where key.hasPrefix(StateKey.dropPrefix) {
                state.drops[String(key.dropFirst(StateKey.dropPrefix.count))] = Int(value)
            }
            try database.forEachRow("SELECT sink, seq FROM cursor") {
                state.cursors[$0.text(at: 0)] = UInt64($0.int64(at: 1))
            }
            if values[StateKey.insideSaved] != nil {
                var inside: Set<String> = []
                try database.forEachRow("SELECT id FROM inside_region") { inside.insert($0.text(at: 0)) }
                state.insideRegions = inside
            }
            state.openTrip = try Self.openTrip(database)
            // A spool of schema 2, read before an agent migrated it, has no odometer in its rows (nor `odometer_seq`).
            let carried = try values[StateKey.odometerSeq].flatMap { try Self.carriedOdometer(after: $0, database) }
            state.odometer = (carried?.millimetres ?? values[StateKey.odometerMillimetres]).map { Double($0) / 1000 }
            state.lastTime = try database.integer("SELECT time FROM event ORDER BY seq DESC LIMIT 1").map(
                Self.timestamp
            )
            return state
        }
    }

    /// The time of the first event after `seq`, or nil when there is none.
    public func firstTime(after seq: UInt64) throws(SpoolError) -> Timestamp? {
        try reading { database in
            try database.integer("SELECT time FROM event WHERE seq > ? ORDER BY seq LIMIT 1", Int64(seq)).map(
                Self.timestamp
            )
        }
    }

    /// The events after `seq` up to `last`, in `seq` order, at most `limit` of them.
    public func events(after seq: UInt64, through last: UInt64, limit: Int) throws(SpoolError) -> [StoredEvent] {
        guard last > seq else { return [] }
        return try reading { database in
            try Self.events(
                database,
                "SELECT seq, kind, time, line FROM event WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
                [Int64(seq), Int64(last), limit]
            )
        }
    }

    /// The `location`, `error` and `driving` events before `seq` whose time is `since` or later, in `seq` order: a
    /// trip's track, with the losses of fix that split it and its driving events' waypoints.
    public func track(before seq: UInt64, since time: Timestamp) throws(SpoolError) -> [StoredEvent] {
        try reading { database in
            try Self.events(
                database,
                "SELECT seq, kind, time, line FROM event WHERE seq < ? AND time >= ? AND kind IN (?, ?, ?) ORDER BY seq",
                [
                    Int64(seq), Self.milliseconds(time), StoredEvent.Kind.location.code, StoredEvent.Kind.error.code,
                    StoredEvent.Kind.driving.code,
                ]
            )
        }
    }

    /// Calls `body` for each event from `first` to `last` (both included) whose time is `since` or later, of
    /// `kinds` (every kind when nil), in `seq` order; reads in chunks, so any number of events can be
    /// exported.
    public func forEach(
        from first: UInt64 = 0,
        through last: UInt64 = UInt64(Int64.max),
        since: Timestamp? = nil,
        kinds: [StoredEvent.Kind]? = nil,
        _ body: (StoredEvent) throws -> Void
    ) throws {
        var after = first > 0 ? first - 1 : 0
        let since = since.map(Self.milliseconds) ?? Int64.min
        let kindFilter = kinds.map { " AND kind IN (\($0.map { String($0.code) }.joined(separator: ",")))" } ?? ""
        while true {
            let chunk = try reading { database in
                try Self.events(
                    database,
                    "SELECT seq, kind, time, line FROM event WHERE seq > ? AND seq <= ? AND time >= ?\(kindFilter) ORDER BY seq LIMIT 4096",
                    [Int64(after), Int64(clamping: last), since]
                )
            }
            guard let final = chunk.last else { return }
            for event in chunk { try body(event) }
            after = final.seq
        }
    }

    /// What `waymark spool stats` prints.
    public func stats(sinks: [String]) throws(SpoolError) -> SpoolStats {
        let state = try load()
        let usedBytes = usedBytes
        return try reading { database in
            var stats = SpoolStats(path: path)
            _ = try database.first("SELECT COUNT(*), MIN(seq) FROM event") { row in
                stats.events = Int(row.int64(at: 0))
                stats.firstSeq = row.isNull(at: 1) ? nil : UInt64(row.int64(at: 1))
            }
            stats.lastSeq = state.lastSeq
            stats.bytes = usedBytes
            let pageCount = try database.integer("PRAGMA page_count") ?? 0
            let pageSize = try database.integer("PRAGMA page_size") ?? 0
            stats.fileBytes = pageCount * pageSize
            stats.walBytes = Files.size(path + "-wal") ?? 0
            stats.drops = state.drops
            let quarantined = try quarantineCounts(database)
            for sink in Set(sinks).union(state.cursors.keys).union(quarantined.keys).sorted() {
                let cursor = Int64(state.cursors[sink] ?? 0)
                var report = SpoolStats.Sink(name: sink, cursor: UInt64(cursor))
                report.quarantined = quarantined[sink] ?? 0
                report.unsent = Int(try database.integer("SELECT COUNT(*) FROM event WHERE seq > ?", cursor) ?? 0)
                _ = try database.first("SELECT seq, time FROM event WHERE seq > ? ORDER BY seq LIMIT 1", [cursor]) {
                    report.oldestUnsentSeq = UInt64($0.int64(at: 0))
                    report.oldestUnsentTime = Self.timestamp($0.int64(at: 1))
                }
                stats.sinks.append(report)
            }
            return stats
        }
    }

    /// The events of `sql`, whose columns are `seq, kind, time, line`.
    static func events(
        _ database: Database,
        _ sql: String,
        _ arguments: [any StatementArgument]
    ) throws(SQLiteError) -> [StoredEvent] {
        var events: [StoredEvent] = []
        try database.forEachRow(sql, arguments) { row in
            events.append(
                StoredEvent(
                    seq: UInt64(row.int64(at: 0)),
                    kind: StoredEvent.Kind(code: Int(row.int64(at: 1))),
                    time: timestamp(row.int64(at: 2)),
                    line: row.blob(at: 3)
                )
            )
        }
        return events
    }
}

extension Spool {
    /// The newest event of `kind`, or nil when the spool holds none.
    public func lastEvent(of kind: StoredEvent.Kind) throws(SpoolError) -> StoredEvent? {
        try reading { database in
            try Self.events(
                database,
                "SELECT seq, kind, time, line FROM event WHERE kind = ? ORDER BY seq DESC LIMIT 1",
                [kind.code]
            ).first
        }
    }
}
