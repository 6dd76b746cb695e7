import Foundation
import MusicLibrary
import ShuffleCore
import Testing

/// The player's view of a stick's music, its stations and its books (`CatalogSelection`), and the books'
/// bookmarks, on a real SQLite file.
@Suite struct StoryCatalogTests {
    let library: LibraryFixture
    let songs: [TrackID]
    let parts: [TrackID]
    let marked: TrackID
    let store: LibraryStore
    let rules = StoryRules(folders: [Array("Marked".utf8)])

    init() async throws {
        library = try LibraryFixture(name: "story-catalog")
        songs = [
            try library.addTrack("Songs/a.mp3", TagInfo(title: "Song A", genre: "Pop")),
            try library.addTrack("Songs/b.mp3", TagInfo(title: "Song B")),
        ]
        // Added last part first, so the ids run against the book's order.
        var parts: [TrackID] = []
        for number in [3, 2, 1] {
            parts.insert(
                try library.addTrack("Book/\(number).mp3", TagInfo(title: "Part \(number)", genre: "Hörbuch")), at: 0)
        }
        self.parts = parts
        marked = try library.addTrack("Marked/tale.mp3", TagInfo(title: "Tale"))
        store = try await LibraryStore.open(path: library.folder + "/library.db")
    }

    func book() async throws -> Book {
        try #require(try await store.books(of: library.volume, rules: rules, stations: []).first)
    }

    @Test func theMusicLeavesOutStoriesAndMarkedFolders() async throws {
        let music = store.catalog(for: library.volume, selection: .music(rules))
        #expect(try await music.playableTrackIDs() == songs)
        // Without the stick's rules (the daemon's caller as it was), only the marked folder comes back.
        let plain = store.catalog(for: library.volume)
        #expect(try await plain.playableTrackIDs() == songs + [marked])
        // An ordinary station with an empty search is the music, with the whole stick's resume point.
        let whole = Station(name: StationFile.wholeStick, search: StationSearch(), mode: nil)
        let station = store.catalog(for: library.volume, selection: .station(whole, rules))
        #expect(station.selection == .music(rules))
        let state = PlaybackState(order: songs, cursor: 1, positionMs: 500, volume: 3, paused: false)
        try await station.savePlaybackState(state)
        #expect(try await music.loadPlaybackState() == state)
    }

    @Test func aStationPlaysItsSongsAndAStoryStationEverythingItPicks() async throws {
        let search = try StationSearch(parsing: "part")
        let songsOnly = Station(name: "Parts", search: search, mode: nil)
        #expect(
            try await store.catalog(for: library.volume, selection: .station(songsOnly, rules)).playableTrackIDs() == []
        )
        var story = songsOnly
        story.isStory = true
        let storyCatalog = store.catalog(for: library.volume, selection: .station(story, rules))
        #expect(try await storyCatalog.playableTrackIDs() == parts.sorted())
        let everything = Station(name: "All", search: try StationSearch(parsing: "folder:Songs"), mode: nil)
        #expect(try await store.catalog(for: library.volume, station: everything).playableTrackIDs() == songs)
    }

    @Test func aBookPlaysItsPartsInBookOrderUnderItsOwnBookmark() async throws {
        let book = try await book()
        #expect(book.parts == parts)
        let catalog = store.catalog(for: library.volume, selection: .book(book))
        #expect(try await catalog.playableTrackIDs() == parts.sorted())
        let groups = try await catalog.shuffleGroups()
        #expect(parts.map { groups[$0].pathRank } == [0, 1, 2])
        let order = AlbumOrder.inOrder(parts.sorted(), groups: groups)
        #expect(order == parts, "the in-order mode plays the book as it runs")
        // Its bookmark is its own: not the music's, not another book's.
        let state = PlaybackState(order: parts, cursor: 1, positionMs: 42_000, volume: 5, paused: true)
        try await catalog.savePlaybackState(state)
        #expect(try await catalog.loadPlaybackState() == state)
        #expect(try await store.catalog(for: library.volume, selection: .music(rules)).loadPlaybackState() == nil)
        #expect(try await store.loadPlaybackState(of: library.volume, station: "book:Book") == state)
        let fromStart = store.catalog(for: library.volume, selection: .book(book, fromStart: true))
        #expect(try await fromStart.loadPlaybackState() == nil)
        // A part that stops playing leaves the book; the others keep their order.
        try await catalog.markUnplayable(parts[1], reason: "decoder gave up")
        #expect(try await catalog.playableTrackIDs() == [parts[0], parts[2]].sorted())
    }

    @Test func bookmarksKeepTheirPlaceFinishedAndWhichBookPlays() async throws {
        let book = try await book()
        let volume = library.volume
        #expect(try await store.bookmarks(of: volume).isEmpty)
        #expect(try await store.currentBook(of: volume) == nil)
        try await store.setCurrentBook(book.bookmarkKey, of: volume)
        #expect(try await store.currentBook(of: volume) == "book:Book")
        // The music's level, stored last, stays the box's level when a book is marked finished unplayed.
        let music = PlaybackState(order: songs, cursor: 0, positionMs: 0, volume: 6, paused: false)
        try await store.savePlaybackState(music, of: volume)
        try await store.setBookFinished(book.bookmarkKey, true, of: volume)
        #expect(try await store.bookmarks(of: volume)[book.bookmarkKey]?.finished == true)
        #expect(try library.database.storedVolumeLevel(of: volume) == 6)
        // Saving its place (a new order: the row is written whole) keeps it finished until said otherwise.
        let place = PlaybackState(order: parts, cursor: 2, positionMs: 7_000, volume: 4, paused: false)
        try await store.savePlaybackState(place, of: volume, station: book.bookmarkKey)
        let saved = try #require(try await store.bookmarks(of: volume)[book.bookmarkKey])
        #expect(saved.finished && saved.track == parts[2] && saved.positionMs == 7_000 && saved.updatedAt > 0)
        try await store.setBookFinished(book.bookmarkKey, false, of: volume)
        let reopened = try LibraryDatabase(path: library.folder + "/library.db", create: false)
        #expect(try reopened.bookmarks(of: volume)[book.bookmarkKey]?.finished == false)
        #expect(try reopened.loadPlaybackState(of: volume, station: book.bookmarkKey) == place)
        #expect(try reopened.currentBook(of: volume) == "book:Book")
        try reopened.setCurrentBook(nil, of: volume)
        #expect(try await store.currentBook(of: volume) == nil)
    }

    @Test func aTrackReadCarriesItsStoryAndItsChapters() async throws {
        var tags = TagInfo(title: "Chaptered")
        tags.story = .podcast
        tags.chapters = [Chapter(startMs: 0, title: "Start"), Chapter(startMs: 2_000, title: nil)]
        let id = try library.addTrack("Show/ep.mp3", tags, frames: 44_100 * 10)
        let catalog = store.catalog(for: library.volume, selection: .music(rules))
        let track = try #require(try await catalog.track(id))
        #expect(track.tags.story == .podcast)
        #expect(track.tags.chapters == tags.chapters)
        let song = try #require(try await catalog.track(songs[0]))
        #expect(song.tags.story == nil && song.tags.chapters.isEmpty)
        #expect(try await catalog.track(parts[0])?.tags.story == .audiobook)
        let music = try await catalog.playableTrackIDs()
        #expect(!music.contains(id), "a podcast is no song")
    }
}
