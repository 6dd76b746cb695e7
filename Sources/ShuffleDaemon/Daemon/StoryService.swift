import ShuffleCore

/// Each stick's stories: its books (read from the index off the loop's thread), whether the music or a
/// book plays, and the story gestures. A book plays in order from its own bookmark; the music keeps its own
/// resume point meanwhile, so neither disturbs the other.
final class StoryService: Service, @unchecked Sendable {
    // @unchecked: touched only on the loop's thread; the library's thread reaches it through `loop.post`.
    /// What choosing a story needs of the rest of the daemon.
    struct Hands {
        /// What the stick plays changed (a book, the music, a book started over): play it from its own place.
        var changed: () -> Void
        /// Says something about the stories.
        var announce: (Announcer.Event) -> Void
        /// The music's station of the stick (its name; nil: the whole stick), to say when the music returns.
        var musicStation: (_ stick: String) -> String?
    }

    /// One stick's stories.
    struct Shelf {
        /// What its `shufflebox.txt` marks.
        var rules: StoryRules
        /// Its stations (the story stations among them are books).
        var stations: [Station]
        /// Its books and their bookmarks (nil until read from the index).
        var shelf: StoryShelf?
        /// The bookmark key of the book playing (nil: the music).
        var playing: String?
        /// The bookmark key of the book chosen last since the stick was mounted (the stored bookmarks say
        /// which before that).
        var lastChosen: String?
        /// The bookmark key of a book to start from its first part at its next start (`start-over`).
        var startingOver: String?
        /// Reads of the books begun, so that an older read finishing late is not kept.
        var reads = 0
        /// A book was chosen and its name is said once its first part starts (with the chapter it starts in).
        var announcing = false

        /// The book playing, once the books are read.
        var book: Book? { playing.flatMap { key in shelf?.books.first { $0.bookmarkKey == key } } }

        /// The index of the book playing, and of the book whose bookmark was stored last.
        var places: (playing: Int?, lastPlayed: Int?) {
            guard let shelf else { return (nil, nil) }
            let playing = self.playing.flatMap { key in shelf.books.firstIndex { $0.bookmarkKey == key } }
            let last =
                lastChosen
                ?? shelf.bookmarks.filter { key, _ in shelf.books.contains { $0.bookmarkKey == key } }
                .max { $0.value.updatedAt < $1.value.updatedAt }?.key
            return (playing, last.flatMap { key in shelf.books.firstIndex { $0.bookmarkKey == key } })
        }
    }

    let name = "stories"
    private let loop: EventLoop
    private let library: any ApplianceLibrary
    private let log: Log
    private let hands: Hands
    private var shelves: [String: Shelf] = [:]

    /// Creates the service.
    init(loop: EventLoop, library: any ApplianceLibrary, log: Log, hands: Hands) {
        self.loop = loop
        self.library = library
        self.log = log
        self.hands = hands
    }

    func start() throws(DaemonError) {}

    // MARK: - Sticks

    /// A stick was mounted, with `file` as its `shufflebox.txt`; `storedBook` is the book that played last
    /// (nil: the music). A stick that was in a book has its books read now (waiting at most 2 s), so that it
    /// resumes in the book; otherwise they are read in the background.
    func mounted(stick: String, file: StationFile, storedBook: String?) {
        shelves[stick] = Shelf(
            rules: file.stories, stations: file.stations, playing: storedBook, lastChosen: storedBook)
        guard storedBook != nil else {
            refresh(stick)
            return
        }
        let shelf = library.books(volumeID: stick, rules: file.stories, stations: file.stations)
        shelves[stick]?.shelf = shelf
        if let shelf, !shelf.books.contains(where: { $0.bookmarkKey == storedBook }) {
            // The book is gone from the stick (deleted, renamed, its folder unmarked): the music plays.
            log.info("the book that played last (\(storedBook ?? "")) is no longer on the stick; the music plays")
            shelves[stick]?.playing = nil
            library.storeBook(nil, volumeID: stick)
        }
    }

    /// Reads the stick's books again in the background (after an index run changed what it holds).
    func refresh(_ stick: String) {
        guard var entry = shelves[stick] else { return }
        entry.reads += 1
        let read = entry.reads
        shelves[stick] = entry
        library.books(volumeID: stick, rules: entry.rules, stations: entry.stations) { [loop] shelf in
            loop.post { [weak self] in
                guard let self, let shelf, self.shelves[stick]?.reads == read else { return }
                self.shelves[stick]?.shelf = shelf
                let count = shelf.books.count
                if count > 0 { self.log.info("\(count) \(count == 1 ? "story" : "stories") on the stick") }
            }
        }
    }

    /// What the stick plays: its book, or its music (the caller adds the station).
    func selection(for stick: String) -> PlaySelection? {
        guard var entry = shelves[stick], let book = entry.book else { return nil }
        let fromStart = entry.startingOver == book.bookmarkKey || entry.rules.startsFromBeginning(book.path)
        entry.startingOver = nil
        shelves[stick] = entry
        return .book(book, fromStart: fromStart)
    }

    /// The book playing on the stick, if one is.
    func playing(_ stick: String) -> Book? { shelves[stick]?.book }

    /// The stick's books as read so far (empty until read).
    func books(of stick: String) -> [Book] { shelves[stick]?.shelf?.books ?? [] }

    // MARK: - Gestures and commands

    /// `stories`: between the music and the stories.
    func toggle(_ stick: String) { navigate(stick, by: StoryNavigation.toggle) }

    /// `next-story`: the music, then each book in turn, then the music.
    func ring(_ stick: String) { navigate(stick, by: StoryNavigation.ring) }

    /// Goes where `rule` (`StoryNavigation`'s) says, from the book playing and the one played last.
    private func navigate(
        _ stick: String, by rule: (_ playing: Int?, _ lastPlayed: Int?, _ count: Int) -> StoryTarget?
    ) {
        guard let entry = shelves[stick], let shelf = entry.shelf else { return noStories() }
        let places = entry.places
        guard let target = rule(places.playing, places.lastPlayed, shelf.books.count) else { return noStories() }
        go(to: target, of: stick)
    }

    /// `next-station`/`previous-station` while a book plays: the next or previous book. False when the music
    /// plays (the stations are the music's).
    func step(_ stick: String, by step: Int) -> Bool {
        guard let entry = shelves[stick], let playing = entry.places.playing, let shelf = entry.shelf else {
            return false
        }
        go(to: .book(StoryNavigation.step(from: playing, by: step, count: shelf.books.count)), of: stick)
        return true
    }

    /// Plays the book named `name` (MPD `load`, `ctl station`); false when the stick has no such book.
    func choose(named name: String, of stick: String) -> Bool {
        let books = self.books(of: stick)
        guard
            let index = books.firstIndex(where: { $0.name == name })
                ?? books.firstIndex(where: { $0.name.lowercased() == name.lowercased() })
        else { return false }
        go(to: .book(index), of: stick)
        return true
    }

    /// Back to the music (a station was chosen while a book played). Quietly: the station says its name.
    func leaveBook(_ stick: String) {
        guard shelves[stick]?.playing != nil else { return }
        shelves[stick]?.playing = nil
        library.storeBook(nil, volumeID: stick)
    }

    /// `start-over`: the book playing plays again from its first part. Nothing while the music plays.
    func startOver(_ stick: String) {
        guard let book = shelves[stick]?.book else {
            log.info("start-over: no book plays (the music does not start over)")
            return
        }
        log.notice("starting '\(book.name)' over")
        shelves[stick]?.startingOver = book.bookmarkKey
        setFinished(book.bookmarkKey, false, of: stick)
        hands.announce(.startedOver)
        hands.changed()
    }

    /// The book playing reached its end: it is marked finished and holds its first part, paused.
    func reachedEnd(_ stick: String) {
        guard let book = shelves[stick]?.book else { return }
        log.notice("'\(book.name)' played to its end; it starts over next time")
        setFinished(book.bookmarkKey, true, of: stick)
        hands.announce(.storyFinished)
    }

    /// A track started on the stick: a book just chosen says its name, and the chapter it starts in.
    func started(_ stick: String, chapters: [Chapter], positionMs: Int64) {
        guard shelves[stick]?.announcing == true else { return }
        shelves[stick]?.announcing = false
        guard let book = shelves[stick]?.book else { return }
        let chapter = ChapterSkip.current(chapters, at: positionMs).flatMap { chapters[$0].title }
        hands.announce(.storyChosen(name: book.name, chapter: chapter))
    }

    /// Where `next` and `previous` go inside a part with chapters (nil: by part, the player's own rule).
    func chapterTarget(next: Bool, chapters: [Chapter], positionMs: Int64) -> Int64? {
        guard !chapters.isEmpty else { return nil }
        return next
            ? ChapterSkip.next(chapters, at: positionMs) : ChapterSkip.previous(chapters, at: positionMs)
    }

    private func go(to target: StoryTarget, of stick: String) {
        guard var entry = shelves[stick], let shelf = entry.shelf else { return }
        switch target {
        case .music:
            entry.playing = nil
            shelves[stick] = entry
            library.storeBook(nil, volumeID: stick)
            log.notice("the music plays again")
            hands.announce(.musicChosen(station: hands.musicStation(stick)))
        case .book(let index):
            let book = shelf.books[index]
            entry.playing = book.bookmarkKey
            entry.lastChosen = book.bookmarkKey
            shelves[stick] = entry
            library.storeBook(book.bookmarkKey, volumeID: stick)
            if shelf.bookmarks[book.bookmarkKey]?.finished == true { setFinished(book.bookmarkKey, false, of: stick) }
            log.notice("story '\(book.name)' (\(book.parts.count) \(book.parts.count == 1 ? "part" : "parts"))")
            // Said as its part starts, with the chapter it starts in (`started`).
            shelves[stick]?.announcing = true
        }
        hands.changed()
    }

    private func setFinished(_ key: String, _ finished: Bool, of stick: String) {
        shelves[stick]?.shelf?.bookmarks[key, default: BookmarkInfo()].finished = finished
        library.setBookFinished(key, finished, volumeID: stick)
    }

    private func noStories() {
        log.info("no stories on the stick")
        hands.announce(.noStories)
    }
}
