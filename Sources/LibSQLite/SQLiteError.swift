internal import CSQLite

/// A failed SQLite call: the result codes, the C function, SQLite's own message and the SQL involved.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_READONLY`, …), the low 8 bits of `extendedCode`.
    public let code: Int32
    /// The extended result code (`SQLITE_READONLY_DBMOVED`, …).
    public let extendedCode: Int32
    /// The C function that failed, for example "sqlite3_open_v2".
    public let function: String
    /// The message from `sqlite3_errmsg` (or `sqlite3_errstr` when there is no connection).
    public let message: String
    /// The SQL statement involved, when there is one.
    public let sql: String?

    /// Creates an error.
    public init(code: Int32, extendedCode: Int32, function: String, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode
        self.function = function
        self.message = message
        self.sql = sql
    }

    /// "attempt to write a readonly database (sqlite3_step, code 8: INSERT …)".
    public var description: String {
        var text = "\(message) (\(function), code \(extendedCode)"
        if let sql { text += ": \(sql)" }
        return text + ")"
    }

    /// Whether the database is read-only or its file or folder cannot be written.
    public var isNotWritable: Bool {
        code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_IOERR || code == SQLITE_PERM
    }

    /// Whether the file is not an SQLite database (or is corrupt).
    public var isNotADatabase: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

    /// Whether the file is an SQLite database with damaged pages (`SQLITE_CORRUPT`, not `SQLITE_NOTADB`).
    public var isCorrupt: Bool { code == SQLITE_CORRUPT }

    /// Whether another connection held a lock for longer than the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// Whether a UNIQUE, NOT NULL, FOREIGN KEY or CHECK constraint failed.
    public var isConstraint: Bool { code == SQLITE_CONSTRAINT }

    /// The single funnel for SQLite result codes: returns quietly on `SQLITE_OK`, traps on misuse
    /// (`SQLITE_MISUSE`, `SQLITE_RANGE`: a bug in the caller, not a runtime condition) and throws otherwise.
    static func check(
        _ result: Int32, _ function: StaticString, connection: OpaquePointer?, sql: String? = nil
    ) throws(SQLiteError) {
        if result == SQLITE_OK { return }
        let error = SQLiteError(result, function, connection: connection, sql: sql)
        precondition(error.code != SQLITE_MISUSE && error.code != SQLITE_RANGE, "SQLite misuse: \(error)")
        throw error
    }

    /// Builds an error for `result` from the connection's last message.
    init(_ result: Int32, _ function: StaticString, connection: OpaquePointer?, sql: String? = nil) {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(result))
        }
        self.init(
            code: result & 0xFF, extendedCode: result, function: "\(function)", message: message, sql: sql)
    }
}
