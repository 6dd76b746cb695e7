import Foundation
import LibSQLite
import MusicLibrary
import ShuffleCore

/// A fresh library database file in its own temporary folder, with helpers to add tracks directly.
struct LibraryFixture {
    let folder: String
    let database: LibraryDatabase
    let volume: VolumeRef

    init(name: String = "library") throws {
        folder = NSTemporaryDirectory() + "musiclibrary-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        database = try LibraryDatabase(path: folder + "/library.db", create: true)
        volume = try database.volume(key: "path:/music", root: PathBytes("/music"), now: 1_700_000_000)
    }

    /// Adds a playable track with `tags` at `path`; returns its id.
    @discardableResult
    func addTrack(_ path: String, _ tags: TagInfo, frames: Int64 = 44_100) throws -> TrackID {
        let record = LibraryDatabase.FileRecord(
            path: PathBytes(path), size: 1000, mtimeNs: 1,
            outcome: .audio(tags, StreamInfo(codec: "mp3", sampleRate: 44_100, channels: 2, frames: frames)))
        return TrackID(
            try database.transaction { () throws(SQLiteError) in try database.insertFile(record, volume: volume) })
    }

    /// Adds an unplayable file.
    func addUnplayable(_ path: String, reason: String) throws {
        let record = LibraryDatabase.FileRecord(
            path: PathBytes(path), size: 10, mtimeNs: 1, outcome: .unplayable(reason: reason))
        try database.transaction { () throws(SQLiteError) in _ = try database.insertFile(record, volume: volume) }
    }

    /// Paths of the search results for `query`.
    func search(_ query: String, limit: Int = 50) throws -> [String] {
        try database.search(query, in: volume, limit: limit).map(\.path.display)
    }

    /// Counts rows of `table` through a second connection (what is really in the file).
    func count(_ table: String) throws -> Int64 {
        let check = try LibraryDatabase(path: folder + "/library.db", create: false)
        return try check.rowCount(table)
    }
}
