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
    /// The places in `songs`, in the order of their track ids (4 bytes a song, where a dictionary from id to
    /// place takes about 20).
    private let placesByID: [Int32]
    /// Tracks, distinct artists and albums, total time.
    let counts: LibraryCounts

    /// The track `id`, if it is playable.
    subscript(id id: Int64) -> SongInfo? {
        var low = 0
        var high = placesByID.count
        while low < high {
            let middle = (low + high) / 2
            if songs.id(at: Int(placesByID[middle])) < id { low = middle + 1 } else { high = middle }
        }
        guard low < placesByID.count, songs.id(at: Int(placesByID[low])) == id else { return nil }
        return songs[Int(placesByID[low])]
    }

    /// Indexes the songs `builder` gathered (the database lists them by path bytes; sorted here by their
    /// display form).
    init(_ builder: consuming SongList.Builder) {
        let songs = builder.finish().sortedByPath()
        var artists = Set<String>()
        var albums = Set<String>()
        var playtime: Int64 = 0
        for place in songs.indices {
            if let artist = songs.tag(.artist, at: place) { artists.insert(artist) }
            if let album = songs.tag(.album, at: place) { albums.insert(album) }
            playtime += songs.durationMs(at: place)
        }
        self.songs = songs
        placesByID = songs.indices.map { Int32(truncatingIfNeeded: $0) }.sorted {
            songs.id(at: Int($0)) < songs.id(at: Int($1))
        }
        counts = LibraryCounts(tracks: songs.count, artists: artists.count, albums: albums.count, playtimeMs: playtime)
    }
}
