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

    /// Every track not marked unplayable.
    public func playableTracks() async throws -> [CatalogTrack] {
        let list = tracks.filter { track in !unplayable.contains { $0.0 == track.id } }
        if let next = afterFirstRead {
            tracks = next
            afterFirstRead = nil
        }
        return list
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

    /// The ids marked unplayable.
    public var unplayableIDs: [TrackID] { unplayable.map(\.0) }
}
