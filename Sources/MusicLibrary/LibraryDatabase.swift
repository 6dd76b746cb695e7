import Glibc
import LibSQLite
import ShuffleCore

/// The library database, used synchronously from one thread at a time (the store's queue, or a
/// command-line process's own thread). `LibraryStore` is the actor in front of it.
public final class LibraryDatabase {
    /// What is known about one file from the last run, keyed by its relative path.
    public struct KnownFile: Equatable, Sendable {
        /// The file (and track) id.
        public var id: Int64
        /// Size in bytes.
        public var size: Int64
        /// Modification time in nanoseconds since the epoch.
        public var mtimeNs: Int64
        /// The stored status.
        public var status: FileStatus
        /// Whether the last probe met an I/O error reading the file (while the rest of the stick read fine):
        /// it is read again on the next run, since the stick may only have been failing for a moment.
        public var wasUnreadable = false
    }

    /// The path the database was opened at.
    public let path: String
    let connection: Connection
    private var statements: [String: Statement] = [:]
    /// The shuffle order last written for each volume id and station, so a save that only moves the position
    /// rewrites a few integers instead of the whole order (8 bytes a track).
    var savedOrders: [PlaybackKey: [TrackID]] = [:]

    /// Opens the database at `path`. With `create`, makes the file (and its folder) when missing;
    /// without, a missing file is `LibraryError.noLibrary`.
    public init(path: String, create: Bool) throws(LibraryError) {
        self.path = path
        if !create {
            var info = stat()
            guard stat(path, &info) == 0 else { throw .noLibrary(path: path) }
        } else {
            Self.makeParentFolder(of: path)
        }
        do {
            let flags: Connection.OpenFlags = create ? [.readWrite, .create, .noMutex] : [.readWrite, .noMutex]
            connection = try Connection(path: path, flags: flags)
        } catch {
            throw create ? .cannotCreate(path: path, error) : .database(path: path, error)
        }
        do {
            try Schema.prepare(connection)
        } catch {
            throw create && error.isNotWritable ? .cannotCreate(path: path, error) : .database(path: path, error)
        }
    }

    /// Runs `body` with a cached prepared statement for `sql` (reset afterwards).
    func withStatement<R>(_ sql: String, _ body: (Statement) throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        let statement: Statement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try connection.prepare(sql)
            statements[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Wraps an SQLite failure with this database's path.
    func wrap<R>(_ body: () throws(SQLiteError) -> R) throws(LibraryError) -> R {
        do {
            return try body()
        } catch {
            throw .database(path: path, error)
        }
    }

    /// Rows changed through this connection since it opened (0 after a run that wrote nothing).
    public var totalChanges: Int64 { connection.totalChanges }

    /// Hands back the page cache a long read filled (a whole listing): the next queries read the file again,
    /// from the kernel's page cache, which keeps it anyway.
    public func releaseCachedPages() { connection.releaseMemory() }

    // MARK: - Volumes

    /// The volume with `key`, creating it or updating where it was seen. Writes only when something differs
    /// (a new volume, a new root, or another volume having been used more recently).
    public func volume(key: String, root: PathBytes, now: Int64) throws(LibraryError) -> VolumeRef {
        try wrap { () throws(SQLiteError) -> VolumeRef in
            let latest = try connection.scalarInt("SELECT max(last_seen) FROM volumes") ?? 0
            let existing = try withStatement("SELECT id, root, last_seen FROM volumes WHERE key = ?1") {
                statement throws(SQLiteError) -> (Int64, [UInt8], Int64)? in
                try statement.bind(key, at: 1)
                guard try statement.step() == .row else { return nil }
                return (statement.int64(at: 0), statement.blob(at: 1), statement.int64(at: 2))
            }
            if let (id, storedRoot, lastSeen) = existing {
                let isLatest = lastSeen >= latest && lastSeen > 0
                if storedRoot != root.bytes || !isLatest {
                    try withStatement("UPDATE volumes SET root = ?2, last_seen = ?3 WHERE id = ?1") {
                        statement throws(SQLiteError) in
                        try statement.bind(id, at: 1)
                        try statement.bind(blob: root.bytes, at: 2)
                        try statement.bind(try nextStamp(now: now), at: 3)
                        try statement.run()
                    }
                }
                return VolumeRef(id: id, key: key, root: root)
            }
            try withStatement(
                "INSERT INTO volumes(key, root, label, first_seen, last_seen) VALUES (?1, ?2, NULL, ?3, ?4)"
            ) { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                try statement.bind(blob: root.bytes, at: 2)
                try statement.bind(now, at: 3)
                try statement.bind(try nextStamp(now: now), at: 4)
                try statement.run()
            }
            return VolumeRef(id: connection.lastInsertRowID, key: key, root: root)
        }
    }

    /// The volume whose stored key is `key`, if it was ever indexed.
    public func existingVolume(key: String) throws(LibraryError) -> VolumeRef? {
        try wrap { () throws(SQLiteError) -> VolumeRef? in
            try withStatement("SELECT id, key, root FROM volumes WHERE key = ?1") { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                return try Self.volume(from: statement)
            }
        }
    }

    /// The volume indexed most recently: the one `list` and `search` show.
    public func currentVolume() throws(LibraryError) -> VolumeRef? {
        try wrap { () throws(SQLiteError) -> VolumeRef? in
            try withStatement("SELECT id, key, root FROM volumes ORDER BY last_seen DESC, id DESC LIMIT 1") {
                statement throws(SQLiteError) in try Self.volume(from: statement)
            }
        }
    }

    private static func volume(from statement: Statement) throws(SQLiteError) -> VolumeRef? {
        guard try statement.step() == .row else { return nil }
        return VolumeRef(
            id: statement.int64(at: 0), key: statement.text(at: 1) ?? "", root: PathBytes(statement.blob(at: 2)))
    }

    // MARK: - Files

    /// Every file row of `volume`, by relative path: read once per index run.
    func knownFiles(of volume: VolumeRef) throws(LibraryError) -> KnownFiles {
        try wrap { () throws(SQLiteError) -> KnownFiles in
            try withStatement(
                "SELECT path, id, size, mtime_ns, status, CASE WHEN reason LIKE 'cannot read: %' THEN reason END "
                    + "FROM files WHERE volume_id = ?1 ORDER BY path"
            ) {
                statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                let (count, pathBytes) = try fileCount(of: volume)
                var result = KnownFiles(expectedCount: count, expectedPathBytes: pathBytes)
                while try statement.step() == .row {
                    let status = FileStatus(rawValue: statement.text(at: 4) ?? "") ?? .unplayable
                    let file = KnownFile(
                        id: statement.int64(at: 1), size: statement.int64(at: 2), mtimeNs: statement.int64(at: 3),
                        status: status,
                        wasUnreadable: statement.text(at: 5).map { Indexer.vanishReasons.contains($0) } ?? false)
                    statement.withBlob(at: 0) { result.add(path: $0, file) }
                }
                return result
            }
        }
    }

    /// The number of file rows of `volume` (playable, unplayable and ignored) and the bytes of their paths,
    /// to size `knownFiles` up front: grown by doubling, its buffers were briefly half as big again.
    private func fileCount(of volume: VolumeRef) throws(SQLiteError) -> (files: Int, pathBytes: Int) {
        try withStatement("SELECT count(*), total(length(path)) FROM files WHERE volume_id = ?1") {
            statement throws(SQLiteError) in
            try statement.bind(volume.id, at: 1)
            guard try statement.step() == .row else { return (0, 0) }
            return (Int(statement.int64(at: 0)), Int(statement.int64(at: 1)))
        }
    }

    /// Records that an index run changed what `volume` holds (`changed_at`), on the scale of `last_seen`: never
    /// below any stamp already stored, so the value only moves forward even on a board without a clock.
    public func markChanged(_ volume: VolumeRef, now: Int64) throws(LibraryError) {
        try wrap { () throws(SQLiteError) in
            let stamp = try nextStamp(now: now)
            try withStatement("UPDATE volumes SET changed_at = ?2 WHERE id = ?1") { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(stamp, at: 2)
                try statement.run()
            }
        }
    }

    /// A stamp for `last_seen` or `changed_at`: `now`, or one more than every stamp stored when that is later,
    /// so that `db_update` never goes back.
    private func nextStamp(now: Int64) throws(SQLiteError) -> Int64 {
        max(now, (try connection.scalarInt("SELECT max(max(last_seen), max(changed_at)) FROM volumes") ?? 0) + 1)
    }

    /// When what `volume` shows a client last changed: it became the volume in use (`last_seen`) or an index run
    /// changed it (`changed_at`), whichever came later (MPD's `db_update`).
    public func updateStamp(of volume: VolumeRef) throws(LibraryError) -> Int64 {
        try wrap { () throws(SQLiteError) -> Int64 in
            try withStatement("SELECT max(last_seen, changed_at) FROM volumes WHERE id = ?1") {
                statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                guard try statement.step() == .row else { return 0 }
                return statement.int64(at: 0)
            }
        }
    }

    /// Counts of playable and unplayable files of `volume`.
    public func counts(of volume: VolumeRef) throws(LibraryError) -> (tracks: Int, unplayable: Int) {
        try wrap { () throws(SQLiteError) -> (tracks: Int, unplayable: Int) in
            try withStatement(
                "SELECT sum(status = 'ok'), sum(status = 'unplayable') FROM files WHERE volume_id = ?1"
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                guard try statement.step() == .row else { return (0, 0) }
                return (Int(statement.int64(at: 0)), Int(statement.int64(at: 1)))
            }
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction.
    public func transaction<R>(_ body: () throws(SQLiteError) -> R) throws(LibraryError) -> R {
        try wrap { () throws(SQLiteError) -> R in try connection.transaction(.immediate, body) }
    }

    private static func makeParentFolder(of path: String) {
        // mkdir -p of the folder; failures surface when SQLite opens the file, with its message.
        var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var prefix = path.hasPrefix("/") ? "" : "."
        if components.first == "" { components = components.dropFirst() }
        for component in components where !component.isEmpty {
            prefix += "/" + component
            _ = mkdir(prefix, 0o755)
        }
    }
}

extension LibraryDatabase {
    /// The tables of the schema, for `rowCount(_:)`.
    public static let tableNames: Set<String> = [
        "volumes", "files", "tracks", "tracks_fts", "paths_fts", "playback", "station_playback", "chapters",
    ]

    /// The number of rows in one of the schema's tables (diagnostics and tests). Traps on any other name,
    /// so no outside text ever reaches the SQL.
    public func rowCount(_ table: String) throws(LibraryError) -> Int64 {
        precondition(Self.tableNames.contains(table), "not a library table: \(table)")
        return try wrap { () throws(SQLiteError) -> Int64 in
            try connection.scalarInt("SELECT count(*) FROM \(table)") ?? 0
        }
    }

    /// `PRAGMA data_version`: changes when another connection commits to the file.
    public func dataVersion() throws(LibraryError) -> Int64 {
        try wrap { () throws(SQLiteError) -> Int64 in try connection.scalarInt("PRAGMA data_version") ?? 0 }
    }
}
