import LibSQLite
import ShuffleCore

/// Stories in the library: what makes a track one, and its chapters.
extension LibraryDatabase {
    /// What a file is when it is not a song: its own flag (`TagInfo.story`: MP4 `stik`/`pcst`, ID3 `PCST`),
    /// else its genre (`StoryKind(genre:)`), else an audiobook for an `.m4b` file. nil: a song. A folder that
    /// `shufflebox.txt` marks is not known here; the queries that take `StoryRules` add it.
    public static func storyKind(of tags: TagInfo, path: PathBytes) -> StoryKind? {
        tags.story ?? StoryKind(genre: tags.genre) ?? (isBookFile(path.bytes) ? .audiobook : nil)
    }

    /// Whether the file at `path` is an `.m4b` (an audiobook by its name, and a book of its own).
    static func isBookFile(_ path: [UInt8]) -> Bool {
        guard path.count > 4 else { return false }
        let tail = path.suffix(4).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        return tail == Array(".m4b".utf8) && path[path.count - 5] != UInt8(ascii: "/")
    }

    /// Writes the chapters of track `id` (inside the transaction writing the track).
    func insertChapters(_ chapters: [Chapter], of id: Int64) throws(SQLiteError) {
        for chapter in chapters {
            try withStatement("INSERT OR IGNORE INTO chapters(track_id, start_ms, title) VALUES (?1, ?2, ?3)") {
                statement throws(SQLiteError) in
                try statement.bind(id, at: 1)
                try statement.bind(chapter.startMs, at: 2)
                try statement.bind(chapter.title.map(Self.chapterTitle), at: 3)
                try statement.run()
            }
        }
    }

    /// `title` cut to `Chapter.maxTitleBytes` of UTF-8 at a character boundary.
    static func chapterTitle(_ title: String) -> String {
        guard title.utf8.count > Chapter.maxTitleBytes else { return title }
        var cut = ""
        for character in title {
            guard cut.utf8.count + character.utf8.count <= Chapter.maxTitleBytes else { break }
            cut.append(character)
        }
        return cut
    }

    /// The chapters of track `id`, in start order (none: empty).
    func chapters(of id: TrackID) throws(SQLiteError) -> [Chapter] {
        try withStatement("SELECT start_ms, title FROM chapters WHERE track_id = ?1 ORDER BY start_ms") {
            statement throws(SQLiteError) in
            try statement.bind(id.rawValue, at: 1)
            var result: [Chapter] = []
            while try statement.step() == .row {
                result.append(Chapter(startMs: statement.int64(at: 0), title: statement.text(at: 1)))
            }
            return result
        }
    }

    /// The chapters of every track of `volume` that has some, by track (for `shufflebox list`).
    public func chaptersByTrack(of volume: VolumeRef) throws(LibraryError) -> [TrackID: [Chapter]] {
        try wrap { () throws(SQLiteError) -> [TrackID: [Chapter]] in
            try withStatement(
                """
                SELECT c.track_id, c.start_ms, c.title FROM chapters c JOIN files f ON f.id = c.track_id
                WHERE f.volume_id = ?1 ORDER BY c.track_id, c.start_ms
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                var result: [TrackID: [Chapter]] = [:]
                while try statement.step() == .row {
                    result[TrackID(statement.int64(at: 0)), default: []].append(
                        Chapter(startMs: statement.int64(at: 1), title: statement.text(at: 2)))
                }
                return result
            }
        }
    }
}

/// A track indexed before schema version 7, whose file was not yet read for its story flag and chapters
/// (`Indexer.readStories`), with its file's size and time as the index has them: the result is stored only
/// while they still hold.
public struct UnreadStory: Sendable, Equatable {
    /// The track.
    public let id: TrackID
    /// Its path, relative to the volume's root.
    public let path: PathBytes
    /// Its stored genre (what the story rule falls back on when the file no longer reads).
    public let genre: String?
    /// The file's size when listed.
    let size: Int64
    /// The file's modification time (ns) when listed.
    let mtimeNs: Int64
}

extension LibraryDatabase {
    /// Up to `limit` tracks of `volume` not read for their story yet, by path, after `path` (nil: from the
    /// start).
    public func unreadStories(of volume: VolumeRef, after path: PathBytes?, limit: Int) throws(LibraryError)
        -> [UnreadStory]
    {
        try wrap { () throws(SQLiteError) -> [UnreadStory] in
            try withStatement(
                """
                SELECT f.id, f.path, t.genre, f.size, f.mtime_ns FROM files f JOIN tracks t ON t.id = f.id
                WHERE f.volume_id = ?1 AND f.status = 'ok' AND t.story_read = 0 AND (?2 IS NULL OR f.path > ?2)
                ORDER BY f.path LIMIT ?3
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(blob: path?.bytes, at: 2)
                try statement.bind(limit, at: 3)
                var result: [UnreadStory] = []
                while try statement.step() == .row {
                    result.append(
                        UnreadStory(
                            id: TrackID(statement.int64(at: 0)), path: PathBytes(statement.blob(at: 1)),
                            genre: statement.text(at: 2), size: statement.int64(at: 3), mtimeNs: statement.int64(at: 4))
                    )
                }
                return result
            }
        }
    }

    /// Stores what a fresh read of `track`'s file found: its story kind and chapters, and nothing else of the
    /// row (its loudness measurement, its length stay). Call inside `transaction(_:)`. A track the indexer
    /// removed or rewrote since it was listed is left alone (the rewrite read the file itself). Returns
    /// whether it stored.
    public func setStory(_ kind: StoryKind?, chapters: [Chapter], of track: UnreadStory) throws(SQLiteError) -> Bool {
        let stored = try withStatement(
            """
            UPDATE tracks SET story = ?2, story_read = 1
            WHERE id = ?1 AND story_read = 0
                AND EXISTS (SELECT 1 FROM files WHERE id = ?1 AND size = ?3 AND mtime_ns = ?4)
            """
        ) { statement throws(SQLiteError) -> Bool in
            try statement.bind(track.id.rawValue, at: 1)
            try statement.bind(kind?.rawValue, at: 2)
            try statement.bind(track.size, at: 3)
            try statement.bind(track.mtimeNs, at: 4)
            try statement.run()
            return connection.changes > 0
        }
        guard stored else { return false }
        try withStatement("DELETE FROM chapters WHERE track_id = ?1") { statement throws(SQLiteError) in
            try statement.bind(track.id.rawValue, at: 1)
            try statement.run()
        }
        try insertChapters(chapters, of: track.id.rawValue)
        return true
    }
}
