/// The identity of one playable track in the library database.
public struct TrackID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The database row id.
    public let rawValue: Int64

    /// Wraps a row id.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// Orders by row id.
    public static func < (lhs: TrackID, rhs: TrackID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The row id as text.
    public var description: String { String(rawValue) }
}

/// One playable track as the player sees it.
public struct CatalogTrack: Equatable, Sendable {
    /// The track's identity.
    public var id: TrackID
    /// The absolute path to open.
    public var path: PathBytes
    /// The path relative to the library root, for messages and status.
    public var relativePath: PathBytes
    /// The tags (title falls back to the file name).
    public var tags: TagInfo
    /// The stream shape the indexer found.
    public var stream: StreamInfo

    /// Creates a track.
    public init(id: TrackID, path: PathBytes, relativePath: PathBytes, tags: TagInfo, stream: StreamInfo) {
        self.id = id
        self.path = path
        self.relativePath = relativePath
        self.tags = tags
        self.stream = stream
    }

    /// The line printed when the track starts: "artist - title", or the relative path when there are no tags.
    public var displayName: String {
        if let artist = tags.artist, !artist.isEmpty, let title = tags.title, !title.isEmpty {
            return "\(artist) - \(title)"
        }
        return relativePath.display
    }
}

/// Where the player is in one library: stored on every track change, pause and volume change,
/// and every few seconds while playing.
public struct PlaybackState: Equatable, Sendable {
    /// The shuffle order of the current cycle: every track once.
    public var order: [TrackID]
    /// Index into `order` of the current track.
    public var cursor: Int
    /// Position within the current track.
    public var positionMs: Int64
    /// Volume in steps.
    public var volume: Int
    /// Whether the player was paused.
    public var paused: Bool

    /// Creates a state.
    public init(order: [TrackID], cursor: Int, positionMs: Int64, volume: Int, paused: Bool) {
        self.order = order
        self.cursor = cursor
        self.positionMs = positionMs
        self.volume = volume
        self.paused = paused
    }

    /// The current track, when the cursor is inside the order.
    public var currentTrack: TrackID? { order.indices.contains(cursor) ? order[cursor] : nil }
}

/// One library (one volume) as the player needs it. `MusicLibrary.LibraryStore` provides the real one
/// (SQLite); `ShuffleTestSupport` an in-memory one.
public protocol TrackCatalog: Sendable {
    /// Every playable track of this library.
    func playableTracks() async throws -> [CatalogTrack]
    /// Records that a track turned out unplayable while playing, so it is skipped from now on.
    func markUnplayable(_ id: TrackID, reason: String) async throws
    /// The stored resume point of this library, if any.
    func loadPlaybackState() async throws -> PlaybackState?
    /// Stores the resume point (one transaction: never half-written).
    func savePlaybackState(_ state: PlaybackState) async throws
}
