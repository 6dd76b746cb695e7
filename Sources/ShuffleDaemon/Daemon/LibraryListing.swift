import LibPThread
import ShuffleCore

/// Where listings are built: a queue of its own, so a long listing never holds up `blocking` calls.
let listingExecutor = QueueExecutor(label: "shufflebox.listing")

/// One stick's playable tracks in memory, by id and by path, with the counts `stats` reports.
struct LibraryListing: Sendable {
    /// By path.
    let songs: [SongInfo]
    /// By track id.
    let byID: [Int64: SongInfo]
    /// Tracks, distinct artists and albums, total time.
    let counts: LibraryCounts

    /// Indexes `songs` (sorted here by path).
    init(_ songs: [SongInfo]) {
        self.songs = songs.sorted { $0.path < $1.path }
        var byID: [Int64: SongInfo] = [:]
        byID.reserveCapacity(songs.count)
        var artists = Set<String>()
        var albums = Set<String>()
        var playtime: Int64 = 0
        for song in songs {
            byID[song.id] = song
            if let artist = song.artist { artists.insert(artist) }
            if let album = song.album { albums.insert(album) }
            playtime += song.durationMs
        }
        self.byID = byID
        counts = LibraryCounts(tracks: songs.count, artists: artists.count, albums: albums.count, playtimeMs: playtime)
    }
}
