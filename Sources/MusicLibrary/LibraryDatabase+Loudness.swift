import LibSQLite
import ShuffleCore

/// Where a track's loudness measurement stands (`tracks.loudness_state`).
public enum LoudnessState: Int64, Sendable {
    /// Not measured yet (or measurement cut short): the next scan measures it.
    case pending = 0
    /// Measured; `loudness_lufs` and `loudness_peak` hold the result.
    case measured = 1
    /// The file could not be decoded to its end: not tried again until it changes.
    case failed = 2
}

/// The background loudness scan's reads and writes.
extension LibraryDatabase {
    /// Playable tracks of `volume` with no ReplayGain tag and no measurement yet, by path (at most `limit`).
    public func tracksToMeasure(of volume: VolumeRef, limit: Int = 1_000_000) throws(LibraryError)
        -> [(id: TrackID, path: PathBytes)]
    {
        try wrap { () throws(SQLiteError) -> [(id: TrackID, path: PathBytes)] in
            try withStatement(
                """
                SELECT f.id, f.path FROM files f JOIN tracks t ON t.id = f.id
                WHERE f.volume_id = ?1 AND f.status = 'ok' AND t.loudness_state = 0
                    AND t.rg_track_gain IS NULL AND t.rg_album_gain IS NULL
                ORDER BY f.path LIMIT ?2
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(limit, at: 2)
                var result: [(id: TrackID, path: PathBytes)] = []
                while try statement.step() == .row {
                    result.append((TrackID(statement.int64(at: 0)), PathBytes(statement.blob(at: 1))))
                }
                return result
            }
        }
    }

    /// Stores the measurement of track `id` (nil: it could not be decoded; not tried again until it changes).
    /// A track the indexer has since removed or rewritten is left alone: its row is gone, or new and pending.
    public func setLoudness(_ loudness: TrackLoudness?, of id: TrackID) throws(LibraryError) {
        try wrap { () throws(SQLiteError) in
            try withStatement(
                "UPDATE tracks SET loudness_state = ?2, loudness_lufs = ?3, loudness_peak = ?4 WHERE id = ?1"
            ) { statement throws(SQLiteError) in
                try statement.bind(id.rawValue, at: 1)
                try statement.bind(
                    loudness == nil ? LoudnessState.failed.rawValue : LoudnessState.measured.rawValue, at: 2)
                try statement.bind(loudness?.integratedLUFS, at: 3)
                try statement.bind(loudness?.truePeak, at: 4)
                try statement.run()
            }
        }
    }

    /// How many playable tracks of `volume` are measured, and how many still wait for it.
    public func loudnessCounts(of volume: VolumeRef) throws(LibraryError) -> (measured: Int, pending: Int) {
        try wrap { () throws(SQLiteError) -> (measured: Int, pending: Int) in
            try withStatement(
                """
                SELECT sum(t.loudness_state = 1),
                    sum(t.loudness_state = 0 AND t.rg_track_gain IS NULL AND t.rg_album_gain IS NULL)
                FROM files f JOIN tracks t ON t.id = f.id WHERE f.volume_id = ?1 AND f.status = 'ok'
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                guard try statement.step() == .row else { return (0, 0) }
                return (Int(statement.int64OrNil(at: 0) ?? 0), Int(statement.int64OrNil(at: 1) ?? 0))
            }
        }
    }
}
