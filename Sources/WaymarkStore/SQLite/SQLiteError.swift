import CSQLite

/// What SQLite answered when a call failed: its extended result code and its message (`sqlite3_errmsg`).
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code, e.g. 266 (`SQLITE_IOERR_READ`); its low byte is the primary code.
    public var resultCode: Int32
    /// SQLite's own sentence, e.g. "database is locked".
    public var message: String

    public init(resultCode: Int32, message: String) {
        self.resultCode = resultCode
        self.message = message
    }

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …) of ``resultCode``.
    public var primaryCode: Int32 { resultCode & 0xFF }

    /// Whether the file is not a database or is damaged: no retry will read it.
    public var isDamage: Bool { primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_CORRUPT }

    /// `database is locked (SQLITE_BUSY, code 5)`: SQLite's message, the primary code's name and the
    /// extended code, so an operator can look the case up.
    public var description: String {
        let name = Self.primaryNames[primaryCode].map { "SQLITE_\($0)" } ?? "SQLite result"
        return "\(message) (\(name), code \(resultCode))"
    }

    /// The names of SQLite's primary result codes (sqlite3.h).
    private static let primaryNames: [Int32: String] = [
        1: "ERROR", 2: "INTERNAL", 3: "PERM", 4: "ABORT", 5: "BUSY", 6: "LOCKED", 7: "NOMEM", 8: "READONLY",
        9: "INTERRUPT", 10: "IOERR", 11: "CORRUPT", 12: "NOTFOUND", 13: "FULL", 14: "CANTOPEN", 15: "PROTOCOL",
        16: "EMPTY", 17: "SCHEMA", 18: "TOOBIG", 19: "CONSTRAINT", 20: "MISMATCH", 21: "MISUSE", 22: "NOLFS",
        23: "AUTH", 24: "FORMAT", 25: "RANGE", 26: "NOTADB",
    ]
}
