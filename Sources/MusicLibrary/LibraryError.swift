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
    /// SQLite's own check found the database at `path` damaged (`PRAGMA quick_check` said `reason`).
    case damaged(path: String, reason: String)

    /// Whether the database file is damaged or not a database at all (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, or
    /// a failed check): the index can be rebuilt from the sticks, so the daemon replaces such a file. A
    /// database written by a newer Shufflebox is not damaged, and is never replaced.
    public var isDamagedDatabase: Bool {
        switch self {
        case .damaged: return true
        case .database(_, let error), .cannotCreate(_, let error):
            return error.isNotADatabase && error.function != "migrate"
        case .noLibrary, .notAFolder: return false
        }
    }

    /// What SQLite said about a damaged database, for a person.
    public var damageReason: String {
        switch self {
        case .damaged(_, let reason): return reason
        case .database(_, let error), .cannotCreate(_, let error): return error.message
        case .noLibrary, .notAFolder: return description
        }
    }

    /// One line for stderr, naming the path and what to do.
    public var description: String {
        switch self {
        case .noLibrary(let path):
            return "no library yet at \(path); run 'shufflebox index DIR' first"
        case .cannotCreate(let path, let error):
            if isDamagedDatabase {
                return Self.damagedAdvice(path: path, reason: error.message, notADatabase: !error.isCorrupt)
            }
            return "cannot create the library database \(path): \(error.message). Choose a writable place with --db."
        case .database(let path, let error):
            if isDamagedDatabase {
                return Self.damagedAdvice(path: path, reason: error.message, notADatabase: !error.isCorrupt)
            }
            if error.isNotADatabase {
                return "\(path) is not a Shufflebox library database (\(error.message)). Choose another file with --db."
            }
            if error.isNotWritable {
                return "cannot write the library database \(path): \(error.message). Choose a writable place with --db."
            }
            return "the library database \(path) failed: \(error)"
        case .notAFolder(let path, let reason):
            return "cannot index \(path): \(reason)"
        case .damaged(let path, let reason):
            return Self.damagedAdvice(path: path, reason: reason)
        }
    }

    /// What is wrong with a damaged database and how to start over (the index is rebuilt from the music).
    /// `notADatabase` (`SQLITE_NOTADB`): the file may also simply be another file, given by mistake.
    private static func damagedAdvice(path: String, reason: String, notADatabase: Bool = false) -> String {
        let what =
            notADatabase
            ? "\(path) is not a Shufflebox library database, or the library database is damaged (\(reason)). "
                + "Choose another file with --db, or to start over"
            : "the library database \(path) is damaged (\(reason)). To start over"
        return what + ", move it away (mv '\(path)' '\(path).damaged') and run 'shufflebox index DIR' again: "
            + "the index is rebuilt from the music, only resume points are lost. The daemon does this by itself."
    }
}
