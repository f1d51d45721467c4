import CSQLite

/// One connection to an SQLite database file (SQLite's C API), with its prepared statements kept for reuse.
///
/// One thread at a time: it is opened with `SQLITE_OPEN_NOMUTEX`, so SQLite takes no lock of its own, and
/// its owner serializes the calls (``Spool`` uses it only while holding its `Mutex`). Every failure is a ``SQLiteError``
/// with SQLite's extended result code and message.
public final class Database {
    public let path: String
    let handle: OpaquePointer
    /// The statements of ``statement(_:)``, by their text.
    private var cache: [String: Statement] = [:]

    /// Opens the database at `path`, creating it unless `readOnly`.
    ///
    /// - Parameter busyTimeout: how long a statement waits for another connection's lock (another process's
    ///   transaction) before it fails with `SQLITE_BUSY`.
    public init(path: String, readOnly: Bool = false, busyTimeout: Duration = .seconds(10)) throws(SQLiteError) {
        self.path = path
        var opened: OpaquePointer?
        let mode = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let code = sqlite3_open_v2(path, &opened, mode | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw SQLiteError(resultCode: code, message: message)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        let (seconds, attoseconds) = busyTimeout.components
        sqlite3_busy_timeout(handle, Int32(clamping: seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000))
    }

    deinit {
        // Statements are finalized first; `close_v2` would otherwise wait for them.
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Keeps the WAL file when the last connection closes (SQLite's `SQLITE_FCNTL_PERSIST_WAL`), where SQLite
    /// would delete it; at its size unless `PRAGMA journal_size_limit` is set then.
    public func keepWALFile() throws(SQLiteError) {
        var keep: Int32 = 1
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs `sql`: one or more statements without parameters (pragmas, the schema).
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(resultCode: code, message: message.map { String(cString: $0) } ?? lastMessage)
        }
    }

    /// The prepared statement for `sql`, prepared at its first use and kept. `sql` must be one of a fixed set
    /// of texts, with values bound to its parameters: every new text is another statement kept.
    public func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = cache[sql] { return statement }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw error(code) }
        let statement = Statement(prepared)
        cache[sql] = statement
        return statement
    }

    /// Runs the statement `sql` with `arguments` bound to its parameters 1, 2, …, to its end.
    public func run(_ sql: String, _ arguments: any StatementArgument...) throws(SQLiteError) {
        let statement = try statement(sql).bind(arguments)
        while try statement.step() {}
    }

    /// The first column of the first row of `sql` as an integer; nil when there is no row or it is NULL.
    public func integer(_ sql: String, _ arguments: any StatementArgument...) throws(SQLiteError) -> Int64? {
        try first(sql, arguments) { $0.isNull(at: 0) ? nil : $0.int64(at: 0) }
    }

    /// The first column of the first row of `sql` as text; nil when there is no row or it is NULL.
    public func text(_ sql: String, _ arguments: any StatementArgument...) throws(SQLiteError) -> String? {
        try first(sql, arguments) { $0.isNull(at: 0) ? nil : $0.text(at: 0) }
    }

    /// `read` of the first row of `sql`; nil when there is none.
    public func first<T>(
        _ sql: String,
        _ arguments: [any StatementArgument] = [],
        _ read: (Statement) -> T?
    ) throws(SQLiteError) -> T? {
        let statement = try statement(sql).bind(arguments)
        guard try statement.step() else { return nil }
        defer { statement.reset() }
        return read(statement)
    }

    /// Calls `body` with each row of `sql`, in order.
    public func forEachRow(
        _ sql: String,
        _ arguments: [any StatementArgument] = [],
        _ body: (Statement) -> Void
    ) throws(SQLiteError) {
        let statement = try statement(sql).bind(arguments)
        while try statement.step() { body(statement) }
    }

    /// Runs `body` in one transaction that takes the write lock at once (`BEGIN IMMEDIATE`, waiting up to the
    /// busy timeout for another writer): committed when `body` returns, rolled back when it throws.
    ///
    /// - Throws: what `body` threw, or the ``SQLiteError`` of the begin or the commit.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in one read transaction (`BEGIN DEFERRED`): its reads see one state of the file.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    private func transaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try run(begin)
        let result: T
        do {
            result = try body()
            try run("COMMIT")
        } catch {
            // A failed commit leaves the transaction open; a rollback that fails has nothing left to undo.
            try? run("ROLLBACK")
            throw error
        }
        return result
    }

    /// The bytes SQLite's page cache of this connection holds now (`SQLITE_DBSTATUS_CACHE_USED`).
    public var cacheBytes: Int {
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// The error of a call that returned `code`, with the connection's message.
    func error(_ code: Int32) -> SQLiteError { SQLiteError(resultCode: code, message: lastMessage) }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}
