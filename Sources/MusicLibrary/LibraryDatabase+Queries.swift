import LibSQLite
import ShuffleCore

/// Reads: the listing, search, the player's catalog and the resume point.
extension LibraryDatabase {
    static let entryColumns = """
        f.id, f.path, f.status, f.reason, t.title, t.artist, t.album, t.album_artist, t.track, t.track_total,
        t.disc, t.disc_total, t.year, t.genre, t.duration_ms, t.rg_track_gain, t.rg_album_gain, t.rg_track_peak,
        t.codec, t.sample_rate, t.channels, t.bits_per_sample, t.frames, t.rg_album_peak, t.header_gain,
        t.duration_estimated, t.loudness_state, t.loudness_lufs, t.loudness_peak, f.mtime_ns, t.story
        """

    /// Every playable and unplayable file of `volume` (not the ignored non-audio ones), by path bytes.
    public func entries(of volume: VolumeRef) throws(LibraryError) -> [LibraryEntry] {
        var result: [LibraryEntry] = []
        try forEachEntry(of: volume) { result.append($0) }
        return result
    }

    /// Hands `body` every playable and unplayable file of `volume`, by path bytes, one row at a time: a
    /// caller that keeps only part of each entry never holds the whole listing as entries (at 10,000 tracks
    /// that array alone is several MiB, and freed it leaves the heap that much larger for good).
    public func forEachEntry(of volume: VolumeRef, _ body: (LibraryEntry) -> Void) throws(LibraryError) {
        try wrap { () throws(SQLiteError) in
            try withStatement(
                """
                SELECT \(Self.entryColumns) FROM files f LEFT JOIN tracks t ON t.id = f.id
                WHERE f.volume_id = ?1 AND f.status IN ('ok', 'unplayable') ORDER BY f.path
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                while try statement.step() == .row { body(Self.entry(from: statement)) }
            }
        }
    }

    /// Tracks of `volume` matching `query` in their tags or path, best first (bm25); a track found
    /// through both tables counts once, at its better rank. Empty when the query has no words.
    public func search(_ query: String, in volume: VolumeRef, limit: Int) throws(LibraryError) -> [LibraryEntry] {
        guard let match = SearchQuery.matchExpression(for: query) else { return [] }
        return try wrap { () throws(SQLiteError) -> [LibraryEntry] in
            try withStatement(Self.searchSQL) { statement throws(SQLiteError) in
                try statement.bind(match, at: 1)
                try statement.bind(volume.id, at: 2)
                try statement.bind(limit, at: 3)
                var result: [LibraryEntry] = []
                while try statement.step() == .row { result.append(Self.entry(from: statement)) }
                return result
            }
        }
    }

    /// The search statement: `?1` the MATCH expression, `?2` the volume id, `?3` the limit.
    public static let searchSQL = """
        SELECT \(entryColumns) FROM (
            SELECT id, min(rank) AS rank FROM (
                SELECT rowid AS id, bm25(tracks_fts) AS rank FROM tracks_fts WHERE tracks_fts MATCH ?1
                UNION ALL
                SELECT rowid AS id, bm25(paths_fts) AS rank FROM paths_fts WHERE paths_fts MATCH ?1
            ) GROUP BY id
        ) hits
        JOIN files f ON f.id = hits.id JOIN tracks t ON t.id = hits.id
        WHERE f.volume_id = ?2
        ORDER BY hits.rank, f.path LIMIT ?3
        """

    /// How many tracks of `volume` match `query` (no limit).
    public func searchCount(_ query: String, in volume: VolumeRef) throws(LibraryError) -> Int {
        guard let match = SearchQuery.matchExpression(for: query) else { return 0 }
        return try wrap { () throws(SQLiteError) -> Int in
            try withStatement(
                """
                SELECT count(*) FROM (
                    SELECT rowid AS id FROM tracks_fts WHERE tracks_fts MATCH ?1
                    UNION
                    SELECT rowid AS id FROM paths_fts WHERE paths_fts MATCH ?1
                ) hits JOIN files f ON f.id = hits.id WHERE f.volume_id = ?2
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(match, at: 1)
                try statement.bind(volume.id, at: 2)
                guard try statement.step() == .row else { return 0 }
                return Int(statement.int64(at: 0))
            }
        }
    }

    /// The ids of every playable track of `volume` (of `formats`, when given), ascending.
    public func playableTrackIDs(of volume: VolumeRef, formats: Set<String>? = nil) throws(LibraryError) -> [TrackID] {
        try wrap { () throws(SQLiteError) -> [TrackID] in
            try withStatement(
                """
                SELECT f.id FROM files f JOIN tracks t ON t.id = f.id
                WHERE f.volume_id = ?1 AND f.status = 'ok' AND (?2 IS NULL OR instr(?2, ',' || t.codec || ',') > 0)
                ORDER BY f.id
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(formats.map { "," + $0.sorted().joined(separator: ",") + "," }, at: 2)
                var result: [TrackID] = []
                while try statement.step() == .row { result.append(TrackID(statement.int64(at: 0))) }
                return result
            }
        }
    }

    /// One playable track of `volume` with its absolute path under the volume's root, its story kind and its
    /// chapters, or nil when `id` is not a playable track of it.
    public func playableTrack(_ id: TrackID, of volume: VolumeRef) throws(LibraryError) -> CatalogTrack? {
        let found = try wrap { () throws(SQLiteError) -> CatalogTrack? in
            try withStatement(
                """
                SELECT \(Self.entryColumns)
                FROM files f JOIN tracks t ON t.id = f.id
                WHERE f.id = ?1 AND f.volume_id = ?2 AND f.status = 'ok'
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(id.rawValue, at: 1)
                try statement.bind(volume.id, at: 2)
                guard try statement.step() == .row else { return nil }
                let entry = Self.entry(from: statement)
                var tags = entry.tags
                if tags.title?.isEmpty ?? true { tags.title = Self.fileTitle(entry.path) }
                guard let stream = entry.stream else { return nil }
                tags.chapters = try chapters(of: entry.id)
                return CatalogTrack(
                    id: entry.id, path: volume.root.appending(entry.path), relativePath: entry.path, tags: tags,
                    stream: stream, loudness: entry.loudness)
            }
        }
        guard var track = found else { return nil }
        track.albumLoudness = try albumLoudness(of: track, in: volume)
        return track
    }

    /// The loudness of `track`'s album: the tracks directly in its folder with the same album tag (none: the
    /// folder's untagged tracks), combined (`TrackLoudness.album`) once every one of them is measured; nil
    /// before, and for a track alone in its album (its own measurement says the same).
    func albumLoudness(of track: CatalogTrack, in volume: VolumeRef) throws(LibraryError) -> TrackLoudness? {
        guard track.loudness != nil else { return nil }
        let path = track.relativePath.bytes
        let folder = path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[...$0]) } ?? []
        // The folder's paths sort between "folder/" and "folder0" ('0' follows '/'): a range of the
        // (volume_id, path) index, not a scan of the stick.
        let end = folder.isEmpty ? [0xFF] : Array(folder.dropLast()) + [UInt8(ascii: "0")]
        return try wrap { () throws(SQLiteError) -> TrackLoudness? in
            try withStatement(
                """
                SELECT t.loudness_state, t.loudness_lufs, t.loudness_peak, t.frames, t.sample_rate
                FROM files f JOIN tracks t ON t.id = f.id
                WHERE f.volume_id = ?1 AND f.path >= ?2 AND f.path < ?3 AND f.status = 'ok' AND t.album IS ?4
                    AND instr(substr(f.path, ?5), '/') = 0
                LIMIT 1001
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(blob: folder, at: 2)
                try statement.bind(blob: end, at: 3)
                try statement.bind(track.tags.album, at: 4)
                try statement.bind(folder.count + 1, at: 5)
                var parts: [(loudness: TrackLoudness, seconds: Double)] = []
                while try statement.step() == .row {
                    // One track not measured yet (or not measurable): no album value until it is.
                    guard statement.int64(at: 0) == LoudnessState.measured.rawValue, parts.count < 1000 else {
                        return nil
                    }
                    let rate = Double(max(1, statement.int64(at: 4)))
                    parts.append(
                        (
                            TrackLoudness(
                                integratedLUFS: statement.doubleOrNil(at: 1), truePeak: statement.doubleOrNil(at: 2)),
                            Double(statement.int64(at: 3)) / rate
                        ))
                }
                return parts.count > 1 ? TrackLoudness.album(parts) : nil
            }
        }
    }

    /// The resume point of `volume` (of its station `station`; nil: the whole stick), if one was saved.
    public func loadPlaybackState(of volume: VolumeRef, station: String? = nil) throws(LibraryError) -> PlaybackState? {
        let key = PlaybackKey(volume: volume.id, station: station)
        return try wrap { () throws(SQLiteError) -> PlaybackState? in
            try withStatement(
                "SELECT order_blob, cursor, position_ms, volume, paused FROM \(key.table) WHERE \(key.condition)"
            ) { statement throws(SQLiteError) in
                try key.bind(statement)
                guard try statement.step() == .row else { return nil }
                return PlaybackState(
                    order: PlaybackOrderCoding.decode(statement.blob(at: 0)), cursor: Int(statement.int64(at: 1)),
                    positionMs: statement.int64(at: 2), volume: Int(statement.int64(at: 3)),
                    paused: statement.int64(at: 4) != 0)
            }
        }
    }

    /// The volume level stored last for `volume`, by whichever of its stations saved last.
    public func storedVolumeLevel(of volume: VolumeRef) throws(LibraryError) -> Int? {
        try wrap { () throws(SQLiteError) -> Int? in
            try withStatement(
                """
                SELECT volume FROM (SELECT volume, updated_at FROM playback WHERE volume_id = ?1
                    UNION ALL SELECT volume, updated_at FROM station_playback WHERE volume_id = ?1)
                ORDER BY updated_at DESC LIMIT 1
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                guard try statement.step() == .row else { return nil }
                return Int(statement.int64(at: 0))
            }
        }
    }

    /// The station of `volume` that played last (nil: the whole stick).
    public func currentStation(of volume: VolumeRef) throws(LibraryError) -> String? {
        try playing(.station, of: volume)
    }

    /// Records the station of `volume` that plays now (nil: the whole stick).
    public func setCurrentStation(_ station: String?, of volume: VolumeRef) throws(LibraryError) {
        try setPlaying(.station, station, of: volume)
    }

    /// Stores the resume point of `volume` (of its station `station`; nil: the whole stick) in one small
    /// transaction.
    ///
    /// The connection otherwise runs `synchronous = NORMAL` (WAL commits reach the disk at the next
    /// checkpoint), which would let a power cut take the last few resume points with it. This one
    /// commit runs with `synchronous = FULL`, so it is on the card when the call returns: one fsync
    /// every 2 seconds while playing, none while paused. The order is rewritten only when it changed.
    public func savePlaybackState(
        _ state: PlaybackState, of volume: VolumeRef, station: String? = nil, now: Int64
    ) throws(LibraryError) {
        let key = PlaybackKey(volume: volume.id, station: station)
        let orderChanged = savedOrders[key] != state.order
        do {
            try connection.execute("PRAGMA synchronous = FULL")
        } catch {
            throw .database(path: path, error)
        }
        defer { try? connection.execute("PRAGMA synchronous = NORMAL") }
        // Where (?1, ?2) and the point (?3 to ?8); the order, when written, is ?9.
        func bindPoint(_ statement: Statement) throws(SQLiteError) {
            try key.bind(statement)
            try statement.bind(state.cursor, at: 3)
            try statement.bind(state.currentTrack?.rawValue, at: 4)
            try statement.bind(state.positionMs, at: 5)
            try statement.bind(state.volume, at: 6)
            try statement.bind(state.paused ? 1 : 0, at: 7)
            try statement.bind(now, at: 8)
        }
        try transaction { () throws(SQLiteError) in
            var updated = false
            if !orderChanged {
                updated = try withStatement(
                    """
                    UPDATE \(key.table) SET cursor = ?3, track_id = ?4, position_ms = ?5, volume = ?6, paused = ?7,
                        updated_at = ?8 WHERE \(key.condition)
                    """
                ) { statement throws(SQLiteError) in
                    try bindPoint(statement)
                    try statement.run()
                    return connection.changes > 0
                }
            }
            if !updated {
                try withStatement(
                    """
                    INSERT INTO \(key.table)(volume_id, \(key.stationColumn) order_blob, cursor, track_id,
                        position_ms, volume, paused, updated_at) VALUES (?1, \(key.stationValue) ?9, ?3, ?4, ?5, ?6, ?7, ?8)
                    ON CONFLICT(\(key.keyColumns)) DO UPDATE SET order_blob = excluded.order_blob,
                        cursor = excluded.cursor, track_id = excluded.track_id, position_ms = excluded.position_ms,
                        volume = excluded.volume, paused = excluded.paused, updated_at = excluded.updated_at
                    """
                ) { statement throws(SQLiteError) in
                    try bindPoint(statement)
                    try statement.bind(blob: PlaybackOrderCoding.encode(state.order), at: 9)
                    try statement.run()
                }
            }
        }
        savedOrders[key] = state.order
    }

    /// Marks track `id` of `volume` unplayable (a file that failed while playing).
    public func markUnplayable(_ id: TrackID, reason: String) throws(LibraryError) {
        try transaction { () throws(SQLiteError) in try markUnplayable(id: id.rawValue, reason: reason) }
    }

    static func entry(from statement: Statement) -> LibraryEntry {
        var tags = TagInfo(
            title: statement.text(at: 4), artist: statement.text(at: 5), album: statement.text(at: 6),
            albumArtist: statement.text(at: 7), track: statement.intOrNil(at: 8), trackTotal: statement.intOrNil(at: 9),
            disc: statement.intOrNil(at: 10), discTotal: statement.intOrNil(at: 11), year: statement.intOrNil(at: 12),
            genre: statement.text(at: 13), replayGainTrack: statement.doubleOrNil(at: 15),
            replayGainAlbum: statement.doubleOrNil(at: 16), replayGainTrackPeak: statement.doubleOrNil(at: 17),
            replayGainAlbumPeak: statement.doubleOrNil(at: 23), headerGain: statement.doubleOrNil(at: 24))
        tags.story = statement.text(at: 30).flatMap(StoryKind.init(rawValue:))
        // A track row (LEFT JOIN: none for unplayable files) always has a codec.
        let stream = statement.text(at: 18).map { codec in
            StreamInfo(
                codec: codec, sampleRate: Int(statement.int64(at: 19)), channels: Int(statement.int64(at: 20)),
                frames: statement.int64(at: 22), isEstimate: statement.int64(at: 25) != 0,
                bitsPerSample: statement.intOrNil(at: 21))
        }
        return LibraryEntry(
            id: TrackID(statement.int64(at: 0)), path: PathBytes(statement.blob(at: 1)),
            status: FileStatus(rawValue: statement.text(at: 2) ?? "") ?? .unplayable, reason: statement.text(at: 3),
            tags: tags, durationMs: statement.int64OrNil(at: 14), stream: stream,
            loudness: statement.int64OrNil(at: 26) == LoudnessState.measured.rawValue
                ? TrackLoudness(integratedLUFS: statement.doubleOrNil(at: 27), truePeak: statement.doubleOrNil(at: 28))
                : nil,
            modifiedNs: statement.int64OrNil(at: 29))
    }

    /// The file name without its extension, for a track without a title tag.
    public static func fileTitle(_ path: PathBytes) -> String {
        let name = path.display.split(separator: "/").last.map(String.init) ?? path.display
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

/// The shuffle order as stored in `playback.order_blob`: little-endian Int64 track ids, back to back.
enum PlaybackOrderCoding {
    static func encode(_ order: [TrackID]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(order.count * 8)
        for id in order {
            let value = UInt64(bitPattern: id.rawValue)
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> [TrackID] {
        var order: [TrackID] = []
        order.reserveCapacity(bytes.count / 8)
        var index = 0
        while index + 8 <= bytes.count {
            var value: UInt64 = 0
            for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << UInt64(offset * 8) }
            order.append(TrackID(Int64(bitPattern: value)))
            index += 8
        }
        return order
    }
}

/// Where a resume point lives: the whole stick's in `playback` (keyed by the volume), a station's in
/// `station_playback` (keyed by the volume and the station's name, parameter 2).
struct PlaybackKey: Hashable {
    /// The volume's row id.
    var volume: Int64
    /// The station's name; nil: the whole stick.
    var station: String?

    var table: String { station == nil ? "playback" : "station_playback" }
    var condition: String { station == nil ? "volume_id = ?1" : "volume_id = ?1 AND station = ?2" }
    var stationColumn: String { station == nil ? "" : "station," }
    var stationValue: String { station == nil ? "" : "?2," }
    /// The row's key, for an upsert that leaves the rest of the row (a book's `finished`) as it is.
    var keyColumns: String { station == nil ? "volume_id" : "volume_id, station" }

    /// Binds the volume (?1) and, for a station, its name (?2).
    func bind(_ statement: Statement) throws(SQLiteError) {
        try statement.bind(volume, at: 1)
        if let station { try statement.bind(station, at: 2) }
    }
}
