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
    /// The EBU R128 measurement of its decoded audio, once the background scan has made one (nil before,
    /// and for tracks whose tags carry a gain: they are not measured).
    public var loudness: TrackLoudness?
    /// The album's loudness (`TrackLoudness.album`: the tracks beside it in its folder with its album tag),
    /// once every one of them is measured; the `album` gain mode plays by it.
    public var albumLoudness: TrackLoudness?

    /// Creates a track.
    public init(
        id: TrackID, path: PathBytes, relativePath: PathBytes, tags: TagInfo, stream: StreamInfo,
        loudness: TrackLoudness? = nil, albumLoudness: TrackLoudness? = nil
    ) {
        self.albumLoudness = albumLoudness
        self.id = id
        self.path = path
        self.relativePath = relativePath
        self.tags = tags
        self.stream = stream
        self.loudness = loudness
    }

    /// The library folder: `path` without `relativePath` and the `/` before it; nil when `path` does not
    /// end in `relativePath`.
    public var libraryRoot: PathBytes? {
        let path = path.bytes
        let relative = relativePath.bytes
        guard !relative.isEmpty, path.count > relative.count, path.suffix(relative.count).elementsEqual(relative)
        else { return nil }
        var root = Array(path.dropLast(relative.count))
        guard root.last == UInt8(ascii: "/") else { return nil }
        if root.count > 1 { root.removeLast() }
        return PathBytes(root)
    }

    /// The line printed when the track starts: "artist - title", or the relative path when there are no tags.
    public var displayName: String {
        if let artist = tags.artist, !artist.isEmpty, let title = tags.title, !title.isEmpty {
            return "\(artist) - \(title)"
        }
        return relativePath.display
    }

    /// `displayName` escaped for a terminal (`TerminalText`): what `play` prints as each track starts.
    public var terminalName: String {
        if let artist = tags.artist, !artist.isEmpty, let title = tags.title, !title.isEmpty {
            return "\(TerminalText.escape(artist)) - \(TerminalText.escape(title))"
        }
        return TerminalText.escape(relativePath)
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
///
/// The player holds only the ids of a library (8 bytes a track) and asks for a track's path and tags when
/// it starts or queues that track: holding every track's paths and tags cost ~10 MB at 10,000 tracks,
/// half the memory budget of the box.
public protocol TrackCatalog: Sendable {
    /// The ids of every playable track of this library, ascending.
    func playableTrackIDs() async throws -> [TrackID]
    /// One playable track, or nil when it is no longer playable in this library (removed by a rescan,
    /// or marked unplayable).
    func track(_ id: TrackID) async throws -> CatalogTrack?
    /// The folder the library's paths are under (absolute), to tell a pulled stick from a broken file;
    /// nil when unknown.
    func libraryRoot() async throws -> PathBytes?
    /// Records that a track turned out unplayable while playing, so it is skipped from now on.
    func markUnplayable(_ id: TrackID, reason: String) async throws
    /// The stored resume point of this library, if any.
    func loadPlaybackState() async throws -> PlaybackState?
    /// Stores the resume point (one transaction: never half-written).
    func savePlaybackState(_ state: PlaybackState) async throws
    /// The artist, album and numbers of every playable track, for the shuffle modes that use them
    /// (`ShuffleMode.needsGroups`); a catalog that knows no tags gives none (the default).
    func shuffleGroups() async throws -> ShuffleGroups
}

extension TrackCatalog {
    /// No traits: every mode then treats each track alone (`balanced` is the plain shuffle).
    public func shuffleGroups() async throws -> ShuffleGroups { ShuffleGroups() }
}
