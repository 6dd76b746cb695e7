/// What the shuffle knows of one track besides its id: small numbers standing for its artist and album,
/// its place in the album, and its place in path order. 16 bytes, so a 10,000-track stick costs ~300 KB
/// (the player otherwise holds only ids; see `TrackCatalog`).
public struct ShuffleTraits: Sendable, Equatable {
    /// The artist's number (0: unknown, which no rule keeps apart).
    public var artist: UInt32
    /// The album's number (0: unknown).
    public var album: UInt32
    /// Disc number and track number packed (disc × 65,536 + track; 0 when untagged), for album order.
    public var albumPlace: UInt32
    /// The track's rank in path order, for `in-order` and as the tie-break within an album.
    public var pathRank: UInt32

    /// Creates traits.
    public init(artist: UInt32, album: UInt32, albumPlace: UInt32 = 0, pathRank: UInt32 = 0) {
        self.artist = artist
        self.album = album
        self.albumPlace = albumPlace
        self.pathRank = pathRank
    }

    /// Unknown artist and album.
    public static let unknown = ShuffleTraits(artist: 0, album: 0)
}

/// The traits of the tracks of one library, built from their tags: artists and albums become numbers
/// (case and surrounding spaces ignored), an album without a tag is its folder.
public struct ShuffleGroups: Sendable, Equatable {
    /// Each track's traits; a track that is not here has unknown traits.
    public private(set) var traits: [TrackID: ShuffleTraits] = [:]
    private var artists: [String: UInt32] = [:]
    private var albums: [String: UInt32] = [:]

    /// No tracks.
    public init() {}

    /// Whether no track has a known artist or album (the balanced shuffle then is the plain one).
    public var isEmpty: Bool { traits.isEmpty }

    /// The traits of `id`.
    public subscript(id: TrackID) -> ShuffleTraits { traits[id] ?? .unknown }

    /// Adds a track from its tags. Call in path order (`pathRank` counts the calls). `folder` is the track's
    /// folder relative to the library (raw bytes), which stands for the album when there is no album tag.
    public mutating func add(
        _ id: TrackID, artist: String?, album: String?, albumArtist: String?, folder: [UInt8],
        disc: Int?, track: Int?
    ) {
        let artistName = Self.key(albumArtistFirst: false, artist: artist, albumArtist: albumArtist)
        let artistNumber = artistName.map { Self.number(for: $0, in: &artists) } ?? 0
        let albumName: String
        if let album = Self.normalised(album) {
            // The same album title by two artists is two albums; an album artist keeps a compilation one.
            let owner = Self.key(albumArtistFirst: true, artist: artist, albumArtist: albumArtist) ?? ""
            albumName = "t:\(owner)\u{0}\(album)"
        } else {
            albumName = "f:" + String(decoding: folder, as: UTF8.self)
        }
        let albumNumber = Self.number(for: albumName, in: &albums)
        let place = UInt32(min(max(0, disc ?? 0), 0xFFFF)) << 16 | UInt32(min(max(0, track ?? 0), 0xFFFF))
        traits[id] = ShuffleTraits(
            artist: artistNumber, album: albumNumber, albumPlace: place, pathRank: UInt32(traits.count))
    }

    /// Sets the traits of `id` directly (tests and generated libraries).
    public mutating func set(_ id: TrackID, _ value: ShuffleTraits) { traits[id] = value }

    /// `text` lowercased, without whitespace at either end; nil when nothing is left. Up to four calls a
    /// track each time a stick is plugged in, before its first sample: indexes into the string, not a chain of
    /// lazy reversed views, which cost a known stick most of its time to music.
    private static func normalised(_ text: String?) -> String? {
        guard let text, let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return nil }
        return text[first...last].lowercased()
    }

    private static func key(albumArtistFirst: Bool, artist: String?, albumArtist: String?) -> String? {
        albumArtistFirst
            ? normalised(albumArtist) ?? normalised(artist) : normalised(artist) ?? normalised(albumArtist)
    }

    private static func number(for name: String, in table: inout [String: UInt32]) -> UInt32 {
        if let known = table[name] { return known }
        let next = UInt32(table.count + 1)
        table[name] = next
        return next
    }
}
