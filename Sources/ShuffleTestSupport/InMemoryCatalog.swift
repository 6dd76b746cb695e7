import ShuffleCore

/// A `TrackCatalog` held in memory, for engine tests: the tracks, what was marked unplayable, and every
/// resume point stored (in order).
public actor InMemoryCatalog: TrackCatalog {
    private var tracks: [CatalogTrack]
    /// Tracks marked unplayable, with the reasons, in the order they were marked.
    public private(set) var unplayable: [(TrackID, String)] = []
    /// Every resume point stored, oldest first.
    public private(set) var savedStates: [PlaybackState] = []
    private var stored: PlaybackState?

    /// Creates a catalog of `tracks`, optionally with a stored resume point.
    public init(tracks: [CatalogTrack], state: PlaybackState? = nil) {
        self.tracks = tracks
        stored = state
    }

    private var afterFirstRead: [CatalogTrack]?
    /// How many times the player read the list of ids.
    public private(set) var listReads = 0

    /// The ids of every track not marked unplayable, ascending.
    public func playableTrackIDs() async throws -> [TrackID] {
        listReads += 1
        let ids = playable.map(\.id).sorted()
        if let next = afterFirstRead {
            tracks = next
            afterFirstRead = nil
        }
        return ids
    }

    /// The track `id` when it is there and not marked unplayable.
    public func track(_ id: TrackID) async throws -> CatalogTrack? {
        return playable.first { $0.id == id }
    }

    /// The folder the tracks' paths share, when they agree on one.
    public func libraryRoot() async throws -> PathBytes? {
        let roots = Set(tracks.map { $0.libraryRoot?.bytes ?? [] })
        guard roots.count == 1, let root = roots.first, !root.isEmpty else { return nil }
        return PathBytes(root)
    }

    private var playable: [CatalogTrack] {
        tracks.filter { track in !unplayable.contains { $0.0 == track.id } }
    }

    /// Makes the next read return the current tracks and every later read `newTracks` (a rescan that lands
    /// while the player is already running).
    public func changeTracksAfterNextRead(to newTracks: [CatalogTrack]) { afterFirstRead = newTracks }

    /// Records the mark.
    public func markUnplayable(_ id: TrackID, reason: String) async throws {
        unplayable.append((id, reason))
    }

    /// The latest stored resume point.
    public func loadPlaybackState() async throws -> PlaybackState? { stored }

    /// Stores the resume point.
    public func savePlaybackState(_ state: PlaybackState) async throws {
        stored = state
        savedStates.append(state)
    }

    /// Replaces the tracks (a rescan).
    public func setTracks(_ newTracks: [CatalogTrack]) { tracks = newTracks }

    /// The traits of the playable tracks, from their tags (folder: the relative path's folder), in path order.
    public func shuffleGroups() async throws -> ShuffleGroups {
        var groups = ShuffleGroups()
        for track in playable.sorted(by: { $0.relativePath.bytes.lexicographicallyPrecedes($1.relativePath.bytes) }) {
            let path = track.relativePath.bytes
            let folder = path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[..<$0]) } ?? []
            groups.add(
                track.id, artist: track.tags.artist, album: track.tags.album, albumArtist: track.tags.albumArtist,
                folder: folder, disc: track.tags.disc, track: track.tags.track)
        }
        return groups
    }

    /// The ids marked unplayable.
    public var unplayableIDs: [TrackID] { unplayable.map(\.0) }
}
