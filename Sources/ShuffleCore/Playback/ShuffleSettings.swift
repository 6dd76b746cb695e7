/// How a cycle is ordered.
public enum ShuffleMode: String, Sendable, Equatable, CaseIterable {
    /// Every track once per cycle, uniformly random (a Fisher–Yates shuffle).
    case shuffle
    /// Every track once per cycle, uniformly random among the orders that keep the same artist and the same
    /// album apart (`ShuffleSettings.artistGap`, `albumGap`), as far as the library allows.
    case balanced
    /// A random album, played in disc and track order, then another: every album once per cycle.
    case albums
    /// The library in path order (folders and files sorted by their bytes).
    case inOrder = "in-order"

    /// Parses `shuffle`, `balanced`, `albums` or `in-order`.
    public init?(parsing text: String) {
        self.init(rawValue: text)
    }

    /// Whether the order needs each track's artist, album and numbers (`ShuffleGroups`).
    public var needsGroups: Bool { self != .shuffle }
}

/// The shuffle's settings: the mode and, for `balanced`, how far apart tracks of one artist or album stay.
public struct ShuffleSettings: Sendable, Equatable {
    /// The default artist gap: at least 2 other tracks between two tracks by the same artist.
    public static let defaultArtistGap = 2
    /// The default album gap: at least 5 other tracks between two tracks of the same album.
    public static let defaultAlbumGap = 5
    /// The largest gap accepted (the balanced shuffle looks this far on each side of a place).
    public static let maxGap = 50

    /// The mode.
    public var mode: ShuffleMode
    /// `balanced`: no two tracks by the same artist within this many places (0: no artist rule).
    public var artistGap: Int
    /// `balanced`: no two tracks of the same album within this many places (0: no album rule).
    public var albumGap: Int

    /// Creates settings; gaps are clamped to 0…`maxGap`.
    public init(mode: ShuffleMode = .shuffle, artistGap: Int = defaultArtistGap, albumGap: Int = defaultAlbumGap) {
        self.mode = mode
        self.artistGap = min(max(0, artistGap), Self.maxGap)
        self.albumGap = min(max(0, albumGap), Self.maxGap)
    }

    /// The player's default: balanced, with the default gaps.
    public static let standard = ShuffleSettings(mode: .balanced)
}
