internal import CSQLite

/// A compiled SQL statement. Wraps `sqlite3_stmt*`; finalized in `deinit`.
///
/// A final class that holds its `Connection` strongly, so the connection is never closed under it.
/// Parameter and column indexes follow SQLite: parameters count from 1, columns from 0.
public final class Statement {
    /// What one call to `step()` produced.
    public enum StepResult: Sendable, Equatable {
        /// A result row is ready to read with the column getters.
        case row
        /// The statement has finished.
        case done
    }

    let handle: OpaquePointer
    /// The connection this statement belongs to (kept alive by the statement).
    public let connection: Connection
    /// The SQL text, for error messages.
    public let sql: String

    init(handle: OpaquePointer, connection: Connection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: - Binding

    /// Binds an integer, or NULL when nil. Wraps `sqlite3_bind_int64`.
    public func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check(sqlite3_bind_int64(handle, index, value), "sqlite3_bind_int64")
    }

    /// Binds an integer, or NULL when nil. Wraps `sqlite3_bind_int64`.
    public func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        try bind(value.map { Int64($0) }, at: index)
    }

    /// Binds a floating-point number, or NULL when nil. Wraps `sqlite3_bind_double`.
    public func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check(sqlite3_bind_double(handle, index, value), "sqlite3_bind_double")
    }

    /// Binds UTF-8 text (SQLite copies it), or NULL when nil. Wraps `sqlite3_bind_text`.
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var value else { return try bindNull(at: index) }
        // SQLITE_TRANSIENT: SQLite copies the bytes before returning, so the buffer may go away.
        let result = value.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else {
                    // A nil pointer would bind NULL; an empty string must stay an empty string.
                    return sqlite3_bind_text(handle, index, "", 0, shim_sqlite3_transient())
                }
                return sqlite3_bind_text(handle, index, base, Int32(chars.count), shim_sqlite3_transient())
            }
        }
        try check(result, "sqlite3_bind_text")
    }

    /// Binds bytes as a BLOB (SQLite copies them), or NULL when nil. Wraps `sqlite3_bind_blob`.
    public func bind(blob value: [UInt8]?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        let result = value.withUnsafeBytes { raw in
            // An empty blob must still be a blob, not NULL: give SQLite a non-nil pointer.
            guard let base = raw.baseAddress else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob(handle, index, base, Int32(raw.count), shim_sqlite3_transient())
        }
        try check(result, "sqlite3_bind_blob")
    }

    /// Binds NULL. Wraps `sqlite3_bind_null`.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index), "sqlite3_bind_null")
    }

    // MARK: - Running

    /// Runs the statement to its next row or to the end. Wraps `sqlite3_step`.
    @discardableResult
    public func step() throws(SQLiteError) -> StepResult {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return .row
        case SQLITE_DONE: return .done
        default:
            // The statement is unusable until reset; reset now so the next use starts clean.
            sqlite3_reset(handle)
            try check(result, "sqlite3_step")
            return .done
        }
    }

    /// Runs a statement that returns no rows, then resets it for the next use.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() == .row {}
    }

    /// Rewinds the statement so it can run again; bindings are kept. Wraps `sqlite3_reset`.
    public func reset() {
        // sqlite3_reset repeats the error of the last step, which step() already reported.
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to NULL. Wraps `sqlite3_clear_bindings`.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Columns of the current row

    /// Whether the column is NULL. Wraps `sqlite3_column_type`.
    public func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as an integer (0 for NULL). Wraps `sqlite3_column_int64`.
    public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column as an integer, nil for NULL.
    public func int64OrNil(at column: Int32) -> Int64? { isNull(at: column) ? nil : int64(at: column) }

    /// The column as an `Int`, nil for NULL.
    public func intOrNil(at column: Int32) -> Int? { isNull(at: column) ? nil : Int(int64(at: column)) }

    /// The column as a floating-point number, nil for NULL. Wraps `sqlite3_column_double`.
    public func doubleOrNil(at column: Int32) -> Double? {
        isNull(at: column) ? nil : sqlite3_column_double(handle, column)
    }

    /// The column as text, nil for NULL. Wraps `sqlite3_column_text`; invalid UTF-8 is repaired.
    public func text(at column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Calls `body` with the column's bytes in place (valid only during the call; empty for NULL). Wraps
    /// `sqlite3_column_blob`.
    public func withBlob<T>(at column: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        let pointer = sqlite3_column_blob(handle, column)
        let count = pointer == nil ? 0 : Int(sqlite3_column_bytes(handle, column))
        return body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column as bytes (empty for NULL). Wraps `sqlite3_column_blob`.
    public func blob(at column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func check(_ result: Int32, _ function: StaticString) throws(SQLiteError) {
        try SQLiteError.check(result, function, connection: connection.handle, sql: sql)
    }
}
