/// The orders of the `albums` and `in-order` modes.
///
/// `albums`: the albums in uniformly random order, each in disc and track order (then path order), every
/// album once per cycle; a track with no known album is an album of its own. `in-order`: path order.
public enum AlbumOrder {
    /// The album of `id` as a sort key: its number, or, unknown, a key of its own.
    static func albumKey(_ id: TrackID, _ groups: ShuffleGroups) -> Int64 {
        let album = groups[id].album
        return album != 0 ? Int64(album) : -id.rawValue
    }

    /// Whether `a` comes before `b` within one album: disc and track, then path, then id.
    static func inAlbum(_ a: TrackID, _ b: TrackID, _ groups: ShuffleGroups) -> Bool {
        let first = groups[a]
        let second = groups[b]
        if first.albumPlace != second.albumPlace { return first.albumPlace < second.albumPlace }
        if first.pathRank != second.pathRank { return first.pathRank < second.pathRank }
        return a < b
    }

    /// Whether `a` comes before `b` in path order (tracks with no traits last, by id).
    static func inPathOrder(_ a: TrackID, _ b: TrackID, _ groups: ShuffleGroups) -> Bool {
        let first = groups.traits[a]
        let second = groups.traits[b]
        switch (first, second) {
        case (let x?, let y?): return x.pathRank != y.pathRank ? x.pathRank < y.pathRank : a < b
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return a < b
        }
    }

    /// `tracks` as albums in random order; when there is more than one album, the first is not the album of
    /// `avoiding` (the track that just ended): the first album is swapped with a uniformly chosen other.
    public static func albums(
        _ tracks: [TrackID], groups: ShuffleGroups, avoiding: TrackID?, using random: inout SplitMix64
    ) -> [TrackID] {
        var blocks = albumBlocks(tracks, groups: groups)
        blocks.shuffle(using: &random)
        if blocks.count > 1, let avoiding, let first = blocks[0].first,
            albumKey(first, groups) == albumKey(avoiding, groups)
        {
            blocks.swapAt(0, Int.random(in: 1..<blocks.count, using: &random))
        }
        return blocks.flatMap { $0 }
    }

    /// `tracks` grouped by album (albums in order of first appearance), each album sorted.
    static func albumBlocks(_ tracks: [TrackID], groups: ShuffleGroups) -> [[TrackID]] {
        var index: [Int64: Int] = [:]
        var blocks: [[TrackID]] = []
        for track in tracks {
            let key = albumKey(track, groups)
            if let at = index[key] {
                blocks[at].append(track)
            } else {
                index[key] = blocks.count
                blocks.append([track])
            }
        }
        return blocks.map { $0.sorted { inAlbum($0, $1, groups) } }
    }

    /// `tracks` in path order.
    public static func inOrder(_ tracks: [TrackID], groups: ShuffleGroups) -> [TrackID] {
        tracks.sorted { inPathOrder($0, $1, groups) }
    }

    /// Adds `new` tracks to `order` after `cursor`, `albums` mode: a track whose album is still to come (or
    /// playing) joins it at its place in album order (never before the cursor); the other new albums join
    /// as whole albums, each at a uniformly chosen album boundary after the current album.
    static func insertAlbums(
        _ new: [TrackID], into order: inout [TrackID], cursor: Int, groups: ShuffleGroups,
        using random: inout SplitMix64
    ) {
        var strangers: [TrackID] = []
        for track in new {
            let key = albumKey(track, groups)
            // The album's places after (or at) the cursor, if it is there.
            let start = min(max(cursor, 0), order.count)
            let places = order.indices[start...].filter { albumKey(order[$0], groups) == key }
            guard let last = places.last else {
                strangers.append(track)
                continue
            }
            var place = last + 1
            for candidate in places where inAlbum(track, order[candidate], groups) {
                place = candidate
                break
            }
            order.insert(track, at: max(place, min(cursor + 1, order.count)))
        }
        for block in albumBlocks(strangers, groups: groups) {
            let boundaries = albumBoundaries(order, after: cursor, groups: groups)
            let place = boundaries[Int.random(in: 0..<boundaries.count, using: &random)]
            order.insert(contentsOf: block, at: place)
        }
    }

    /// The places after the current album (and its end) where a new album can go without splitting one.
    private static func albumBoundaries(_ order: [TrackID], after cursor: Int, groups: ShuffleGroups) -> [Int] {
        var place = min(max(cursor + 1, 0), order.count)
        if cursor >= 0, cursor < order.count {
            let current = albumKey(order[cursor], groups)
            while place < order.count && albumKey(order[place], groups) == current { place += 1 }
        }
        var boundaries = [place]
        guard place < order.count else { return boundaries }
        for next in (place + 1)...order.count
        where next == order.count || albumKey(order[next], groups) != albumKey(order[next - 1], groups) {
            boundaries.append(next)
        }
        return boundaries
    }

    /// Adds `new` tracks to `order` after `cursor`, `in-order` mode: at their place in path order, or
    /// right after the cursor when that place was already played.
    static func insertInOrder(_ new: [TrackID], into order: inout [TrackID], cursor: Int, groups: ShuffleGroups) {
        for track in new {
            let first = min(cursor + 1, order.count)
            var place = order.count
            for candidate in first..<order.count where inPathOrder(track, order[candidate], groups) {
                place = candidate
                break
            }
            order.insert(track, at: max(place, first))
        }
    }
}
