import MusicLibrary
import ShuffleCore

/// What `shufflebox list` says of the stories of a volume: each story track's book and part, and every
/// track's chapters. Folders are marked as stories by the `shufflebox.txt` at the volume's root, read
/// as the daemon reads it when a stick is mounted (`StickStations.readNow`).
struct StoryListing {
    /// Where one story track belongs.
    struct Place {
        /// Its kind: its own, else its book's (a marked folder's untagged file).
        var kind: StoryKind
        /// Its book.
        var book: Book
        /// Its place in the book, from 1.
        var part: Int
    }

    /// The books, in the order `LibraryDatabase.books` gives.
    var books: [Book] = []
    /// Each story track's book (index into `books`) and its index there (story stations left out).
    private var places: [TrackID: Slot] = [:]
    /// A book's index in `books` and a part's index in the book.
    private struct Slot {
        var book: Int
        var part: Int
    }
    /// The chapters of the tracks that have some.
    var chapters: [TrackID: [Chapter]] = [:]

    /// No stories.
    init() {}

    /// The stories of `volume`, with the rules of the `shufflebox.txt` at its root (none when it is not
    /// there, or the stick is not mounted); problems in that file are said on stderr.
    static func load(store: LibraryStore, volume: VolumeRef) async throws(LibraryError) -> StoryListing {
        let log = Log(label: "list", minimum: .warning, sink: { Terminal.error($0) })
        let stick = StickStations.readNow(mountPoint: volume.root.display, log: log)
        var listing = StoryListing()
        listing.books = try await store.books(
            of: volume, rules: stick.file.stories, stations: stick.file.stations)
        listing.chapters = try await store.chaptersByTrack(of: volume)
        // A story station's parts are not marked: what it picks stays what it is (a song picked by it still
        // plays in the stick's shuffle).
        for (bookIndex, book) in listing.books.enumerated() where book.station == nil {
            for (partIndex, part) in book.parts.enumerated() {
                listing.places[part] = Slot(book: bookIndex, part: partIndex)
            }
        }
        return listing
    }

    /// Where `entry` belongs, if it is a story.
    func place(of entry: LibraryEntry) -> Place? {
        guard let slot = places[entry.id] else { return nil }
        let book = books[slot.book]
        return Place(kind: entry.tags.story ?? book.kind, book: book, part: slot.part + 1)
    }
}
