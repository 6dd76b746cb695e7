import LibSQLite

/// Why a library operation failed, worded for the person at the terminal.
public enum LibraryError: Error, Sendable, CustomStringConvertible {
    /// There is no database at `path` yet (or it holds no indexed folder).
    case noLibrary(path: String)
    /// The database at `path` could not be created, opened or written.
    case cannotCreate(path: String, SQLiteError)
    /// Reading or writing the database failed for another reason.
    case database(path: String, SQLiteError)
    /// The folder to index does not exist or is not a folder.
    case notAFolder(path: String, reason: String)

    /// One line for stderr, naming the path and what to do.
    public var description: String {
        switch self {
        case .noLibrary(let path):
            return "no library yet at \(path); run 'shufflebox index DIR' first"
        case .cannotCreate(let path, let error):
            return "cannot create the library database \(path): \(error.message). Choose a writable place with --db."
        case .database(let path, let error):
            if error.isNotADatabase {
                return "\(path) is not a Shufflebox library database (\(error.message)). Choose another file with --db."
            }
            if error.isNotWritable {
                return "cannot write the library database \(path): \(error.message). Choose a writable place with --db."
            }
            return "the library database \(path) failed: \(error)"
        case .notAFolder(let path, let reason):
            return "cannot index \(path): \(reason)"
        }
    }
}
