import Glibc
import LibSQLite
import ShuffleCore

/// Where one book was left: its row in `station_playback`, under the book's `Book.bookmarkKey`.
public struct Bookmark: Equatable, Sendable {
    /// The part playing when it was saved (nil: none).
    public var track: TrackID?
    /// The position within that part, in milliseconds.
    public var positionMs: Int64
    /// Whether the book was played to its end.
    public var finished: Bool
    /// When it was saved (Unix seconds).
    public var updatedAt: Int64

    /// Creates a bookmark.
    public init(track: TrackID?, positionMs: Int64, finished: Bool, updatedAt: Int64) {
        self.track = track
        self.positionMs = positionMs
        self.finished = finished
        self.updatedAt = updatedAt
    }
}

/// Books' bookmarks and which book plays. A bookmark is saved and loaded like a station's resume point
/// (`savePlaybackState(_:of:station:now:)` with the book's `bookmarkKey` as the station).
extension LibraryDatabase {
    /// Every bookmark and station resume point of `volume`, by key (a book's `bookmarkKey`, a station's name).
    public func bookmarks(of volume: VolumeRef) throws(LibraryError) -> [String: Bookmark] {
        try wrap { () throws(SQLiteError) -> [String: Bookmark] in
            try withStatement(
                "SELECT station, track_id, position_ms, finished, updated_at FROM station_playback WHERE volume_id = ?1"
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                var result: [String: Bookmark] = [:]
                while try statement.step() == .row {
                    result[statement.text(at: 0) ?? ""] = Bookmark(
                        track: statement.int64OrNil(at: 1).map(TrackID.init), positionMs: statement.int64(at: 2),
                        finished: statement.int64(at: 3) != 0, updatedAt: statement.int64(at: 4))
                }
                return result
            }
        }
    }

    /// Records whether the book under `key` was played to its end. A book with no bookmark yet gets one at its
    /// start, carrying the volume level stored last, so the box's level stays what it was.
    public func setBookFinished(_ key: String, _ finished: Bool, of volume: VolumeRef, now: Int64) throws(LibraryError)
    {
        let level = try storedVolumeLevel(of: volume) ?? 0
        try transaction { () throws(SQLiteError) in
            try withStatement(
                """
                INSERT INTO station_playback(volume_id, station, order_blob, cursor, track_id, position_ms, volume,
                    paused, updated_at, finished) VALUES (?1, ?2, x'', 0, NULL, 0, ?4, 1, ?5, ?3)
                ON CONFLICT(volume_id, station) DO UPDATE SET finished = excluded.finished
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(key, at: 2)
                try statement.bind(finished ? 1 : 0, at: 3)
                try statement.bind(level, at: 4)
                try statement.bind(now, at: 5)
                try statement.run()
            }
        }
        savedOrders[PlaybackKey(volume: volume.id, station: key)] = nil
    }

    /// The bookmark key of the book playing on `volume` (nil: its music plays).
    public func currentBook(of volume: VolumeRef) throws(LibraryError) -> String? {
        try playing(.book, of: volume)
    }

    /// Records the book playing on `volume` by its bookmark key (nil: the music plays).
    public func setCurrentBook(_ key: String?, of volume: VolumeRef) throws(LibraryError) {
        try setPlaying(.book, key, of: volume)
    }

    /// What a volume's row says plays on it: the music's station (`volumes.station`) or the book
    /// (`volumes.book`). The column names come from here only, never from outside text.
    enum Playing: String {
        case station, book
    }

    /// The name in `column` of `volume`'s row (nil: none).
    func playing(_ column: Playing, of volume: VolumeRef) throws(LibraryError) -> String? {
        try wrap { () throws(SQLiteError) -> String? in
            try withStatement("SELECT \(column.rawValue) FROM volumes WHERE id = ?1") { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                guard try statement.step() == .row else { return nil }
                return statement.text(at: 0)
            }
        }
    }

    /// Sets `column` of `volume`'s row to `name`.
    func setPlaying(_ column: Playing, _ name: String?, of volume: VolumeRef) throws(LibraryError) {
        try wrap { () throws(SQLiteError) in
            try withStatement("UPDATE volumes SET \(column.rawValue) = ?2 WHERE id = ?1") {
                statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(name, at: 2)
                try statement.run()
            }
        }
    }
}

extension LibraryStore {
    /// Every bookmark and station resume point of `volume`, by key.
    public func bookmarks(of volume: VolumeRef) throws(LibraryError) -> [String: Bookmark] {
        try perform { database throws(LibraryError) in try database.bookmarks(of: volume) }
    }

    /// Records whether the book under `key` was played to its end.
    public func setBookFinished(_ key: String, _ finished: Bool, of volume: VolumeRef) throws(LibraryError) {
        try perform { database throws(LibraryError) in
            try database.setBookFinished(key, finished, of: volume, now: Int64(time(nil)))
        }
    }

    /// The bookmark key of the book playing on `volume` (nil: its music plays).
    public func currentBook(of volume: VolumeRef) throws(LibraryError) -> String? {
        try perform { database throws(LibraryError) in try database.currentBook(of: volume) }
    }

    /// Records the book playing on `volume` (nil: the music plays).
    public func setCurrentBook(_ key: String?, of volume: VolumeRef) throws(LibraryError) {
        try perform { database throws(LibraryError) in try database.setCurrentBook(key, of: volume) }
    }
}
