import Glibc
import LibSQLite
import ShuffleCore

/// A damaged library database that was moved aside and replaced by an empty one.
public struct DatabaseReplacement: Sendable, Equatable, CustomStringConvertible {
    /// The database's path (a fresh, empty database is there now).
    public var path: String
    /// Where the damaged file went (nil when it could not be moved and was removed instead).
    public var movedTo: String?
    /// What SQLite said.
    public var reason: String

    /// One line for the log and `status`.
    public var description: String {
        let kept = movedTo.map { "moved it to \($0)" } ?? "removed it"
        return "the library database \(path) was damaged (\(reason)); \(kept) and started a fresh one: "
            + "sticks are indexed again, resume points are lost"
    }
}

extension LibraryDatabase {
    /// The suffix of the damaged copy kept beside the database: `library.db.damaged-20261201-153000`.
    static let damagedSuffix = ".damaged-"

    /// Opens (creating) the database at `path` and checks it with `PRAGMA quick_check`; a damaged one
    /// (random bytes, garbage pages, a failed check) is moved aside and an empty database created in its
    /// place. The daemon opens its database this way: the index can always be rebuilt from the sticks.
    public static func openReplacingDamage(
        path: String, now: Int64
    ) throws(LibraryError) -> (LibraryDatabase, DatabaseReplacement?) {
        do throws(LibraryError) {
            return (try openChecked(path: path), nil)
        } catch {
            guard error.isDamagedDatabase else { throw error }
            let replacement = replaceDamaged(path: path, reason: error.damageReason, now: now)
            return (try LibraryDatabase(path: path, create: true), replacement)
        }
    }

    /// Opens (creating) and checks; the connection is closed again when the check fails.
    private static func openChecked(path: String) throws(LibraryError) -> LibraryDatabase {
        let database = try LibraryDatabase(path: path, create: true)
        try database.quickCheck()
        return database
    }

    /// Runs `PRAGMA quick_check(1)`: throws `.damaged` unless SQLite answers "ok".
    func quickCheck() throws(LibraryError) {
        let answer = try wrap { () throws(SQLiteError) -> String? in
            let statement = try connection.prepare("PRAGMA quick_check(1)")
            guard try statement.step() == .row else { return nil }
            return statement.text(at: 0)
        }
        guard answer == "ok" else { throw .damaged(path: path, reason: answer ?? "quick_check gave no answer") }
    }

    /// Moves the damaged file at `path` (with its WAL) aside as `path.damaged-<UTC time>`, removing any
    /// older damaged copy first (one is kept), and removes the shared-memory file. Returns what was done.
    /// When the file cannot be moved it is removed, so that a fresh database can be made.
    static func replaceDamaged(path: String, reason: String, now: Int64) -> DatabaseReplacement {
        removeOlderDamagedCopies(of: path)
        let aside = path + damagedSuffix + utcStamp(now)
        var movedTo: String? = aside
        if rename(path, aside) == 0 {
            _ = rename(path + "-wal", aside + "-wal")
        } else {
            movedTo = nil
            _ = unlink(path)
            _ = unlink(path + "-wal")
        }
        _ = unlink(path + "-shm")
        return DatabaseReplacement(path: path, movedTo: movedTo, reason: reason)
    }

    /// Removes `path.damaged-*` files (and their WALs) from the database's folder.
    private static func removeOlderDamagedCopies(of path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + damagedSuffix
        guard let directory = opendir(folder.isEmpty ? "/" : folder) else { return }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(prefix) { names.append(name) }
        }
        for name in names { _ = unlink(folder + "/" + name) }
    }

    /// `20261201-153000` for the Unix time `now`, in UTC.
    static func utcStamp(_ now: Int64) -> String {
        var seconds = time_t(now)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return String(now) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }
}
