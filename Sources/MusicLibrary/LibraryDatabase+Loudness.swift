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

/// A track waiting for its loudness measurement, with its file's size and time as the index had them when
/// it was listed: the measurement is stored only while they still hold.
public struct PendingLoudness: Sendable, Equatable {
    /// The track.
    public let id: TrackID
    /// Its path, relative to the volume's root.
    public let path: PathBytes
    /// The file's size when listed.
    let size: Int64
    /// The file's modification time (ns) when listed.
    let mtimeNs: Int64
}

/// The background loudness scan's reads and writes.
extension LibraryDatabase {
    /// Playable tracks of `volume` with no ReplayGain tag and no measurement yet, by path (at most `limit`).
    public func tracksToMeasure(of volume: VolumeRef, limit: Int = 1_000_000) throws(LibraryError)
        -> [PendingLoudness]
    {
        try wrap { () throws(SQLiteError) -> [PendingLoudness] in
            try withStatement(
                """
                SELECT f.id, f.path, f.size, f.mtime_ns FROM files f JOIN tracks t ON t.id = f.id
                WHERE f.volume_id = ?1 AND f.status = 'ok' AND t.loudness_state = 0
                    AND t.rg_track_gain IS NULL AND t.rg_album_gain IS NULL
                ORDER BY f.path LIMIT ?2
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(limit, at: 2)
                var result: [PendingLoudness] = []
                while try statement.step() == .row {
                    result.append(
                        PendingLoudness(
                            id: TrackID(statement.int64(at: 0)), path: PathBytes(statement.blob(at: 1)),
                            size: statement.int64(at: 2), mtimeNs: statement.int64(at: 3)))
                }
                return result
            }
        }
    }

    /// Stores the measurement of `track` (nil: it could not be decoded; not tried again until it changes), and
    /// says whether it did. A track the indexer has removed or rewritten since it was listed is left alone:
    /// its row is gone, or it is a new file's, pending again, and a measurement of the old file must not land
    /// on it (the indexer keeps a changed file's id).
    @discardableResult
    public func setLoudness(_ loudness: TrackLoudness?, of track: PendingLoudness) throws(LibraryError) -> Bool {
        try wrap { () throws(SQLiteError) -> Bool in
            try withStatement(
                """
                UPDATE tracks SET loudness_state = ?2, loudness_lufs = ?3, loudness_peak = ?4
                WHERE id = ?1 AND loudness_state = 0
                    AND EXISTS (SELECT 1 FROM files WHERE id = ?1 AND size = ?5 AND mtime_ns = ?6)
                """
            ) { statement throws(SQLiteError) -> Bool in
                try statement.bind(track.id.rawValue, at: 1)
                try statement.bind(
                    loudness == nil ? LoudnessState.failed.rawValue : LoudnessState.measured.rawValue, at: 2)
                try statement.bind(loudness?.integratedLUFS, at: 3)
                try statement.bind(loudness?.truePeak, at: 4)
                try statement.bind(track.size, at: 5)
                try statement.bind(track.mtimeNs, at: 6)
                try statement.run()
                return connection.changes > 0
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
