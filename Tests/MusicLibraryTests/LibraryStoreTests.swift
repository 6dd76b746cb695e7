import Foundation
import MusicLibrary
import ShuffleCore
import Testing

/// The store on real SQLite files: search, FTS kept in step, the catalog port, the resume point.
@Suite struct LibraryStoreTests {
    let library: LibraryFixture

    init() throws {
        library = try LibraryFixture()
        try library.addTrack(
            "Beyonce/Halo.mp3", TagInfo(title: "Halo", artist: "Beyoncé", album: "I Am... Sasha Fierce"))
        try library.addTrack("jp/01.mp3", TagInfo(title: "東京事変のうた", artist: "椎名林檎", album: "教育"))
        try library.addTrack("kr/02.mp3", TagInfo(title: "별빛 노래", artist: "아이유"))
        try library.addTrack("Misc/Ocean Drive.mp3", TagInfo(title: "Ocean Drive", artist: "Duke Dumont"))
        try library.addTrack("Misc/untagged song.mp3", TagInfo())
        try library.addTrack("Misc/weird.mp3", TagInfo(title: "AND OR NOT \"NEAR(\" (x* -y ^z", artist: "Q"))
        try library.addUnplayable("Misc/broken.mp3", reason: "not MPEG audio")
    }

    @Test func searchIsCaseAndDiacriticInsensitive() throws {
        #expect(try library.search("beyonce") == ["Beyonce/Halo.mp3"])
        #expect(try library.search("BEYONCÉ halo") == ["Beyonce/Halo.mp3"])
        #expect(try library.search("sasha fier") == ["Beyonce/Halo.mp3"])  // last term is a prefix
        #expect(try library.search("oce").contains("Misc/Ocean Drive.mp3"))
    }

    @Test(arguments: ["京", "東京", "事変", "林檎", "うた", "빛", "별빛", "教育"])
    func findsOneAndTwoCharacterCJKQueries(_ query: String) throws {
        #expect(try !library.search(query).isEmpty, "no hit for \(query)")
    }

    @Test func cjkQueriesMatchOnlyNeighbouringCharacters() throws {
        #expect(try library.search("東事").isEmpty)
        #expect(try library.search("京事") == ["jp/01.mp3"])
    }

    @Test func pathsAreSearchedToo() throws {
        #expect(try library.search("untagged") == ["Misc/untagged song.mp3"])
        // Found by both its tags and its path, a track counts once.
        #expect(try library.search("ocean") == ["Misc/Ocean Drive.mp3"])
    }

    @Test(arguments: [
        "", " ", "\"", "\"unbalanced", "*", "-", "^", "a*b", "NEAR(", "NEAR(a b", "AND", "OR", "NOT", "a OR",
        "(", ")", "((", "x) OR (y", "col:value", "title:halo", "{title}: x", "'", "''", "\\", "%", "_", "a\u{0}b",
        "NOT NOT", "* * *", "-halo", "+halo", "halo -", "\u{FFFD}", "🎵", "\"\"\"", "AND OR NOT \"NEAR(\" (x* -y ^z",
    ])
    func hostileQueriesReturnNormally(_ query: String) throws {
        _ = try library.search(query)
        _ = try library.database.searchCount(query, in: library.volume)
    }

    @Test func punctuationInTitlesIsPlainText() throws {
        #expect(try library.search("near") == ["Misc/weird.mp3"])
        #expect(try library.search("AND OR NOT") == ["Misc/weird.mp3"])
    }

    @Test func listHasOkAndUnplayableInPathByteOrder() throws {
        let entries = try library.database.entries(of: library.volume)
        #expect(entries.map(\.path.display) == entries.map(\.path).sorted().map(\.display))
        #expect(entries.count == 7)
        #expect(entries.first { $0.status == .unplayable }?.reason == "not MPEG audio")
        #expect(entries.first { $0.path.display == "Beyonce/Halo.mp3" }?.durationMs == 1000)
    }

    /// The player's track read (a button's "next") is answered while the store's queue is held, as by a
    /// resume point's fsync'd save, a search or a stick's listing: it reads on a connection and a queue of its
    /// own. Before, it queued behind them (here: it waited for the 30 s bound).
    @Test func aTrackReadDoesNotWaitForTheStoresQueue() async throws {
        let store = try await LibraryStore.open(path: library.folder + "/library.db")
        let catalog = store.catalog(for: library.volume)
        let id = try #require(try await catalog.playableTrackIDs().first)
        let release = DispatchSemaphore(value: 0)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await store.perform { _ in
                holding.yield()
                release.wait()
            }
        }
        for await _ in held { break }
        let answered = try await withThrowingTaskGroup(of: CatalogTrack??.self) { group in
            group.addTask { try await catalog.track(id) }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return .none
            }
            let first = try await group.next() ?? nil
            release.signal()
            group.cancelAll()
            return first
        }
        try await holder.value
        let track = try #require(answered, "the track read waited for the store's queue")
        #expect(track?.id == id)
    }

    @Test func markUnplayableDropsTheTrackAndItsSearchRows() async throws {
        let store = try await LibraryStore.open(path: library.folder + "/library.db")
        let catalog = store.catalog(for: library.volume)
        let ids = try await catalog.playableTrackIDs()
        #expect(ids.count == 6)
        #expect(ids == ids.sorted())
        var before: [CatalogTrack] = []
        for id in ids { before.append(try #require(try await catalog.track(id))) }
        let halo = try #require(before.first { $0.relativePath.display == "Beyonce/Halo.mp3" })
        #expect(halo.path.display == "/music/Beyonce/Halo.mp3")
        #expect(halo.libraryRoot?.display == "/music")
        #expect(try await catalog.libraryRoot()?.display == "/music")
        #expect(before.first { $0.relativePath.display == "Misc/untagged song.mp3" }?.tags.title == "untagged song")
        try await catalog.markUnplayable(halo.id, reason: "decoder gave up")
        #expect(try await catalog.playableTrackIDs().count == 5)
        #expect(try await catalog.track(halo.id) == nil)
        #expect(try await catalog.track(TrackID(999_999)) == nil)
        #expect(try library.search("beyonce").isEmpty)
        #expect(try library.count("tracks_fts") == 5)
        #expect(try library.count("paths_fts") == 5)
        let entry = try library.database.entries(of: library.volume).first { $0.id == halo.id }
        #expect(entry?.status == .unplayable)
        #expect(entry?.reason == "decoder gave up")
    }

    @Test func playbackStateRoundTripsPerVolume() async throws {
        let store = try await LibraryStore.open(path: library.folder + "/library.db")
        let catalog = store.catalog(for: library.volume)
        #expect(try await catalog.loadPlaybackState() == nil)
        let state = PlaybackState(
            order: [TrackID(3), TrackID(1), TrackID(Int64.max), TrackID(-2)], cursor: 2, positionMs: 12_345, volume: 7,
            paused: true)
        try await catalog.savePlaybackState(state)
        #expect(try await catalog.loadPlaybackState() == state)
        var next = state
        next.cursor = 3
        next.paused = false
        try await catalog.savePlaybackState(next)
        // A fresh connection sees the committed state.
        let reopened = try await LibraryStore.open(path: library.folder + "/library.db")
        #expect(try await reopened.catalog(for: library.volume).loadPlaybackState() == next)
        #expect(try library.count("playback") == 1)
    }

    @Test func openingWithoutCreateReportsNoLibrary() async {
        let path = library.folder + "/nothing-here.db"
        await #expect(throws: LibraryError.self) { _ = try await LibraryStore.open(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileThatIsNotADatabaseIsReported() throws {
        let path = library.folder + "/text.db"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        do {
            _ = try LibraryDatabase(path: path, create: false)
            Issue.record("a text file opened as a library")
        } catch {
            #expect("\(error)".contains("not a Shufflebox library database"))
        }
    }
}
