import Foundation
import MusicLibrary
import ShuffleCore
import Testing

/// A stick's books and its music on a real SQLite file: grouping, book order, names, kinds, story stations,
/// and the music that is left for the shuffle.
@Suite struct BookTests {
    let library: LibraryFixture

    init() throws { library = try LibraryFixture(name: "books") }

    @discardableResult
    func add(_ path: String, _ tags: TagInfo = TagInfo(), story: StoryKind? = nil, chapters: [Chapter] = []) throws
        -> TrackID
    {
        var tags = tags
        tags.story = story
        tags.chapters = chapters
        return try library.addTrack(path, tags, frames: 44_100 * 600)
    }

    func audiobook(_ title: String? = nil, album: String? = nil, track: Int? = nil, disc: Int? = nil) -> TagInfo {
        TagInfo(title: title, album: album, track: track, disc: disc, genre: "Audiobook")
    }

    func books(_ rules: StoryRules = StoryRules(), stations: [Station] = []) throws -> [Book] {
        try library.database.books(of: library.volume, rules: rules, stations: stations)
    }

    func music(_ rules: StoryRules = StoryRules()) throws -> Set<TrackID> {
        try Set(library.database.musicTrackIDs(of: library.volume, rules: rules))
    }

    @Test func twelvePartsNamedByNumberPlayOneToTwelve() throws {
        var ids: [Int: TrackID] = [:]
        // Written in byte order, the order a naive sort would keep: 1, 10, 11, 12, 2, ...
        for number in (1...12).sorted(by: { "\($0)" < "\($1)" }) {
            ids[number] = try add("Gruffalo/\(number).mp3", audiobook(album: "The Gruffalo"))
        }
        let found = try books()
        #expect(found.count == 1)
        let book = try #require(found.first)
        #expect(book.parts == (1...12).map { ids[$0]! })
        #expect(book.path == Array("Gruffalo".utf8))
        #expect(book.name == "The Gruffalo")
        #expect(book.kind == .audiobook)
        #expect(book.bookmarkKey == "book:Gruffalo")
        #expect(book.station == nil)
        #expect(try music().isEmpty)
    }

    @Test func discAndTrackTagsComeBeforeNames() throws {
        let c = try add("Saga/a.mp3", audiobook(track: 1, disc: 2))
        let b = try add("Saga/b.mp3", audiobook(track: 2, disc: 1))
        let a = try add("Saga/c.mp3", audiobook(track: 1, disc: 1))
        let untagged = try add("Saga/Part 10.mp3", audiobook())
        let untaggedFirst = try add("Saga/Part 9.mp3", audiobook())
        let book = try #require(try books().first)
        #expect(book.parts == [untaggedFirst, untagged, a, b, c], "untagged numbers count as 0, then names")
        #expect(book.name == "Saga", "no album tag: the folder's name")
    }

    @Test func aFileWithChaptersOrAnM4BIsABookOfItsOwn() throws {
        let chapters = [Chapter(startMs: 0, title: "One"), Chapter(startMs: 60_000, title: "Two")]
        let withChapters = try add("Mixed/Long story.mp3", audiobook("The Long Story"), chapters: chapters)
        let m4b = try add("Mixed/Whole.M4B", TagInfo(title: "Whole Book", album: "Whole Album"))
        let untitled = try add("Mixed/Nameless.m4b")
        let partOne = try add("Mixed/01 Short.mp3", audiobook())
        let partTwo = try add("Mixed/02 Short.mp3", audiobook())
        let found = try books()
        #expect(found.map(\.name) == ["Mixed", "The Long Story", "Nameless", "Whole Album"])
        #expect(found.map(\.parts) == [[partOne, partTwo], [withChapters], [untitled], [m4b]])
        #expect(
            found.map { PathBytes($0.path).display } == [
                "Mixed", "Mixed/Long story.mp3", "Mixed/Nameless.m4b", "Mixed/Whole.M4B",
            ])
        #expect(found.allSatisfy { $0.kind == .audiobook }, "an .m4b is an audiobook by its name")
        #expect(try music().isEmpty)
    }

    @Test func aMarkedFolderIsStoriesWhateverItsTagsSay() throws {
        let intro = try add("Hörbücher/Räuber/Intro.mp3", TagInfo(title: "Intro", artist: "Teller"))
        let two = try add("Hörbücher/Räuber/Teil 2.mp3", TagInfo(title: "Zwei"))
        let episode = try add("Hörbücher/Show/ep1.mp3", TagInfo(title: "Ep 1"), story: .podcast)
        let episodeTwo = try add("Hörbücher/Show/ep2.mp3", TagInfo(title: "Ep 2"))
        let song = try add("Hörbücher.mp3", TagInfo(title: "A song whose name begins the same"))
        let beside = try add("Hörbücher extra/song.mp3", TagInfo(title: "Beside"))
        #expect(try books().map(\.parts) == [[episode]], "unmarked, only the flagged episode is a story")
        let rules = StoryRules(folders: [Array("Hörbücher".utf8)])
        let found = try books(rules)
        #expect(found.map(\.name) == ["Räuber", "Show"])
        #expect(found.map(\.parts) == [[intro, two], [episode, episodeTwo]])
        #expect(found.map(\.kind) == [.audiobook, .podcast])
        #expect(try music(rules) == [song, beside])
    }

    @Test func fromStartRulesMarkStoriesAndDoNotChangeTheGrouping() throws {
        let a = try add("Bedtime/Tale A/1.mp3", TagInfo(title: "A1"))
        let b = try add("Bedtime/Tale A/2.mp3", TagInfo(title: "A2"))
        let c = try add("Bedtime/Tale B/1.mp3", TagInfo(title: "B1"))
        let song = try add("Songs/1.mp3", TagInfo(title: "Song"))
        let marked = try books(StoryRules(folders: [Array("Bedtime".utf8)]))
        let fromStart = try books(StoryRules(fromStart: [Array("Bedtime".utf8)]))
        #expect(fromStart == marked)
        #expect(fromStart.map(\.parts) == [[a, b], [c]])
        #expect(try music(StoryRules(fromStart: [Array("Bedtime".utf8)])) == [song])
    }

    @Test func aStoryStationIsABookOfWhatItsSearchPicksStoriesIncluded() throws {
        let three = try add("Kids/Gruffalo 3.mp3", TagInfo(title: "Gruffalo three", track: 3))
        let one = try add("Kids/Gruffalo 1.mp3", TagInfo(title: "Gruffalo one", track: 1))
        let told = try add("Stories/Gruffalo read.mp3", audiobook("Gruffalo told"))
        _ = try add("Kids/Other.mp3", TagInfo(title: "Other song"))
        let stations = [
            Station(name: StationFile.wholeStick, search: StationSearch(), mode: nil),
            Station(name: "Gruffalo", search: try StationSearch(parsing: "gruffalo"), mode: nil, isStory: true),
            Station(name: "Songs", search: try StationSearch(parsing: "gruffalo"), mode: nil),
        ]
        let found = try books(stations: stations)
        #expect(found.count == 2)
        let station = try #require(found.last)
        #expect(station.station == "Gruffalo" && station.name == "Gruffalo" && station.path.isEmpty)
        #expect(station.bookmarkKey == "Gruffalo")
        #expect(station.parts == [told, one, three], "book order: track numbers (none: 0), then names")
        #expect(station.kind == .audiobook)
        // An ordinary station with the same search plays its songs only; the story station everything.
        let search = stations[2].search
        #expect(try Set(library.database.stationTrackIDs(search, of: library.volume)) == [one, three])
        #expect(
            try Set(library.database.stationTrackIDs(search, of: library.volume, includingStories: true)) == [
                one, three, told,
            ])
    }

    @Test func aSongFolderBesideABookFolderStaysMusic() throws {
        let songs = [try add("Music/Band/1.mp3", TagInfo(genre: "Rock")), try add("Music/Band/2.mp3")]
        let part = try add("Music/Book/1.mp3", audiobook())
        let podcast = try add("Music/Show/1.mp3", TagInfo(genre: " podcast "))
        #expect(try music() == Set(songs))
        #expect(try books().map(\.parts) == [[part], [podcast]])
        #expect(try books().map(\.kind) == [.audiobook, .podcast])
        #expect(try books().map(\.name) == ["Book", "Show"])
    }

    @Test func namesInBookOrderSortTheBooksToo() throws {
        _ = try add("Series/Book 10/1.mp3", audiobook())
        _ = try add("Series/Book 9/1.mp3", audiobook())
        _ = try add("Series/book 1/1.mp3", audiobook())
        #expect(try books().map(\.name) == ["book 1", "Book 9", "Book 10"])
    }
}
