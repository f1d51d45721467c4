import GRDB
import GRDBSQLite
import WaymarkCore

/// What one commit writes, in one transaction.
public struct SpoolCommit: Sendable {
    /// New events, in `seq` order.
    public var events: [StoredEvent] = []
    /// The sinks' cursors that moved since the last commit.
    public var cursors: [String: UInt64] = [:]
    /// Whether ``windowStart`` is written.
    public var writesWindow = false
    /// The first `seq` of the deferral window now open, nil when none is.
    public var windowStart: UInt64?
    /// The regions the vehicle is inside, when that set changed.
    public var insideRegions: [String]?
    /// The trip in progress to save (`save`), or to forget because it ended (`clear`).
    public var openTrip: OpenTripChange?
    /// The number the next event must be above, when it is above every committed one (a fresh spool after a
    /// sink saw higher numbers): `seq` is never reused.
    public var seqFloor: UInt64?
    /// Every sink has delivered the events up to this `seq`: when room is needed they go first, and their
    /// removal is no drop.
    public var delivered: UInt64 = 0
    /// The most the events may take (``Spool/rowBytes(_:)``); past it the commit makes room.
    public var maxBytes: Int64 = .max

    public init() {}

    /// What a commit does with the saved trip in progress.
    public enum OpenTripChange: Sendable, Equatable {
        case save(TripSummary)
        case clear
    }

    /// Whether the commit writes anything.
    public var isEmpty: Bool {
        events.isEmpty && cursors.isEmpty && !writesWindow && insideRegions == nil && seqFloor == nil
            && openTrip == nil
    }
}

extension Spool {
    /// Commits `commit` in one transaction, making room first when the events would take more than
    /// `maxBytes`; returns the undelivered events dropped for room, by kind.
    ///
    /// The drop policy, until the events take at most 90 % of `maxBytes` (so that a full spool does not make
    /// room at every commit): first the delivered events that are not `region`, `pause`, `resume`, `trip`
    /// or `deferred_finished`, oldest first (no drop: every sink has them); then the undelivered routine
    /// events (`location`, `heading`, `status`) are thinned, every other one from the oldest, as often as
    /// needed, so the track keeps its shape; then the undelivered `error` and `region_state` events, oldest
    /// first; then delivered `region`, `pause`, `resume`, `trip` and `deferred_finished` events; and only
    /// then undelivered ones. The newest event is never removed, so the last `seq` is never forgotten.
    @discardableResult
    public func commit(_ commit: SpoolCommit) throws(SpoolError) -> [StoredEvent.Kind: Int] {
        guard !commit.isEmpty else { return [:] }
        // One commit at a time, so that the used bytes and the sweep read before a transaction are the ones
        // its end updates.
        return try committing.withLock { _ throws(SpoolError) in try commitAlone(commit) }
    }

    private func commitAlone(_ commit: SpoolCommit) throws(SpoolError) -> [StoredEvent.Kind: Int] {
        var used = usedBytes.withLock { $0 }
        var sweep = thinningSweep.withLock { $0 }
        var drops: [StoredEvent.Kind: Int] = [:]
        do {
            try database.write { db in
                // In slices of at most a tenth of the cap, making room before each: the file never holds much
                // more than the cap, even when one commit brings more than all of it.
                let slice = max(commit.maxBytes / 10, 1)
                var start = commit.events.startIndex
                while start < commit.events.endIndex {
                    var end = start
                    var bytes: Int64 = 0
                    while end < commit.events.endIndex,
                        end == start || bytes + Self.rowBytes(commit.events[end].line.count) <= slice
                    {
                        bytes += Self.rowBytes(commit.events[end].line.count)
                        end += 1
                    }
                    if used + bytes > commit.maxBytes {
                        var room = RoomMaking(
                            need: used + bytes - (commit.maxBytes - commit.maxBytes / 10),
                            delivered: commit.delivered,
                            sweep: sweep
                        )
                        try room.make(db)
                        sweep = room.sweep
                        used -= room.freed
                        drops.merge(room.drops, uniquingKeysWith: +)
                    }
                    try insert(commit.events[start..<end], db)
                    used += bytes
                    start = end
                }
                for (sink, seq) in commit.cursors {
                    try db.execute(
                        sql:
                            "INSERT INTO cursor (sink, seq) VALUES (?, ?) ON CONFLICT(sink) DO UPDATE SET seq = excluded.seq",
                        arguments: [sink, Int64(seq)]
                    )
                }
                if commit.writesWindow {
                    try setState(StateKey.windowStart, Int64(commit.windowStart ?? 0), db)
                }
                if let floor = commit.seqFloor { try setState(StateKey.seqFloor, Int64(floor), db) }
                if let inside = commit.insideRegions {
                    try db.execute(sql: "DELETE FROM inside_region")
                    for id in Set(inside) {
                        try db.execute(sql: "INSERT INTO inside_region (id) VALUES (?)", arguments: [id])
                    }
                    try setState(StateKey.insideSaved, 1, db)
                }
                switch commit.openTrip {
                case .save(let trip): try Self.save(trip, db)
                case .clear: try db.execute(sql: "DELETE FROM open_trip")
                case nil: break
                }
                for (kind, count) in drops {
                    try db.execute(
                        sql:
                            "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
                        arguments: [StateKey.dropPrefix + kind.description, count]
                    )
                }
            }
        } catch let error as SpoolError {
            throw SpoolError(error.code, "\(path): the commit failed: \(error.message)", cause: error.cause)
        } catch {
            throw SpoolError(.failed, "\(path): the commit failed: \(error)", cause: error)
        }
        usedBytes.withLock { $0 = used }
        thinningSweep.withLock { $0 = sweep }
        return drops
    }

    private func insert(_ events: ArraySlice<StoredEvent>, _ db: Database) throws {
        guard !events.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "INSERT INTO event (seq, kind, time, line) VALUES (?, ?, ?, ?)")
        let raw = statement.sqliteStatement
        for event in events {
            sqlite3_bind_int64(raw, 1, Int64(event.seq))
            sqlite3_bind_int64(raw, 2, Int64(event.kind.code))
            sqlite3_bind_int64(raw, 3, Self.milliseconds(event.time))
            let code = event.line.withUnsafeBytes { bytes in
                // SQLITE_STATIC: the bytes outlive the step below.
                sqlite3_bind_blob(raw, 4, bytes.baseAddress, Int32(bytes.count), nil)
                return sqlite3_step(raw)
            }
            sqlite3_reset(raw)
            guard code == SQLITE_DONE else {
                throw SpoolError(
                    .failed,
                    "event \(event.seq) not written: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))"
                )
            }
        }
    }

    private func setState(_ key: String, _ value: Int64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, value]
        )
    }
}

/// One commit's making of room, in the order of ``Spool/commit(_:)``.
struct RoomMaking {
    var need: Int64
    let delivered: UInt64
    /// Where thinning goes on: the last event it looked at. Thinning sweeps from the oldest event to the
    /// newest and around again, so that every stretch of the drive is thinned alike, not the oldest over
    /// and over.
    var sweep: Int64
    var freed: Int64 = 0
    var drops: [StoredEvent.Kind: Int] = [:]

    mutating func make(_ db: Database) throws {
        let newest = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM event") ?? 0
        let delivered = Int64(clamping: delivered)
        let routine = "kind < \(StoredEvent.Kind.region.code)"
        try removeOldest(db, where: "seq <= \(delivered) AND \(routine) AND seq < \(newest)", drops: false)
        try thin(db, where: "kind <= \(StoredEvent.Kind.status.code) AND seq > \(delivered) AND seq < \(newest)")
        try removeOldest(db, where: "seq > \(delivered) AND \(routine) AND seq < \(newest)", drops: true)
        try removeOldest(db, where: "seq <= \(delivered) AND seq < \(newest)", drops: false)
        try removeOldest(db, where: "seq < \(newest)", drops: true)
    }

    /// Removes the oldest events matching `condition` until enough room is made, a range at a time.
    private mutating func removeOldest(_ db: Database, where condition: String, drops counted: Bool) throws {
        var after: Int64 = 0
        while need > 0 {
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT seq, kind, length(line) FROM event WHERE \(condition) AND seq > ? ORDER BY seq LIMIT 4096",
                arguments: [after]
            )
            guard !rows.isEmpty else { return }
            var last = after
            for row in rows where need > 0 {
                account(kind: StoredEvent.Kind(code: row[1]), length: row[2], counted: counted)
                last = row[0]
            }
            try db.execute(
                sql: "DELETE FROM event WHERE \(condition) AND seq > ? AND seq <= ?",
                arguments: [after, last]
            )
            after = last
        }
    }

    /// Removes every other event matching `condition`, going on from ``sweep`` and around, until enough
    /// room is made or a whole round found nothing to remove: the track keeps its shape at fewer points.
    private mutating func thin(_ db: Database, where condition: String) throws {
        // Every other event of each kind: locations and headings that alternate lose half of each, not all of one.
        var keep: [Int: Bool] = [:]
        // A round that started in the middle goes around to the oldest at least once.
        var emptyRound = sweep == 0
        while need > 0 {
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT seq, kind, length(line) FROM event WHERE \(condition) AND seq > ? ORDER BY seq LIMIT 2048",
                arguments: [sweep]
            )
            guard !rows.isEmpty else {
                // The newest end: around to the oldest, unless the whole round removed nothing.
                if emptyRound { return }
                sweep = 0
                emptyRound = true
                continue
            }
            for row in rows where need > 0 {
                let kind: Int = row[1]
                if keep[kind] == false {
                    try remove(db, seq: row[0], kind: StoredEvent.Kind(code: kind), length: row[2], counted: true)
                    emptyRound = false
                }
                keep[kind] = !(keep[kind] ?? true)
                sweep = row[0]
            }
        }
    }

    private mutating func remove(_ db: Database, seq: Int64, kind: StoredEvent.Kind, length: Int, counted: Bool) throws
    {
        try db.cachedStatement(sql: "DELETE FROM event WHERE seq = ?").execute(arguments: [seq])
        account(kind: kind, length: length, counted: counted)
    }

    private mutating func account(kind: StoredEvent.Kind, length: Int, counted: Bool) {
        let bytes = Spool.rowBytes(length)
        freed += bytes
        need -= bytes
        if counted { drops[kind, default: 0] += 1 }
    }
}
