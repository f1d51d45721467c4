import GRDB
import GRDBSQLite
import Synchronization
import WaymarkCore

/// The durable spool (DESIGN section 5): every event by `seq`, the sinks' cursors, and the state the agent
/// keeps across restarts, in one SQLite database in WAL mode.
///
/// An event is committed when the transaction of ``commit(_:)`` that holds it commits; `synchronous = FULL`
/// makes that survive a power cut, not only a crash. The spool never keeps more than its `maxBytes` of
/// events: ``commit(_:)`` makes room by the drop policy of ``SpoolCommit/maxBytes``.
public final class Spool: Sendable {
    /// The database's file name in the state directory.
    public static let fileName = "spool.sqlite"

    public let path: String
    let database: DatabaseQueue
    /// What the rows take, counted as ``rowBytes(_:)``: kept here so a commit needs no scan.
    let usedBytes: Mutex<Int64>
    /// Where the drop policy's thinning goes on (``RoomMaking/sweep``).
    let thinningSweep = Mutex<Int64>(0)
    /// Held through each commit.
    let committing = Mutex(())

    /// Opens the spool at `path`, creating it when there is none.
    ///
    /// - Throws: ``SpoolError`` when the file cannot be opened as a spool (not a database, damaged, of a
    ///   newer schema, or unreadable).
    /// - Parameter readOnly: opens an existing spool for reading only (`waymark spool stats` beside a running
    ///   agent); the file must exist.
    public init(path: String, readOnly: Bool = false) throws(SpoolError) {
        self.path = path
        var configuration = GRDB.Configuration()
        configuration.readonly = readOnly
        configuration.label = "waymark.spool"
        // A second process (the command line beside the agent) waits for the other's transaction.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            guard !readOnly else { return }
            // Pages of 1 KB for a new file (an existing one keeps its own): each commit appends the pages it
            // changed to the WAL and syncs it, so at a commit a second, as in a vehicle, small pages write 30 %
            // fewer bytes than SQLite's 4 KB (README, "What it writes to the SD card").
            try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
            // WAL set here rather than by GRDB's `journalMode`, which would then lower `synchronous` to NORMAL:
            // FULL syncs the WAL at every commit, so a commit survives a power cut, not only a crash. A
            // checkpoint comes every 4 MB of WAL, whatever the page size (SQLite's default is 1,000 pages), and
            // cuts the WAL back to 4 MB.
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw SpoolError(.failed, "\(path): WAL mode refused (journal mode \(mode ?? "?"))")
            }
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? Self.pageSize
            try db.execute(
                sql: """
                    PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = \(Self.walBytes / pageSize);
                    PRAGMA journal_size_limit = \(Self.walBytes)
                    """
            )
        }
        do {
            if readOnly && Files.size(path) == nil {
                throw SpoolError(.failed, "\(path): no spool there (the agent creates it when it first runs)")
            }
            database = try DatabaseQueue(path: path, configuration: configuration)
            if readOnly {
                try database.read { db in try Self.checkTables(db) }
            } else {
                try Self.migrate(database)
            }
            let used = try database.read { db in
                try Int64.fetchOne(
                    db,
                    sql: "SELECT COALESCE(SUM(length(line)), 0) + COUNT(*) * ? FROM event",
                    arguments: [Self.rowOverhead]
                ) ?? 0
            }
            usedBytes = Mutex(used)
        } catch let error as SpoolError {
            throw error
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
        {
            throw SpoolError(
                .unusable,
                "\(path) is damaged or no database: \(error.message ?? "\(error)")",
                cause: error
            )
        } catch {
            // Busy, a full disk, no permission: the file may be fine, and is left where it is.
            throw SpoolError(.failed, "\(path) cannot be opened: \(error)", cause: error)
        }
    }

    /// The page size of a new spool's database.
    static let pageSize = 1024

    /// The WAL's size at which SQLite checkpoints it into the database, and to which it is cut back.
    static let walBytes = 4 << 20

    /// The bytes a row is counted for: its line and what SQLite keeps beside it (the key, the kind, the time
    /// and the record and cell headers).
    static let rowOverhead: Int64 = 24

    static func rowBytes(_ lineCount: Int) -> Int64 { Int64(lineCount) + rowOverhead }

    /// The schema's version in `PRAGMA user_version`.
    static let schemaVersion = 1

    private static func migrate(_ database: DatabaseQueue) throws {
        try database.write { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            guard version != schemaVersion else { return try checkTables(db) }
            guard version == 0 else {
                throw SpoolError(.unusable, "the spool's schema version \(version) is not \(schemaVersion)")
            }
            let tables = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
            guard tables == 0 else {
                throw SpoolError(.unusable, "the database is not a spool: it holds tables of another program")
            }
            try db.execute(
                sql: """
                    CREATE TABLE event (seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, time INTEGER NOT NULL,
                                        line BLOB NOT NULL);
                    CREATE TABLE cursor (sink TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE TABLE state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE TABLE inside_region (id TEXT PRIMARY KEY) WITHOUT ROWID;
                    CREATE TABLE open_trip (id INTEGER PRIMARY KEY CHECK (id = 1), start INTEGER NOT NULL,
                                            start_lat REAL NOT NULL, start_lon REAL NOT NULL,
                                            end INTEGER NOT NULL, end_lat REAL NOT NULL, end_lon REAL NOT NULL,
                                            distance REAL NOT NULL, idle INTEGER NOT NULL, stops INTEGER NOT NULL,
                                            max_speed REAL, avg_speed REAL, regions TEXT NOT NULL);
                    PRAGMA user_version = \(schemaVersion);
                    """
            )
        }
    }

    /// A file of ours must have its tables: a database of another program is not a spool.
    private static func checkTables(_ db: Database) throws {
        let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        guard tables.isSuperset(of: ["event", "cursor", "state", "inside_region", "open_trip"]) else {
            throw SpoolError(.unusable, "the database is not a spool: it lacks the spool's tables")
        }
    }

    // MARK: Reading

    /// What the spool knew when it was last committed.
    public func load() throws(SpoolError) -> SpoolState {
        try reading { db in
            var state = SpoolState()
            let maxSeq = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM event") ?? 0
            let values = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM state").map {
                    (row: Row) -> (String, Int64) in (row[0], row[1])
                }
            )
            state.lastSeq = UInt64(max(maxSeq, values[StateKey.seqFloor] ?? 0))
            state.windowStart = (values[StateKey.windowStart]).flatMap { $0 > 0 ? UInt64($0) : nil }
            for (key, value) in values where key.hasPrefix(StateKey.dropPrefix) {
                state.drops[String(key.dropFirst(StateKey.dropPrefix.count))] = Int(value)
            }
            for row in try Row.fetchAll(db, sql: "SELECT sink, seq FROM cursor") {
                state.cursors[row[0]] = UInt64(row[1] as Int64)
            }
            if values[StateKey.insideSaved] != nil {
                state.insideRegions = try String.fetchSet(db, sql: "SELECT id FROM inside_region")
            }
            state.openTrip = try Self.openTrip(db)
            return state
        }
    }

    /// The events after `seq` up to `last`, in `seq` order, at most `limit` of them.
    public func events(after seq: UInt64, through last: UInt64, limit: Int) throws(SpoolError) -> [StoredEvent] {
        guard last > seq else { return [] }
        return try reading { db in
            try Self.fetch(
                db,
                "SELECT seq, kind, time, line FROM event WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
                [Int64(seq), Int64(last), limit]
            )
        }
    }

    /// The `location` and `error` events before `seq` whose time is `since` or later, in `seq` order: a trip's
    /// track, with the losses of fix that split it.
    public func track(before seq: UInt64, since time: Timestamp) throws(SpoolError) -> [StoredEvent] {
        try reading { db in
            try Self.fetch(
                db,
                "SELECT seq, kind, time, line FROM event WHERE seq < ? AND time >= ? AND kind IN (?, ?) ORDER BY seq",
                [Int64(seq), Self.milliseconds(time), StoredEvent.Kind.location.code, StoredEvent.Kind.error.code]
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
            let chunk = try reading { db in
                try Self.fetch(
                    db,
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
        return try reading { db in
            var stats = SpoolStats(path: path)
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), MIN(seq), MAX(seq) FROM event")
            stats.events = row?[0] ?? 0
            stats.firstSeq = (row?[1] as Int64?).map(UInt64.init)
            stats.lastSeq = state.lastSeq
            stats.bytes = usedBytes.withLock { $0 }
            let pageCount = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            stats.fileBytes = pageCount * pageSize
            stats.drops = state.drops
            for sink in Set(sinks).union(state.cursors.keys).sorted() {
                let cursor = state.cursors[sink] ?? 0
                var report = SpoolStats.Sink(name: sink, cursor: cursor)
                report.unsent =
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event WHERE seq > ?", arguments: [Int64(cursor)])
                    ?? 0
                if let oldest = try Row.fetchOne(
                    db,
                    sql: "SELECT seq, time FROM event WHERE seq > ? ORDER BY seq LIMIT 1",
                    arguments: [Int64(cursor)]
                ) {
                    report.oldestUnsentSeq = UInt64(oldest[0] as Int64)
                    report.oldestUnsentTime = Self.timestamp(oldest[1])
                }
                stats.sinks.append(report)
            }
            return stats
        }
    }

    // MARK: Helpers

    enum StateKey {
        static let seqFloor = "seq_floor"
        static let windowStart = "window_start"
        static let insideSaved = "inside_saved"
        static let dropPrefix = "drops."
    }

    func reading<T>(_ body: (Database) throws -> T) throws(SpoolError) -> T {
        do {
            return try database.read(body)
        } catch let error as SpoolError {
            throw SpoolError(error.code, "\(path): \(error.message)", cause: error.cause)
        } catch {
            throw SpoolError(.failed, "\(path): \(error)", cause: error)
        }
    }

    static func fetch(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [StoredEvent] {
        var events: [StoredEvent] = []
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        let raw = statement.sqliteStatement
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw SpoolError(.failed, "reading events: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
            }
            let count = Int(sqlite3_column_bytes(raw, 3))
            let line: [UInt8]
            if count > 0, let blob = sqlite3_column_blob(raw, 3) {
                line = Array(UnsafeRawBufferPointer(start: blob, count: count))
            } else {
                line = []
            }
            events.append(
                StoredEvent(
                    seq: UInt64(sqlite3_column_int64(raw, 0)),
                    kind: StoredEvent.Kind(code: Int(sqlite3_column_int64(raw, 1))),
                    time: timestamp(sqlite3_column_int64(raw, 2)),
                    line: line
                )
            )
        }
        sqlite3_reset(raw)
        return events
    }

    static func milliseconds(_ time: Timestamp) -> Int64 {
        time.seconds &* 1000 &+ Int64(time.nanoseconds / 1_000_000)
    }

    static func timestamp(_ milliseconds: Int64) -> Timestamp {
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0
            ? Timestamp(seconds: seconds - 1, nanoseconds: Int32(remainder + 1000) * 1_000_000)
            : Timestamp(seconds: seconds, nanoseconds: Int32(remainder) * 1_000_000)
    }
}

/// What the spool knew at its last commit: where the agent goes on from after a restart.
public struct SpoolState: Equatable, Sendable {
    /// The last `seq` ever committed (0 for a new spool); the next event is numbered one more.
    public var lastSeq: UInt64 = 0
    /// The first `seq` of the deferral window open at the last commit, nil when none was.
    public var windowStart: UInt64?
    /// The last `seq` each sink confirmed.
    public var cursors: [String: UInt64] = [:]
    /// The events dropped to make room, by `type`, since the spool was created.
    public var drops: [String: Int] = [:]
    /// The regions the vehicle was inside; nil when none were ever saved.
    public var insideRegions: Set<String>?
    /// The trip in progress when it was last saved, ending `interrupted`; nil when none was.
    public var openTrip: TripSummary?

    public init() {}
}
