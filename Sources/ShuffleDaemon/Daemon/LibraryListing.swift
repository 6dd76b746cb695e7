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
    /// Where each track id is in `songs`.
    private let index: IDIndex
    /// Tracks, distinct artists and albums, total time.
    let counts: LibraryCounts

    /// The track `id`, if it is playable.
    subscript(id id: Int64) -> SongInfo? {
        place(id: id).map { songs[$0] }
    }

    /// Where the track `id` is in `songs`, if it is playable.
    func place(id: Int64) -> Int? {
        switch index {
        case .dense(let first, let places):
            guard id >= first, id - first < places.count else { return nil }
            let place = places[Int(id - first)]
            return place < 0 ? nil : Int(place)
        case .sorted(let ids, let places):
            return ids.withUnsafeBufferPointer { ids in
                var low = 0
                var high = ids.count
                while low < high {
                    let middle = (low + high) / 2
                    if ids[middle] < id { low = middle + 1 } else { high = middle }
                }
                return low < ids.count && ids[low] == id ? Int(places[low]) : nil
            }
        }
    }

    /// Writes the song lines of each of `ids` that is playable (`MPDBackend.writeSongs`), its place in the
    /// queue its index in `ids`: 32 songs at a time, each 32 read side by side before they are written
    /// (`SongList.write(_:tags:into:)`).
    func writeSongs(_ ids: ArraySlice<Int64>, tags: [MPDTag], into out: inout MPDWriter) {
        var batch: [(position: Int, place: Int?)] = []
        batch.reserveCapacity(32)
        for index in ids.indices {
            if let position = place(id: ids[index]) { batch.append((position, index)) }
            if batch.count == 32 || index == ids.endIndex - 1 {
                songs.write(batch, tags: tags, into: &out)
                batch.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Track ids are the database's row ids: a stick's run from its first to its last with few gaps (the
    /// unplayable files, tracks removed since), so a table from id to place is 4 bytes an id and one step
    /// (a 100,000-track `playlistinfo` looks up every one), where a dictionary takes about 20 bytes a song.
    /// Ids spread wider than 4 a song are found by binary search among the sorted ids (12 bytes a song).
    private enum IDIndex: Sendable {
        case dense(first: Int64, places: [Int32])
        case sorted(ids: [Int64], places: [Int32])

        init(_ songs: SongList) {
            guard let first = songs.indices.lazy.map(songs.id(at:)).min(),
                let last = songs.indices.lazy.map(songs.id(at:)).max()
            else {
                self = .sorted(ids: [], places: [])
                return
            }
            let span = last.subtractingReportingOverflow(first)
            if !span.overflow, span.partialValue < Int64(songs.count) * 4 + 1_024 {
                var places = [Int32](repeating: -1, count: Int(span.partialValue) + 1)
                for place in songs.indices {
                    places[Int(songs.id(at: place) - first)] = Int32(truncatingIfNeeded: place)
                }
                self = .dense(first: first, places: places)
            } else {
                let places = songs.indices.map { Int32(truncatingIfNeeded: $0) }.sorted {
                    songs.id(at: Int($0)) < songs.id(at: Int($1))
                }
                self = .sorted(ids: places.map { songs.id(at: Int($0)) }, places: places)
            }
        }
    }

    /// Indexes the songs `builder` gathered (the database lists them by path bytes; sorted here by their
    /// display form).
    init(_ builder: consuming SongList.Builder, updatedAt: Int64 = 0) {
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
        index = IDIndex(songs)
        counts = LibraryCounts(
            tracks: songs.count, artists: artists.count, albums: albums.count, playtimeMs: playtime,
            updatedAt: updatedAt)
    }
}
