internal import CSQLite

/// An open SQLite database connection. Wraps `sqlite3*`.
///
/// Not `Sendable`: a connection is used from one thread (or one actor) at a time, as SQLite's
/// "multi-thread" mode requires; statements hold their connection strongly so it outlives them.
public final class Connection {
    /// How to open the database file. Wraps the `SQLITE_OPEN_*` flags of `sqlite3_open_v2`.
    public struct OpenFlags: OptionSet, Sendable {
        /// The raw flag bits.
        public let rawValue: Int32
        /// Creates flags from raw bits.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `SQLITE_OPEN_READONLY`.
        public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        /// `SQLITE_OPEN_READWRITE`.
        public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        /// `SQLITE_OPEN_CREATE`: create the file when missing (with `readWrite`).
        public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
        /// `SQLITE_OPEN_NOMUTEX`: the caller guarantees one thread at a time.
        public static let noMutex = OpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
        /// `SQLITE_OPEN_URI`: interpret `file:` URIs.
        public static let uri = OpenFlags(rawValue: SQLITE_OPEN_URI)
    }

    /// What `transaction(_:_:)` begins with.
    public enum TransactionKind: Sendable {
        /// `BEGIN DEFERRED`: takes locks lazily (fine for reads).
        case deferred
        /// `BEGIN IMMEDIATE`: takes the write lock at once, so the transaction never fails half-way on `BUSY`.
        case immediate
    }

    let handle: OpaquePointer
    /// The path the connection was opened with.
    public let path: String

    /// Opens (or creates) the database at `path`. Wraps `sqlite3_open_v2`; closes the half-open handle
    /// with `sqlite3_close_v2` when opening fails, as SQLite requires.
    public init(path: String, flags: OpenFlags = [.readWrite, .create, .noMutex]) throws(SQLiteError) {
        var db: OpaquePointer?
        let result = sqlite3_open_v2(path, &db, flags.rawValue, nil)
        guard result == SQLITE_OK, let db else {
            // A failed open may still allocate a handle that carries the message; free it after reading.
            let error = SQLiteError(result == SQLITE_OK ? SQLITE_NOMEM : result, "sqlite3_open_v2", connection: db)
            sqlite3_close_v2(db)
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
        self.path = path
    }

    deinit {
        // close_v2 defers the close until every statement is finalized; statements hold `self`
        // strongly, so by now they are all gone.
        sqlite3_close_v2(handle)
    }

    /// Waits up to `milliseconds` for another connection's lock before failing with `SQLITE_BUSY`.
    /// Wraps `sqlite3_busy_timeout`.
    public func setBusyTimeout(milliseconds: Int32) throws(SQLiteError) {
        try SQLiteError.check(sqlite3_busy_timeout(handle, milliseconds), "sqlite3_busy_timeout", connection: handle)
    }

    /// Runs one or more statements that return no rows we need. Wraps `sqlite3_exec`.
    public func execute(_ sql: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        try SQLiteError.check(result, "sqlite3_exec", connection: handle, sql: sql)
    }

    /// Compiles one statement. Wraps `sqlite3_prepare_v2`.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        try SQLiteError.check(result, "sqlite3_prepare_v2", connection: handle, sql: sql)
        guard let statement else {
            // Only whitespace or a comment: nothing to run. That is a bug in the caller.
            preconditionFailure("SQLite misuse: empty statement: \(sql)")
        }
        return Statement(handle: statement, connection: self, sql: sql)
    }

    /// Runs `body` inside a transaction: COMMIT when it returns, ROLLBACK when it throws.
    public func transaction<Result>(
        _ kind: TransactionKind = .immediate, _ body: () throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        try execute(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            // A failed COMMIT may leave the transaction open; ROLLBACK is harmless when it is not.
            if !isAutocommit { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Whether no transaction is open. Wraps `sqlite3_get_autocommit`.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The rowid of the last successful INSERT on this connection. Wraps `sqlite3_last_insert_rowid`.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE. Wraps `sqlite3_changes64`.
    public var changes: Int64 { sqlite3_changes64(handle) }

    /// Rows changed since the connection opened. Wraps `sqlite3_total_changes64`.
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Frees the pages of this connection's cache that no statement holds. Wraps `sqlite3_db_release_memory`.
    public func releaseMemory() { _ = sqlite3_db_release_memory(handle) }

    /// Runs a query expected to return one integer (`PRAGMA user_version`, `SELECT count(*) …`).
    public func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() == .row else { return nil }
        return statement.int64OrNil(at: 0)
    }
}
