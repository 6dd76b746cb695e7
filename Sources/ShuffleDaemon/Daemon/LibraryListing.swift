import LibPThread
import ShuffleCore

/// Where listings are built: a queue of its own, so a long listing never holds up `blocking` calls.
let listingExecutor = QueueExecutor(label: "shufflebox.listing")

/// One stick's playable tracks in memory, by path, with an index by id and the counts `stats` reports.
/// Each song is held once (the index holds places, not copies), and a tag many songs share (an artist, an
/// album) is one string they all point at: memory is what a Pi has least of.
struct LibraryListing: Sendable {
    /// By path.
    let songs: [SongInfo]
    /// The place in `songs` of each track id.
    private let places: [Int64: Int32]
    /// Tracks, distinct artists and albums, total time.
    let counts: LibraryCounts

    /// The track `id`, if it is playable.
    subscript(id id: Int64) -> SongInfo? { places[id].map { songs[Int($0)] } }

    /// Indexes the songs `builder` gathered (the database lists them by path bytes; sorted here by their
    /// display form).
    init(_ builder: consuming Builder) {
        var songs = builder.takeSongs()
        // In place: the array has one owner here, so sorting copies nothing.
        songs.sort { $0.path < $1.path }
        var places: [Int64: Int32] = [:]
        places.reserveCapacity(songs.count)
        var artists = Set<String>()
        var albums = Set<String>()
        var playtime: Int64 = 0
        for (place, song) in songs.enumerated() {
            places[song.id] = Int32(truncatingIfNeeded: place)
            if let artist = song.artist { artists.insert(artist) }
            if let album = song.album { albums.insert(album) }
            playtime += song.durationMs
        }
        self.songs = songs
        self.places = places
        counts = LibraryCounts(tracks: songs.count, artists: artists.count, albums: albums.count, playtimeMs: playtime)
    }

    /// Gathers songs one at a time as the database hands them over, each shared tag kept once.
    struct Builder {
        /// The songs so far, in the order added.
        private var songs: [SongInfo] = []
        /// One copy of each artist, album, album artist and genre too long to sit inside a `String` (over
        /// 15 UTF-8 bytes): at 10,000 tracks the same album name would otherwise be stored once per track.
        private var shared = Set<String>()

        /// Room for `expectedCount` songs, so the array is not grown by doubling (up to twice its bytes).
        init(expectedCount: Int) { songs.reserveCapacity(expectedCount) }

        /// Adds `song`, pointing its shared tags at the copies already held.
        mutating func add(_ song: SongInfo) {
            var song = song
            song.artist = share(song.artist)
            song.album = share(song.album)
            song.albumArtist = share(song.albumArtist)
            song.genre = share(song.genre)
            songs.append(song)
        }

        /// The songs gathered, handed over whole: the builder keeps no reference, so they can be sorted in place.
        fileprivate mutating func takeSongs() -> [SongInfo] {
            var taken: [SongInfo] = []
            swap(&taken, &songs)
            return taken
        }

        private mutating func share(_ text: String?) -> String? {
            guard let text, text.utf8.count > 15 else { return text }
            return shared.insert(text).memberAfterInsert
        }
    }
}
