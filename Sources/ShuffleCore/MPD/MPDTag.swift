/// The MPD tags the index stores, by their protocol names (`tagtypes`, song lists, `list`, filters).
public enum MPDTag: String, CaseIterable, Sendable, Hashable {
    /// `Title`.
    case title = "Title"
    /// `Artist`.
    case artist = "Artist"
    /// `Album`.
    case album = "Album"
    /// `AlbumArtist`.
    case albumArtist = "AlbumArtist"
    /// `Track` (the number).
    case track = "Track"
    /// `Disc` (the number).
    case disc = "Disc"
    /// `Genre`.
    case genre = "Genre"
    /// `Date` (the year).
    case date = "Date"

    /// The tag named `name`, case-insensitively, as MPD matches tag names.
    public init?(named name: String) {
        let lower = name.lowercased()
        guard let tag = MPDTag.allCases.first(where: { $0.rawValue.lowercased() == lower }) else { return nil }
        self = tag
    }
}

/// What one client chose for its connection: the tags its song lists carry (`tagtypes`) and the largest
/// binary chunk it takes (`binarylimit`).
public struct MPDClientOptions: Sendable, Equatable {
    /// The tags sent in song lists; all of them until the client says otherwise.
    public var tags: Set<MPDTag> = Set(MPDTag.allCases)
    /// `binarylimit`, in bytes (MPD's default is 8192).
    public var binaryLimit = 8192

    /// Every tag, the default binary limit.
    public init() {}
}
