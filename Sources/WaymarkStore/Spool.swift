import Synchronization
import WaymarkCore
import WaymarkSystem

/// The durable spool (docs/architecture.md, "Durability"): every event by `seq`, the sinks' cursors, and the
/// state the agent keeps across restarts, in one SQLite database in WAL mode.
///
/// An event is committed when the transaction of ``commit(_:)`` that holds it commits; `synchronous = FULL`
/// makes that survive a power cut, not only a crash. The spool never keeps more than its `maxBytes` of
/// events: ``commit(_:)`` makes room by the drop policy of ``SpoolCommit/maxBytes``.
///
/// Safe from any thread: one call at a time uses the connection.
public final class Spool: Sendable {
    /// The database's file name in the state directory.
    public static let fileName = "spool.sqlite"

    public let path: String
    /// The connection. Used only inside `state.withLock`, which makes every use one at a time.
    nonisolated(unsafe) let database: Database
    /// What the commits keep beside the database; its lock is held through every use of the database.
    let state: Mutex<CommitState>
    /// Opened to read only: the close leaves the files to the writer.
    let readOnly: Bool

    struct CommitState {
        /// What the rows take, counted as ``Spool/rowBytes(_:)``: kept here so a commit needs no scan.
        var usedBytes: Int64
        /// The events the spool holds, kept the same way.
        var eventCount: Int
        /// Where the drop policy's thinning goes on (``SpoolEviction/sweep``).
        var thinningSweep: Int64 = 0
    }

    /// Opens the spool at `path`, creating it when there is none.
    ///
    /// - Throws: ``SpoolError`` when the file cannot be opened as a spool (not a database, damaged, of a
    ///   newer schema, or unreadable).
    /// - Parameter readOnly: opens an existing spool for reading only (`waymark spool stats` beside a running
    ///   agent); the file must exist.
    public init(path: String, readOnly: Bool = false) throws(SpoolError) {
        self.path = path
        self.readOnly = readOnly
        do {
            if readOnly && Files.size(path) == nil {
                throw SpoolError(.failed, "\(path): no spool there (the agent creates it when it first runs)")
            }
            // A second process (the command line beside the agent) waits for the other's transaction.
            database = try Database(path: path, readOnly: readOnly, busyTimeout: .seconds(10))
            if readOnly {
                try Self.checkTables(database)
            } else {
                try Self.configure(database)
                try Self.migrate(database)
            }
            var counted = (used: Int64(0), events: 0)
            _ = try database.first("SELECT COALESCE(SUM(length(line)), 0), COUNT(*) FROM event") { row in
                counted = (row.int64(at: 0) + row.int64(at: 1) * Self.rowOverhead, Int(row.int64(at: 1)))
            }
            state = Mutex(CommitState(usedBytes: counted.used, eventCount: counted.events))
        } catch let error as SpoolError {
            throw error
        } catch let error as SQLiteError where error.isDamage {
            throw SpoolError(.unusable, "\(path) is damaged or no database: \(error)", cause: error)
        } catch {
            // Busy, a full disk, no permission: the file may be fine, and is left where it is.
            throw SpoolError(.failed, "\(path) cannot be opened: \(error)", cause: error)
        }
    }

    /// A stop leaves the database whole, and the WAL at its size with a single frame to read back at the next
    /// start, not the whole of it: without a size limit the close keeps the file as it is, the checkpoint copies
    /// every page into the database, and the write after it starts the WAL again at its beginning (one frame,
    /// which the close's own checkpoint copies). The limit goes first, so that the file is kept whatever fails
    /// after it; a checkpoint held off by another process reading only leaves more of the WAL to read back.
    deinit {
        guard !readOnly else { return }
        try? database.execute("PRAGMA journal_size_limit = -1; PRAGMA wal_checkpoint(PASSIVE)")
        // A write that changes nothing: the schema's version, read and written back.
        try? database.writeTransaction {
            let version = try database.integer("PRAGMA user_version") ?? Self.schemaVersion
            try database.execute("PRAGMA user_version = \(version)")
        }
    }

    /// The page size of a new spool's database.
    static let pageSize = 1024

    /// The most SQLite's page cache holds, in KiB (`PRAGMA cache_size` = minus this). SQLite's default is 2,000
    /// KiB, which a drive of a few thousand events fills with pages that are only ever written once and read
    /// once more by the sinks: on the board it was the largest part of the agent's anonymous memory.
    static let cacheKibibytes = 128

    /// The WAL's pages at which SQLite checkpoints it into the database (the file is a little more: each page has
    /// a frame header of 24 bytes).
    static let walBytes = 4 << 20

    /// The bytes a row is counted for: its line and what SQLite keeps beside it (the key, the kind, the time, the
    /// odometer's column (empty but in the last row of a commit) and the record and cell headers): an estimate.
    static let rowOverhead: Int64 = 24

    static func rowBytes(_ lineCount: Int) -> Int64 { Int64(lineCount) + rowOverhead }

    /// The schema's version in `PRAGMA user_version`: 2 added `quarantine`, 3 the odometer in the event rows.
    static let schemaVersion: Int64 = 3

    /// What the rows take now (``rowBytes(_:)`` summed).
    public var usedBytes: Int64 { state.withLock { $0.usedBytes } }

    /// The bytes SQLite's page cache of the spool holds now: at most about ``cacheKibibytes`` KiB.
    public var cacheBytes: Int { state.withLock { _ in database.cacheBytes } }

    /// The events the spool holds, as of its last commit.
    public var eventCount: Int { state.withLock { $0.eventCount } }

    private static func configure(_ database: Database) throws {
        // Pages of 1 KB for a new file (an existing one keeps its own): each commit appends the pages it
        // changed to the WAL and syncs it, so at a commit a second, as in a vehicle, small pages write 30 %
        // fewer bytes than SQLite's 4 KB (docs/spool-and-logs.md, "What it writes to the SD card").
        try database.execute("PRAGMA page_size = \(pageSize)")
        let mode = try database.text("PRAGMA journal_mode = WAL")
        guard mode == "wal" else {
            throw SpoolError(.failed, "\(database.path): WAL mode refused (journal mode \(mode ?? "?"))")
        }
        // FULL syncs the WAL at every commit, so a commit survives a power cut, not only a crash. A checkpoint
        // comes every 4 MB of WAL pages, whatever the page size (SQLite's default is 1,000 pages).
        //
        // The WAL keeps its size, across checkpoints and stops: a commit then overwrites blocks the file has,
        // and its sync writes no metadata. Into a growing file each sync also commits the file system's journal
        // (on ext4 20 KB or so: the inode, the block bitmap, the journal's own blocks), which is more than the
        // commit itself (docs/performance.md, "Flash wear"). Only a WAL grown past twice its size (a reader
        // holding a checkpoint off) is cut back, and the close keeps the file (``deinit``).
        let pageSize = try database.integer("PRAGMA page_size") ?? Int64(Self.pageSize)
        try database.keepWALFile()
        try database.execute(
            """
            PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = \(Int64(walBytes) / pageSize);
            PRAGMA journal_size_limit = \(2 * walBytes); PRAGMA cache_size = -\(cacheKibibytes)
            """
        )
    }

    private static func migrate(_ database: Database) throws {
        try database.writeTransaction {
            let version = try database.integer("PRAGMA user_version") ?? 0
            guard version != schemaVersion else { return try checkTables(database) }
            guard version < schemaVersion else {
                throw SpoolError(.unusable, "the spool's schema version \(version) is newer than \(schemaVersion)")
            }
            if version == 0 {
                guard try database.integer("SELECT COUNT(*) FROM sqlite_master") == 0 else {
                    throw SpoolError(.unusable, "the database is not a spool: it holds tables of another program")
                }
                try database.execute(
                    """
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
                    """
                )
            } else {
                try checkTables(database)
            }
            if version < 2 {
                // The events a server refused, kept with its answer (``Spool/quarantine``).
                try database.execute(
                    """
                    CREATE TABLE quarantine (sink TEXT NOT NULL, seq INTEGER NOT NULL, kind INTEGER NOT NULL,
                                             event_time INTEGER NOT NULL, time INTEGER NOT NULL,
                                             status INTEGER NOT NULL, answer TEXT NOT NULL, line BLOB NOT NULL,
                                             PRIMARY KEY (sink, seq)) WITHOUT ROWID
                    """
                )
            }
            // Version 3: the odometer, millimetres, in the row of a commit's last event (``SpoolCommit/odometer``);
            // the one `state` holds is older than any such row after `odometer_seq`.
            try database.execute(
                """
                ALTER TABLE event ADD COLUMN odometer INTEGER;
                INSERT INTO state (key, value) SELECT '\(StateKey.odometerSeq)', COALESCE(MAX(seq), 0) FROM event;
                PRAGMA user_version = \(schemaVersion);
                """
            )
        }
    }

    /// A file of ours must have its tables: a database of another program is not a spool.
    private static func checkTables(_ database: Database) throws {
        var tables: Set<String> = []
        try database.forEachRow("SELECT name FROM sqlite_master WHERE type = 'table'") { tables.insert($0.text(at: 0)) }
        guard tables.isSuperset(of: ["event", "cursor", "state", "inside_region", "open_trip"]) else {
            throw SpoolError(.unusable, "the database is not a spool: it lacks the spool's tables")
        }
    }

    // MARK: Helpers

    enum StateKey {
        static let seqFloor = "seq_floor"
        static let windowStart = "window_start"
        static let insideSaved = "inside_saved"
        static let odometerMillimetres = "odometer_mm"
        /// The newest `seq` when `odometer_mm` was written: an event row after it that carries an odometer is newer.
        static let odometerSeq = "odometer_seq"
        static let dropPrefix = "drops."
        static let quarantineDroppedPrefix = "quarantine_dropped."
    }

    /// Runs `body` on the connection in one read transaction, its errors said with the spool's path.
    func reading<T: Sendable>(_ body: (Database) throws -> T) throws(SpoolError) -> T {
        do {
            return try state.withLock { _ in try database.readTransaction { try body(database) } }
        } catch let error as SpoolError {
            throw SpoolError(error.code, "\(path): \(error.message)", cause: error.cause)
        } catch {
            throw SpoolError(.failed, "\(path): \(error)", cause: error)
        }
    }

    /// The highest `seq` the event rows hold, 0 when they hold none.
    static func newestSeq(_ database: Database) throws(SQLiteError) -> Int64 {
        try database.integer("SELECT MAX(seq) FROM event") ?? 0
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
    /// The time of the last event the spool holds; nil when it holds none.
    public var lastTime: Timestamp?
    /// The odometer at the last commit that moved it, metres; nil when none was ever saved.
    public var odometer: Double?

    public init() {}
}
