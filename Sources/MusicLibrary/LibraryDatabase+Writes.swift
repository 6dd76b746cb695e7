import LibSQLite
import ShuffleCore

/// Row-level writes. Call them inside `transaction(_:)`: the FTS rows change in the same transaction
/// as the rows they index (inserts here, deletes through the `tracks_after_delete` trigger).
extension LibraryDatabase {
    /// One file's new state, as the indexer found it.
    public struct FileRecord: Sendable {
        /// Relative path.
        public var path: PathBytes
        /// Size in bytes.
        public var size: Int64
        /// Modification time in nanoseconds.
        public var mtimeNs: Int64
        /// What probing it found.
        public var outcome: ProbeOutcome

        /// Creates a record.
        public init(path: PathBytes, size: Int64, mtimeNs: Int64, outcome: ProbeOutcome) {
            self.path = path
            self.size = size
            self.mtimeNs = mtimeNs
            self.outcome = outcome
        }

        var status: FileStatus {
            switch outcome {
            case .audio: .ok
            case .unplayable: .unplayable
            case .notAudio: .ignored
            }
        }

        var reason: String? {
            if case .unplayable(let reason) = outcome { return reason }
            return nil
        }
    }

    /// Inserts a new file (and its track when playable); returns its id.
    @discardableResult
    public func insertFile(_ record: FileRecord, volume: VolumeRef) throws(SQLiteError) -> Int64 {
        let id = try withStatement(
            "INSERT INTO files(volume_id, path, size, mtime_ns, status, reason) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
        ) { statement throws(SQLiteError) -> Int64 in
            try statement.bind(volume.id, at: 1)
            try statement.bind(blob: record.path.bytes, at: 2)
            try statement.bind(record.size, at: 3)
            try statement.bind(record.mtimeNs, at: 4)
            try statement.bind(record.status.rawValue, at: 5)
            try statement.bind(record.reason, at: 6)
            try statement.run()
            return connection.lastInsertRowID
        }
        if case .audio(let tags, let stream) = record.outcome {
            try insertTrack(id: id, path: record.path, tags: tags, stream: stream)
        }
        return id
    }

    /// Replaces what is known about file `id` (a changed or moved file), keeping its id.
    public func updateFile(id: Int64, with record: FileRecord) throws(SQLiteError) {
        try deleteTrack(id: id)
        try withStatement(
            "UPDATE files SET path = ?2, size = ?3, mtime_ns = ?4, status = ?5, reason = ?6 WHERE id = ?1"
        ) { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            try statement.bind(blob: record.path.bytes, at: 2)
            try statement.bind(record.size, at: 3)
            try statement.bind(record.mtimeNs, at: 4)
            try statement.bind(record.status.rawValue, at: 5)
            try statement.bind(record.reason, at: 6)
            try statement.run()
        }
        if case .audio(let tags, let stream) = record.outcome {
            try insertTrack(id: id, path: record.path, tags: tags, stream: stream)
        }
    }

    /// Tracks of `volume` whose length is an estimate (`Indexer.refineEstimates`), by path.
    public func estimatedTracks(of volume: VolumeRef) throws(SQLiteError) -> [(id: Int64, path: PathBytes)] {
        try withStatement(
            """
            SELECT f.id, f.path FROM files f JOIN tracks t ON t.id = f.id
            WHERE f.volume_id = ?1 AND f.status = 'ok' AND t.duration_estimated != 0 ORDER BY f.path
            """
        ) { statement throws(SQLiteError) in
            try statement.bind(volume.id, at: 1)
            var result: [(id: Int64, path: PathBytes)] = []
            while try statement.step() == .row {
                result.append((statement.int64(at: 0), PathBytes(statement.blob(at: 1))))
            }
            return result
        }
    }

    /// Stores the length a whole walk of track `id`'s stream found (only the length: its tags were read at the
    /// first probe, and the file has not changed since, or the index run would have read it again).
    public func setLength(id: Int64, of stream: StreamInfo) throws(SQLiteError) {
        try withStatement(
            "UPDATE tracks SET frames = ?2, duration_ms = ?3, duration_estimated = ?4 WHERE id = ?1"
        ) { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            try statement.bind(stream.frames, at: 2)
            try statement.bind(stream.durationMs, at: 3)
            try statement.bind(stream.isEstimate ? 1 : 0, at: 4)
            try statement.run()
        }
    }

    /// Deletes file `id`; its track, chapter and FTS rows go with it.
    public func deleteFile(id: Int64) throws(SQLiteError) {
        try withStatement("DELETE FROM files WHERE id = ?1") { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            try statement.run()
        }
    }

    /// Marks file `id` unplayable with `reason` and removes its track (and FTS rows).
    public func markUnplayable(id: Int64, reason: String) throws(SQLiteError) {
        try deleteTrack(id: id)
        try withStatement("UPDATE files SET status = 'unplayable', reason = ?2 WHERE id = ?1") {
            statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            try statement.bind(reason, at: 2)
            try statement.run()
        }
    }

    func deleteTrack(id: Int64) throws(SQLiteError) {
        try withStatement("DELETE FROM tracks WHERE id = ?1") { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            try statement.run()
        }
    }

    func insertTrack(id: Int64, path: PathBytes, tags: TagInfo, stream: StreamInfo) throws(SQLiteError) {
        try withStatement(
            """
            INSERT INTO tracks(id, title, artist, album, album_artist, track, track_total, disc, disc_total,
                year, genre, duration_ms, frames, sample_rate, channels, codec,
                rg_track_gain, rg_album_gain, rg_track_peak, bits_per_sample, rg_album_peak, header_gain,
                duration_estimated, story)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,
                ?22, ?23, ?24)
            """
        ) { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            try statement.bind(tags.title, at: 2)
            try statement.bind(tags.artist, at: 3)
            try statement.bind(tags.album, at: 4)
            try statement.bind(tags.albumArtist, at: 5)
            try statement.bind(tags.track, at: 6)
            try statement.bind(tags.trackTotal, at: 7)
            try statement.bind(tags.disc, at: 8)
            try statement.bind(tags.discTotal, at: 9)
            try statement.bind(tags.year, at: 10)
            try statement.bind(tags.genre, at: 11)
            try statement.bind(stream.durationMs, at: 12)
            try statement.bind(stream.frames, at: 13)
            try statement.bind(stream.sampleRate, at: 14)
            try statement.bind(stream.channels, at: 15)
            try statement.bind(stream.codec, at: 16)
            try statement.bind(tags.replayGainTrack, at: 17)
            try statement.bind(tags.replayGainAlbum, at: 18)
            try statement.bind(tags.replayGainTrackPeak, at: 19)
            try statement.bind(stream.bitsPerSample, at: 20)
            try statement.bind(tags.replayGainAlbumPeak, at: 21)
            try statement.bind(tags.headerGain, at: 22)
            try statement.bind(stream.isEstimate ? 1 : 0, at: 23)
            try statement.bind(Self.storyKind(of: tags, path: path)?.rawValue, at: 24)
            try statement.run()
        }
        try insertChapters(
            Chapter.cleaned(tags.chapters, durationMs: stream.isEstimate ? nil : stream.durationMs), of: id)
        try withStatement(
            "INSERT INTO tracks_fts(rowid, title, artist, album, album_artist) VALUES (?1, ?2, ?3, ?4, ?5)"
        ) { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            let more = tags.moreValues
            try statement.bind(FTSText.searchForm(tags.title, more.titles), at: 2)
            try statement.bind(FTSText.searchForm(tags.artist, more.artists), at: 3)
            try statement.bind(FTSText.searchForm(tags.album, more.albums), at: 4)
            try statement.bind(FTSText.searchForm(tags.albumArtist, more.albumArtists), at: 5)
            try statement.run()
        }
        try withStatement("INSERT INTO paths_fts(rowid, path, name) VALUES (?1, ?2, ?3)") {
            statement throws(SQLiteError) in
            let display = path.display
            let name = display.split(separator: "/").last.map(String.init) ?? display
            try statement.bind(id, at: 1)
            try statement.bind(FTSText.indexForm(display), at: 2)
            try statement.bind(FTSText.indexForm(name), at: 3)
            try statement.run()
        }
    }
}
