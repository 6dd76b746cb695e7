import LibSQLite
import ShuffleCore

/// The shuffle's view of a volume's tags (`ShuffleGroups`): artist, album, disc and track of each
/// playable track, read in path order.
extension LibraryDatabase {
    /// The traits of every playable track of `volume`.
    public func shuffleGroups(of volume: VolumeRef) throws(LibraryError) -> ShuffleGroups {
        try wrap { () throws(SQLiteError) -> ShuffleGroups in
            try withStatement(
                """
                SELECT f.id, f.path, t.artist, t.album, t.album_artist, t.disc, t.track
                FROM files f JOIN tracks t ON t.id = f.id
                WHERE f.volume_id = ?1 AND f.status = 'ok' ORDER BY f.path
                """
            ) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                var groups = ShuffleGroups()
                while try statement.step() == .row {
                    let path = statement.blob(at: 1)
                    let folder = path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[..<$0]) } ?? []
                    groups.add(
                        TrackID(statement.int64(at: 0)), artist: statement.text(at: 2), album: statement.text(at: 3),
                        albumArtist: statement.text(at: 4), folder: folder, disc: statement.intOrNil(at: 5),
                        track: statement.intOrNil(at: 6))
                }
                return groups
            }
        }
    }
}

extension LibraryStore {
    /// The traits of every playable track of `volume`, for the shuffle.
    public func shuffleGroups(of volume: VolumeRef) throws(LibraryError) -> ShuffleGroups {
        try perform { database throws(LibraryError) in try database.shuffleGroups(of: volume) }
    }
}

extension VolumeCatalog {
    /// The traits of the volume's playable tracks; for a book, its parts as one album ranked in book order
    /// (`pathRank` is each part's place in the book), so `in-order` and `albums` play them as the book runs.
    public func shuffleGroups() async throws -> ShuffleGroups {
        guard case .book(let book, _) = selection else { return try await store.shuffleGroups(of: volume) }
        var groups = ShuffleGroups()
        for (rank, part) in book.parts.enumerated() {
            groups.set(
                part, ShuffleTraits(artist: 0, album: 1, albumPlace: 0, pathRank: UInt32(truncatingIfNeeded: rank)))
        }
        return groups
    }
}
