import WaymarkCore

/// The spool's eviction: one commit's making of room when the spool is full, by its drop policy, in the order of
/// ``Spool/commit(_:)``.
struct SpoolEviction {
    var need: Int64
    let delivered: UInt64
    /// Where thinning goes on: the last event it looked at. Thinning sweeps from the oldest event to the
    /// newest and around again, so that every stretch of the drive is thinned alike, not the oldest over
    /// and over.
    var sweep: Int64
    var freed: Int64 = 0
    /// Events removed, delivered ones included.
    var removed = 0
    var drops: [StoredEvent.Kind: Int] = [:]

    /// The conditions of each step, over the parameters `?1` (the last delivered `seq`) and `?2` (the newest
    /// `seq`, never removed): fixed texts, so each is prepared once.
    private enum Condition {
        static let routine = "kind < \(StoredEvent.Kind.region.code)"
        static let deliveredRoutine = "seq <= ?1 AND \(routine) AND seq < ?2"
        static let undeliveredThinnable = "kind <= \(StoredEvent.Kind.status.code) AND seq > ?1 AND seq < ?2"
        static let undeliveredRoutine = "seq > ?1 AND \(routine) AND seq < ?2"
        static let delivered = "seq <= ?1 AND seq < ?2"
        static let any = "seq < ?2"
    }

    mutating func make(_ database: Database) throws {
        let newest = try Spool.newestSeq(database)
        let bounds = (delivered: Int64(clamping: delivered), newest: newest)
        try removeOldest(database, where: Condition.deliveredRoutine, bounds, drops: false)
        try thin(database, where: Condition.undeliveredThinnable, bounds)
        try removeOldest(database, where: Condition.undeliveredRoutine, bounds, drops: true)
        try removeOldest(database, where: Condition.delivered, bounds, drops: false)
        try removeOldest(database, where: Condition.any, bounds, drops: true)
    }

    private typealias Bounds = (delivered: Int64, newest: Int64)

    /// An event as room making looks at it.
    private struct Candidate {
        var seq: Int64
        var kind: StoredEvent.Kind
        var length: Int
    }

    /// The events matching `condition` after `after`, in `seq` order, at most `limit`.
    private func candidates(
        _ database: Database,
        _ condition: String,
        _ bounds: Bounds,
        after: Int64,
        limit: Int
    ) throws -> [Candidate] {
        var rows: [Candidate] = []
        try database.forEachRow(
            "SELECT seq, kind, length(line) FROM event WHERE \(condition) AND seq > ?3 ORDER BY seq LIMIT \(limit)",
            [bounds.delivered, bounds.newest, after]
        ) {
            rows.append(
                Candidate(
                    seq: $0.int64(at: 0),
                    kind: StoredEvent.Kind(code: Int($0.int64(at: 1))),
                    length: Int($0.int64(at: 2))
                )
            )
        }
        return rows
    }

    /// Removes the oldest events matching `condition` until enough room is made, a range at a time.
    private mutating func removeOldest(
        _ database: Database,
        where condition: String,
        _ bounds: Bounds,
        drops counted: Bool
    ) throws {
        var after: Int64 = 0
        while need > 0 {
            let rows = try candidates(database, condition, bounds, after: after, limit: 4096)
            guard !rows.isEmpty else { return }
            var last = after
            for row in rows where need > 0 {
                account(row, counted: counted)
                last = row.seq
            }
            try database.run(
                "DELETE FROM event WHERE \(condition) AND seq > ?3 AND seq <= ?4",
                bounds.delivered,
                bounds.newest,
                after,
                last
            )
            after = last
        }
    }

    /// Removes every other event matching `condition`, going on from ``sweep`` and around, until enough
    /// room is made or a whole round found nothing to remove: the track keeps its shape at fewer points.
    private mutating func thin(_ database: Database, where condition: String, _ bounds: Bounds) throws {
        // Every other event of each kind: locations and headings that alternate lose half of each, not all of one.
        var keep: [Int: Bool] = [:]
        // A round that started in the middle goes around to the oldest at least once.
        var emptyRound = sweep == 0
        while need > 0 {
            let rows = try candidates(database, condition, bounds, after: sweep, limit: 2048)
            guard !rows.isEmpty else {
                // The newest end: around to the oldest, unless the whole round removed nothing.
                if emptyRound { return }
                sweep = 0
                emptyRound = true
                continue
            }
            for row in rows where need > 0 {
                if keep[row.kind.code] == false {
                    try database.run("DELETE FROM event WHERE seq = ?", row.seq)
                    account(row, counted: true)
                    emptyRound = false
                }
                keep[row.kind.code] = !(keep[row.kind.code] ?? true)
                sweep = row.seq
            }
        }
    }

    private mutating func account(_ event: Candidate, counted: Bool) {
        let bytes = Spool.rowBytes(event.length)
        freed += bytes
        removed += 1
        need -= bytes
        if counted { drops[event.kind, default: 0] += 1 }
    }
}
