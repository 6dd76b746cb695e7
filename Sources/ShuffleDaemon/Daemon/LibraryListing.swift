import LibPThread
import ShuffleCore

/// Where listings are built: a queue of its own, so a long listing never holds up `blocking` calls.
let listingExecutor = QueueExecutor(label: "shufflebox.listing")

/// One stick's playable tracks in memory, by path, with an index by id and the counts `stats` reports.
/// Each song is held once, compactly (`SongList`: its text in one buffer, a shared tag once), and the index
/// holds places, not copies: memory is what a Pi has least of.
struct LibraryListing: Sendable {
    /// By path.
    let songs: SongList
    /// The place in `songs` of each track id.
    private let places: [Int64: Int32]
    /// Tracks, distinct artists and albums, total time.
    let counts: LibraryCounts

    /// The track `id`, if it is playable.
    subscript(id id: Int64) -> SongInfo? { places[id].map { songs[Int($0)] } }

    /// Indexes the songs `builder` gathered (the database lists them by path bytes; sorted here by their
    /// display form).
    init(_ builder: consuming SongList.Builder) {
        let songs = builder.finish().sortedByPath()
        var places: [Int64: Int32] = [:]
        places.reserveCapacity(songs.count)
        var artists = Set<String>()
        var albums = Set<String>()
        var playtime: Int64 = 0
        for place in songs.indices {
            let song = songs[place]
            places[song.id] = Int32(truncatingIfNeeded: place)
            if let artist = song.artist { artists.insert(artist) }
            if let album = song.album { albums.insert(album) }
            playtime += song.durationMs
        }
        self.songs = songs
        self.places = places
        counts = LibraryCounts(tracks: songs.count, artists: artists.count, albums: albums.count, playtimeMs: playtime)
    }
}
