import LibSQLite
import ShuffleCore

/// The library database's tables and their migrations. The version lives in `PRAGMA user_version`.
///
/// Track ids are file ids (`tracks.id` references `files.id`), so a track keeps its id as long as
/// its file row lives, including across a detected move. The FTS5 tables use the track id as their
/// rowid: deleting by rowid is an index lookup, where deleting by an UNINDEXED column would scan.
enum Schema {
    /// The version this build writes.
    static let currentVersion: Int64 = 7

    /// Statements that bring an empty database to version 1.
    static let version1 = """
        CREATE TABLE volumes(
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,        -- filesystem UUID, or "path:/absolute/root"
            root BLOB NOT NULL,              -- where it was last seen, as bytes
            label TEXT,
            first_seen INTEGER NOT NULL,     -- Unix seconds
            last_seen INTEGER NOT NULL
        );
        CREATE TABLE files(
            id INTEGER PRIMARY KEY,
            volume_id INTEGER NOT NULL REFERENCES volumes(id) ON DELETE CASCADE,
            path BLOB NOT NULL,              -- relative to the volume root, raw bytes
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('ok', 'unplayable', 'ignored')),
            reason TEXT,
            UNIQUE(volume_id, path)
        );
        CREATE TABLE tracks(
            id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
            title TEXT, artist TEXT, album TEXT, album_artist TEXT,
            track INTEGER, track_total INTEGER, disc INTEGER, disc_total INTEGER,
            year INTEGER, genre TEXT,
            duration_ms INTEGER NOT NULL, frames INTEGER NOT NULL,
            sample_rate INTEGER NOT NULL, channels INTEGER NOT NULL, codec TEXT NOT NULL,
            rg_track_gain REAL, rg_album_gain REAL, rg_track_peak REAL
        );
        CREATE VIRTUAL TABLE tracks_fts USING fts5(
            title, artist, album, album_artist, tokenize = 'unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE paths_fts USING fts5(
            path, name, tokenize = 'unicode61 remove_diacritics 2');
        -- A track row going away (directly or by cascade from its file) takes its FTS rows along,
        -- inside the same transaction.
        CREATE TRIGGER tracks_after_delete AFTER DELETE ON tracks BEGIN
            DELETE FROM tracks_fts WHERE rowid = old.id;
            DELETE FROM paths_fts WHERE rowid = old.id;
        END;
        CREATE TABLE playback(
            volume_id INTEGER PRIMARY KEY REFERENCES volumes(id) ON DELETE CASCADE,
            order_blob BLOB NOT NULL,        -- the shuffle order: little-endian Int64 track ids
            cursor INTEGER NOT NULL,
            track_id INTEGER,
            position_ms INTEGER NOT NULL,
            volume INTEGER NOT NULL,
            paused INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );
        """

    /// Version 2: every format, not only MP3. `codec` is the format (`mp3`, `flac`, `vorbis`, `opus`, `aac`,
    /// `alac`, `wav`, `aiff`); tracks gain the bit depth of lossless streams, the ReplayGain album peak and
    /// Opus's header gain. Files that version 1 found unplayable or not audio (a FLAC, an M4A) are read again
    /// on the next index run (their stored time is made impossible, so the run sees them as changed; their
    /// ids are kept). Playable MP3s stay as they are: nothing they hold is read differently.
    static let version2 = """
        ALTER TABLE tracks ADD COLUMN bits_per_sample INTEGER;
        ALTER TABLE tracks ADD COLUMN rg_album_peak REAL;
        ALTER TABLE tracks ADD COLUMN header_gain REAL;
        UPDATE files SET mtime_ns = -1 WHERE status IN ('unplayable', 'ignored');
        """

    /// Version 3: a track's length may be an estimate. The first probe walks at most 24 MiB of a stream (so
    /// that no file holds the indexer for long) and scales the count up past that; `duration_estimated` says
    /// so until the background pass after the index run has walked the whole stream
    /// (`Indexer.refineEstimates`). Version 2 did not record it: a playable file over 24 MiB may hold an
    /// estimate, so each is walked again once (a smaller file was always walked in full).
    static let version3 = """
        ALTER TABLE tracks ADD COLUMN duration_estimated INTEGER NOT NULL DEFAULT 0;
        UPDATE tracks SET duration_estimated = 1 WHERE id IN (SELECT id FROM files WHERE size > 25165824);
        """

    /// Version 4: the EBU R128 loudness the background scan measures for tracks without a gain tag
    /// (`LoudnessScan`). `loudness_state` is 0 until measured (the scan finds such tracks again on its next
    /// pass, so a pass cut short resumes), 1 when measured (`loudness_lufs` NULL for silence), 2 when the file
    /// could not be decoded to its end. The columns live in the track row, which the indexer deletes and
    /// writes anew when the file changes (size, time or path), so a measurement lasts exactly as long as the
    /// file it was made of.
    static let version4 = """
        ALTER TABLE tracks ADD COLUMN loudness_state INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE tracks ADD COLUMN loudness_lufs REAL;
        ALTER TABLE tracks ADD COLUMN loudness_peak REAL;
        """

    /// Version 5: stations (`shufflebox.txt` on a stick). Each station of a stick keeps its own shuffle order
    /// and resume point, in rows shaped like `playback`'s; the whole stick keeps using `playback`.
    /// `volumes.station` names the station that played last (NULL: the whole stick). A station renamed or
    /// removed from the stick's file leaves its row behind until the stick's volume row goes.
    static let version5 = """
        CREATE TABLE station_playback(
            volume_id INTEGER NOT NULL REFERENCES volumes(id) ON DELETE CASCADE,
            station TEXT NOT NULL,           -- the station's name, as the stick's file spells it
            order_blob BLOB NOT NULL,
            cursor INTEGER NOT NULL,
            track_id INTEGER,
            position_ms INTEGER NOT NULL,
            volume INTEGER NOT NULL,
            paused INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY(volume_id, station)
        );
        ALTER TABLE volumes ADD COLUMN station TEXT;
        """

    /// Version 6: `volumes.changed_at`, when an index run last changed what the volume holds, on the same
    /// never-decreasing scale as `last_seen` (Unix seconds, or one more than the largest stamp stored, whichever
    /// is larger: a board without a clock boots in the past). MPD clients read it as `db_update` and load
    /// their library again only when it moves forward (Cantata). 0: not changed since this version.
    static let version6 = """
        ALTER TABLE volumes ADD COLUMN changed_at INTEGER NOT NULL DEFAULT 0;
        """

    /// Version 7: stories (audiobooks and podcasts, `StoryKind`) and their bookmarks.
    ///
    /// - `tracks.story`: NULL for a song, else `audiobook` or `podcast`: the file's own flag, else its genre
    ///   (`LibraryDatabase.storyKind`). `tracks.story_read` is 0 for a track indexed before this version,
    ///   whose file was never read for its flags and chapters: `Indexer.readStories` reads it again and fills
    ///   `story` and `chapters` only, so the row (and its loudness measurement) stays. The migration fills
    ///   `story` from the stored genre and file name at once (`fillStoriesFromGenres`).
    /// - `chapters`: the chapters a file marks inside itself, written and deleted with its track row.
    /// - `volumes.book`: the bookmark key (`Book.bookmarkKey`) of the book playing on the volume; NULL: its
    ///   music plays (`volumes.station` keeps naming the music's station).
    /// - `station_playback.finished`: 1 once a book played to its end. Each book's bookmark is its row in
    ///   `station_playback`, under its bookmark key.
    static let version7 = """
        ALTER TABLE tracks ADD COLUMN story TEXT CHECK (story IN ('audiobook', 'podcast'));
        ALTER TABLE tracks ADD COLUMN story_read INTEGER NOT NULL DEFAULT 1;
        UPDATE tracks SET story_read = 0;
        CREATE TABLE chapters(
            track_id INTEGER NOT NULL REFERENCES tracks(id) ON DELETE CASCADE,
            start_ms INTEGER NOT NULL,
            title TEXT,
            PRIMARY KEY(track_id, start_ms)
        ) WITHOUT ROWID;
        ALTER TABLE volumes ADD COLUMN book TEXT;
        ALTER TABLE station_playback ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
        """

    /// The part of version 7 that SQL cannot say: `story` of every track from its stored genre and file name
    /// (`LibraryDatabase.storyKind`), so a stick's audiobooks leave the shuffle as soon as the new version
    /// opens the file, before `Indexer.readStories` has read their flags.
    static func fillStoriesFromGenres(_ connection: Connection) throws(SQLiteError) {
        let select = try connection.prepare(
            "SELECT t.id, f.path, t.genre FROM tracks t JOIN files f ON f.id = t.id ORDER BY t.id")
        var stories: [(Int64, StoryKind)] = []
        while try select.step() == .row {
            let path = PathBytes(select.blob(at: 1))
            var tags = TagInfo()
            tags.genre = select.text(at: 2)
            if let kind = LibraryDatabase.storyKind(of: tags, path: path) {
                stories.append((select.int64(at: 0), kind))
            }
        }
        let update = try connection.prepare("UPDATE tracks SET story = ?2 WHERE id = ?1")
        for (id, kind) in stories {
            try update.bind(id, at: 1)
            try update.bind(kind.rawValue, at: 2)
            try update.run()
            update.reset()
        }
    }

    /// The page cache of each connection, in SQLite's units (negative: KiB). SQLite's default, 2000 KiB,
    /// fills up on every full read (the player's catalog, a first index) and stays allocated for the
    /// life of the connection; the daemon holds several. The library database sits in the kernel's page
    /// cache anyway, so a small cache costs little time and keeps each connection's memory small.
    static let cacheSizeKiB = -512

    /// Sets the connection up (WAL, foreign keys) and migrates the schema to `currentVersion`.
    ///
    /// `synchronous = NORMAL` is safe in WAL mode: a power cut can lose the last commits, never
    /// corrupt the file (https://sqlite.org/pragma.html#pragma_synchronous), and it saves an fsync
    /// per transaction.
    static func prepare(_ connection: Connection) throws(SQLiteError) {
        try connection.setBusyTimeout(milliseconds: 5000)
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.execute("PRAGMA cache_size = \(cacheSizeKiB)")
        let version = try connection.scalarInt("PRAGMA user_version") ?? 0
        if version == currentVersion {
            try connection.execute("PRAGMA synchronous = NORMAL")
            return
        }
        // journal_mode=WAL writes to the file, so it runs only when creating or migrating.
        _ = try connection.scalarInt("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        try migrate(connection, from: version)
    }

    /// Applies every migration after `version` up to `target` (tests build older versions this way), each in
    /// its own transaction.
    static func migrate(_ connection: Connection, from version: Int64, to target: Int64 = currentVersion)
        throws(SQLiteError)
    {
        guard version < currentVersion else {
            throw SQLiteError(
                code: 26, extendedCode: 26, function: "migrate",
                message: "the database was written by a newer Shufflebox (schema \(version))")
        }
        // Each migration in its own transaction, so a power cut leaves the file at one version or the next.
        let steps: [(Int64, String, ((Connection) throws(SQLiteError) -> Void)?)] = [
            (1, version1, nil), (2, version2, nil), (3, version3, nil), (4, version4, nil), (5, version5, nil),
            (6, version6, nil), (7, version7, fillStoriesFromGenres),
        ]
        for (step, statements, more) in steps where version < step && step <= target {
            try connection.transaction { () throws(SQLiteError) in
                try connection.execute(statements)
                try more?(connection)
                try connection.execute("PRAGMA user_version = \(step)")
            }
        }
    }
}
