import CSQLite

/// A prepared statement of a ``Database``: bind, step, read the columns of the row stepped to.
///
/// Kept by its database and used again: ``bind(_:)`` starts each use afresh.
public final class Statement {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `arguments` to its parameters 1, 2, …; a parameter given none is NULL.
    @discardableResult
    public func bind(_ arguments: [any StatementArgument]) throws(SQLiteError) -> Statement {
        reset()
        clearBindings()
        for (offset, argument) in arguments.enumerated() {
            try argument.bind(to: self, at: Int32(offset + 1))
        }
        return self
    }

    /// Binds `value` to the parameter at `index` (from 1).
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds `value` to the parameter at `index` (from 1).
    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds `value` as text to the parameter at `index` (from 1); SQLite keeps a copy.
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_text(handle, index, value, -1, waymark_sqlite_transient()))
    }

    /// Binds `bytes` as a blob to the parameter at `index` (from 1) without copying them: they must stay
    /// where they are until the statement is stepped and reset (SQLite's `SQLITE_STATIC`).
    public func bind(unsafeBlob bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), nil))
    }

    /// Binds NULL to the parameter at `index` (from 1).
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Steps to the next row: true when there is one to read; false at the end, where the statement is reset
    /// so it holds no lock.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        // The message first: the reset that releases the statement's locks may replace it.
        let failure = code == SQLITE_DONE ? nil : error(code)
        reset()
        if let failure { throw failure }
        return false
    }

    /// Ends the current use: a statement left in the middle of its rows keeps its read lock until reset.
    public func reset() { sqlite3_reset(handle) }

    /// Sets every parameter to NULL, forgetting the bytes of ``bind(unsafeBlob:at:)``.
    public func clearBindings() { sqlite3_clear_bindings(handle) }

    public func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

    public func text(at column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    public func blob(at column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw error(code) }
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(resultCode: code, message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
    }
}

/// A value a ``Statement`` binds to a parameter.
public protocol StatementArgument {
    func bind(to statement: Statement, at index: Int32) throws(SQLiteError)
}

extension Int64: StatementArgument {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(self, at: index)
    }
}

extension Int: StatementArgument {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(Int64(self), at: index)
    }
}

extension Double: StatementArgument {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(self, at: index)
    }
}

extension String: StatementArgument {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(self, at: index)
    }
}

extension Optional: StatementArgument where Wrapped: StatementArgument {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        switch self {
        case .some(let value): try value.bind(to: statement, at: index)
        case .none: try statement.bindNull(at: index)
        }
    }
}
