/// One story of a stick: a folder of parts, a single file (one with chapters, or an `.m4b`), or a station
/// marked `story = yes`. Its parts play in order and it keeps its own bookmark.
public struct Book: Equatable, Sendable {
    /// Where it lives: its folder, or its file, relative to the stick's root (empty for a story station).
    public var path: [UInt8]
    /// Its name, spoken when it is chosen: the album tag of its first part, else the folder's (or the
    /// file's title, else the file's) name; a station's name for a story station.
    public var name: String
    /// Audiobook or podcast (a marked folder's files are audiobooks unless their tags say podcast).
    public var kind: StoryKind
    /// The parts, in book order: disc, track, then natural file-name order (`NaturalOrder`).
    public var parts: [TrackID]
    /// The story station it is, if it is one (its name).
    public var station: String?

    /// Creates a book.
    public init(path: [UInt8], name: String, kind: StoryKind, parts: [TrackID], station: String? = nil) {
        self.path = path
        self.name = name
        self.kind = kind
        self.parts = parts
        self.station = station
    }

    /// The key its bookmark is stored under, beside the stations' resume points: a story station's name,
    /// else `book:` and its path (as `PathBytes.display` spells it).
    public var bookmarkKey: String { station ?? "book:" + PathBytes(path).display }
}
