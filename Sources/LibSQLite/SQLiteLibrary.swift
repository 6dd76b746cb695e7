internal import CSQLite

/// Facts about the linked SQLite library.
public enum SQLiteLibrary {
    /// The version of the linked library, for example "3.40.1". Wraps `sqlite3_libversion`.
    public static var version: String { String(cString: sqlite3_libversion()) }
}
