import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// The story gestures through the appliance's real services and router (`ApplianceHarness`): which book or
/// music the player is started on, what is stored, what is refused.
@Suite struct StoryApplianceTests {
    /// Two books and a stick's music.
    static let shelf = StoryShelf(
        books: [
            Book(
                path: Array("Gruffalo".utf8), name: "The Gruffalo", kind: .audiobook, parts: [TrackID(11), TrackID(12)]),
            Book(path: Array("Zog.m4b".utf8), name: "Zog", kind: .audiobook, parts: [TrackID(21)]),
        ],
        bookmarks: ["book:Zog.m4b": BookmarkInfo(trackID: 21, positionMs: 60_000, updatedAt: 50)])

    /// A box playing stick A's music, whose index holds `shelf`.
    static func box(_ shelf: StoryShelf = shelf, stationFile: String? = nil) throws -> ApplianceHarness {
        let box = try ApplianceHarness()
        box.library.shelves[box.stickID("A")] = shelf
        try box.playing("A", stationFile: stationFile)
        _ = box.player.take()
        return box
    }

    @Test func theStoriesGestureGoesToTheBookPlayedLastAndBackToTheMusic() throws {
        let box = try Self.box()
        let stick = box.stickID("A")
        box.appliance.buttons.pressed(.stories)
        // Zog's bookmark is the one stored last.
        #expect(box.player.take() == ["stop", "start \(stick) book:Zog level 10"])
        #expect(box.library.calls.last == "book book:Zog.m4b \(stick)")
        box.appliance.buttons.pressed(.stories)
        #expect(box.player.take() == ["stop", "start \(stick) - level 10"])
        #expect(box.library.calls.last == "book - \(stick)")
    }

    @Test func theStationGesturesChooseAmongTheBooksWhileABookPlays() throws {
        let box = try Self.box(stationFile: "station = Calm\nsearch = calm\n")
        let stick = box.stickID("A")
        box.appliance.buttons.pressed(.stories)
        _ = box.player.take()
        box.appliance.buttons.pressed(.nextStation)
        #expect(box.player.take() == ["stop", "start \(stick) book:The Gruffalo level 10"])
        box.appliance.buttons.pressed(.previousStation)
        #expect(box.player.take() == ["stop", "start \(stick) book:Zog level 10"])
        // A station by name leaves the book for the music at that station.
        #expect(box.appliance.chooseStation(.named("Calm")) == nil)
        #expect(box.player.take() == ["stop", "start \(stick) Calm level 10"])
        #expect(box.library.calls.suffix(2) == ["book - \(stick)", "station Calm \(stick)"])
        // And back in the music, the station gestures are the stations'.
        box.appliance.buttons.pressed(.nextStation)
        #expect(box.player.take() == ["stop", "start \(stick) - level 10"])
    }

    @Test func theOneButtonRingGoesThroughEveryBookThenBackToTheMusic() throws {
        let box = try Self.box(StoryShelf(books: Self.shelf.books))
        let stick = box.stickID("A")
        var started: [String] = []
        for _ in 0..<3 {
            box.appliance.buttons.pressed(.nextStory)
            started += box.player.take().filter { $0.hasPrefix("start") }
        }
        #expect(
            started == [
                "start \(stick) book:The Gruffalo level 10", "start \(stick) book:Zog level 10",
                "start \(stick) - level 10",
            ])
    }

    @Test func startOverPlaysTheBookFromItsFirstPartAndIsRefusedUnderTheLock() throws {
        let box = try Self.box()
        let stick = box.stickID("A")
        box.appliance.buttons.pressed(.startOver)
        // The music does not start over.
        #expect(box.player.take().isEmpty)
        box.appliance.buttons.pressed(.stories)
        _ = box.player.take()
        box.appliance.buttons.pressed(.startOver)
        #expect(box.player.take() == ["stop", "start \(stick) book:Zog from-start level 10"])
        #expect(box.library.calls.contains("finished book:Zog.m4b false \(stick)"))
        // Only once: the next start is from the bookmark the new start stores.
        box.appliance.buttons.pressed(.nextStation)
        box.appliance.buttons.pressed(.previousStation)
        #expect(box.player.take().filter { $0.hasPrefix("start") }.last == "start \(stick) book:Zog level 10")
        box.appliance.buttons.pressed(.lock)
        box.appliance.buttons.pressed(.startOver)
        #expect(box.player.take().isEmpty)
    }

    @Test func aBookAtItsEndIsMarkedFinishedAndTheBoxPauses() throws {
        let box = try Self.box()
        let stick = box.stickID("A")
        box.appliance.buttons.pressed(.stories)
        box.playerSays(.trackStarted(at: .now))
        _ = box.player.take()
        box.playerSays(.bookFinished)
        #expect(box.library.calls.last == "finished book:Zog.m4b true \(stick)")
        #expect(box.state == .paused)
        #expect(box.player.take() == ["pause"])
        // Chosen again, it is no longer finished: it plays from its start, where the player left it.
        box.appliance.buttons.pressed(.stories)
        box.appliance.buttons.pressed(.stories)
        #expect(box.library.calls.contains("finished book:Zog.m4b false \(stick)"))
    }

    @Test func aStickThatWasInABookResumesInIt() throws {
        let box = try ApplianceHarness()
        let stick = box.stickID("A")
        box.library.shelves[stick] = Self.shelf
        box.library.known[stick] = StoredVolume(known: true, volume: 7, book: "book:Gruffalo")
        try box.plug("A")
        #expect(box.player.take().contains("start \(stick) book:The Gruffalo level 7"))
        // A book gone from the stick: the music plays.
        let other = try ApplianceHarness()
        other.library.shelves[other.stickID("B")] = Self.shelf
        other.library.known[other.stickID("B")] = StoredVolume(known: true, volume: 7, book: "book:Gone")
        try other.plug("B")
        #expect(other.player.take().contains("start \(other.stickID("B")) - level 7"))
        #expect(other.library.calls.contains("book - \(other.stickID("B"))"))
    }

    @Test func withoutStoriesTheGestureChangesNothing() throws {
        let box = try Self.box(StoryShelf())
        box.appliance.buttons.pressed(.stories)
        box.appliance.buttons.pressed(.nextStory)
        #expect(box.player.take().isEmpty)
        #expect(box.state == .playing)
    }

    @Test func nextAndPreviousMoveByChapterInsideAPart() throws {
        let box = try Self.box()
        box.appliance.buttons.pressed(.stories)
        let chapters = [
            Chapter(startMs: 0, title: "One"), Chapter(startMs: 60_000, title: "Two"),
            Chapter(startMs: 120_000, title: "Three"),
        ]
        box.player.heard = Self.heard(21, at: 70_000, chapters: chapters)
        box.playerSays(.trackStarted(at: .now))
        _ = box.player.take()
        box.appliance.buttons.pressed(.next)
        #expect(box.player.take() == ["seek to 120000"])
        box.appliance.buttons.pressed(.previous)
        #expect(box.player.take() == ["seek to 60000"])
        box.player.heard = Self.heard(21, at: 1_000, chapters: chapters)
        box.appliance.buttons.pressed(.previous)
        #expect(box.player.take() == ["previous"])
        box.player.heard = Self.heard(21, at: 130_000, chapters: chapters)
        box.appliance.buttons.pressed(.next)
        #expect(box.player.take() == ["next"])
    }

    @Test func theBooksAreListedAsPlaylistsWithTheirPartsAndLoadByName() throws {
        let box = try Self.box(stationFile: "station = Calm\nsearch = calm\n")
        let listing = box.appliance.stations()
        #expect(listing.map(\.name) == ["All", "Calm", "The Gruffalo", "Zog"])
        #expect(listing[2].tracks == [11, 12])
        #expect(box.appliance.chooseStation(.named("the gruffalo")) == nil)
        #expect(box.player.take() == ["stop", "start \(box.stickID("A")) book:The Gruffalo level 10"])
        #expect(box.appliance.stations().filter(\.playing).map(\.name) == ["The Gruffalo"])
    }

    @Test func statusNamesTheBookItsPartAndItsChapter() throws {
        // No bookmark yet: the first book.
        let box = try Self.box(StoryShelf(books: Self.shelf.books))
        box.appliance.buttons.pressed(.nextStory)
        box.player.heard = Self.heard(
            12, at: 65_000, chapters: [Chapter(startMs: 0, title: nil), Chapter(startMs: 60_000, title: "Owl")])
        let story = box.appliance.snapshot().story
        #expect(story?.summary == "The Gruffalo (audiobook), part 2 of 2, chapter 2 of 2: Owl")
        #expect(box.appliance.snapshot().station == nil)
    }

    @Test func clientsHaveTheStoryGesturesToo() throws {
        let box = try Self.box()
        let stick = box.stickID("A")
        #expect(box.appliance.storyAction(.startOver) == MPDError(.noExist, "no story plays"))
        #expect(box.appliance.storyAction(.stories) == nil)
        #expect(box.player.take() == ["stop", "start \(stick) book:Zog level 10"])
        #expect(box.appliance.storyAction(.startOver) == nil)
        #expect(box.player.take() == ["stop", "start \(stick) book:Zog from-start level 10"])
        #expect(try Command.parse(["ctl", "stories"]) == .ctl(ControlOptions(action: .story(.stories))))
        #expect(try Command.parse(["ctl", "start-over"]) == .ctl(ControlOptions(action: .story(.startOver))))
        let empty = try Self.box(StoryShelf())
        #expect(empty.appliance.storyAction(.stories) == MPDError(.noExist, "no stories on this stick"))
    }

    static func heard(_ id: Int64, at positionMs: Int64, chapters: [Chapter]) -> NowPlaying {
        NowPlaying(
            song: SongInfo(id: id, path: "x.m4b", title: nil, artist: nil, album: nil, durationMs: 600_000),
            positionMs: positionMs, queuePosition: 0, queueLength: 1, sampleRate: 44_100, channels: 2,
            playerPaused: false, outputPaused: false, chapters: chapters)
    }
}
