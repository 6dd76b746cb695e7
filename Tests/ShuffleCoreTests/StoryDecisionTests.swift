import ShuffleCore
import Testing

/// The stories' pure decisions, by tables: what is a story, the order of a book's parts, the story gestures,
/// chapters as skip points, a book's end, and what a stick's file marks.
@Suite struct StoryDecisionTests {
    @Test(arguments: [
        ("Audiobook", StoryKind.audiobook), (" hörbuch ", .audiobook), ("Hörspiel", .audiobook),
        ("Livre audio", .audiobook), ("PODCAST", .podcast), ("Podcasts", .podcast),
    ])
    func aStoryGenreMakesAStory(_ genre: String, _ kind: StoryKind) {
        #expect(StoryKind(genre: genre) == kind)
    }

    @Test(arguments: ["Rock", "Speech", "Spoken Word", "", "Audiobook Soundtrack", "Children's Music"])
    func otherGenresAreSongs(_ genre: String) {
        #expect(StoryKind(genre: genre) == nil)
    }

    @Test func partsNamedByNumberSortAsPeopleCount() {
        let names = (1...12).map { "\($0).mp3" }.shuffled()
        let sorted = names.map { Array($0.utf8) }.sorted(by: NaturalOrder.precedes)
        #expect(sorted.map { String(decoding: $0, as: UTF8.self) } == (1...12).map { "\($0).mp3" })
    }

    @Test(arguments: [
        ("Part 9", "Part 10"), ("2", "10"), ("a2b", "a10b"), ("chapter 01", "Chapter 2"), ("abc", "abd"),
        ("CD1/10", "CD2/1"), ("1", "1a"), ("01", "1"), ("A", "a"),
    ])
    func naturalOrderPairs(_ first: String, _ second: String) {
        #expect(NaturalOrder.precedes(Array(first.utf8), Array(second.utf8)))
        #expect(!NaturalOrder.precedes(Array(second.utf8), Array(first.utf8)))
    }

    @Test func aRunOfDigitsLongerThanAnyIntegerStillCompares() {
        let long = String(repeating: "9", count: 400)
        #expect(NaturalOrder.precedes(Array((long + "8").utf8), Array((long + "9").utf8)))
        #expect(NaturalOrder.precedes(Array("9".utf8), Array(long.utf8)))
    }

    struct NavigationCase: Sendable, CustomTestStringConvertible {
        var playing: Int?
        var lastPlayed: Int?
        var count: Int
        var toggle: StoryTarget?
        var ring: StoryTarget?
        var testDescription: String {
            "playing \(String(describing: playing)), last \(String(describing: lastPlayed)), \(count) books"
        }
    }

    @Test(arguments: [
        NavigationCase(playing: nil, lastPlayed: nil, count: 3, toggle: .book(0), ring: .book(0)),
        NavigationCase(playing: nil, lastPlayed: 2, count: 3, toggle: .book(2), ring: .book(2)),
        NavigationCase(playing: nil, lastPlayed: 7, count: 3, toggle: .book(0), ring: .book(0)),
        NavigationCase(playing: 0, lastPlayed: 0, count: 3, toggle: .music, ring: .book(1)),
        NavigationCase(playing: 2, lastPlayed: 2, count: 3, toggle: .music, ring: .music),
        NavigationCase(playing: nil, lastPlayed: nil, count: 0, toggle: nil, ring: nil),
    ])
    func theStoryGestures(_ row: NavigationCase) {
        #expect(
            StoryNavigation.toggle(playing: row.playing, lastPlayed: row.lastPlayed, count: row.count) == row.toggle)
        #expect(StoryNavigation.ring(playing: row.playing, lastPlayed: row.lastPlayed, count: row.count) == row.ring)
    }

    @Test func theStationGesturesGoRoundTheBooks() {
        #expect(StoryNavigation.step(from: 2, by: 1, count: 3) == 0)
        #expect(StoryNavigation.step(from: 0, by: -1, count: 3) == 2)
        #expect(StoryNavigation.step(from: 1, by: 1, count: 3) == 2)
    }

    static let chapters = [
        Chapter(startMs: 0, title: "One"), Chapter(startMs: 60_000, title: "Two"),
        Chapter(startMs: 120_000, title: "Three"),
    ]

    @Test(arguments: [
        (Int64(0), Int64?(60_000), Int64?(nil)),
        (59_800, 120_000, 0),  // within half a second of the next chapter: the one after
        (61_000, 120_000, 0),  // the first seconds of chapter two: back to chapter one
        (64_000, 120_000, 60_000),  // later: the start of chapter two
        (121_000, nil, 60_000),
        (125_000, nil, 120_000),
        (200_000, nil, 120_000),
    ])
    func chaptersAreSkipPoints(_ position: Int64, _ next: Int64?, _ previous: Int64?) {
        #expect(ChapterSkip.next(Self.chapters, at: position) == next)
        #expect(ChapterSkip.previous(Self.chapters, at: position) == previous)
    }

    @Test func aFirstChapterAfterALeadInGoesBackToTheStart() {
        let chapters = [Chapter(startMs: 5_000, title: nil), Chapter(startMs: 50_000, title: nil)]
        #expect(ChapterSkip.previous(chapters, at: 6_000) == 0)
        #expect(ChapterSkip.previous(chapters, at: 2_000) == nil)
        #expect(ChapterSkip.current(chapters, at: 2_000) == nil)
    }

    @Test func chaptersAreCleanedForAPlayer() {
        let raw = [
            Chapter(startMs: 90_000, title: "c"), Chapter(startMs: 0, title: "a"), Chapter(startMs: -5, title: "x"),
            Chapter(startMs: 30_000, title: "b"), Chapter(startMs: 30_000, title: "b again"),
            Chapter(startMs: 700_000, title: "past the end"),
        ]
        let cleaned = Chapter.cleaned(raw, durationMs: 600_000)
        #expect(cleaned.map(\.title) == ["a", "b", "c"])
        #expect(Chapter.cleaned([Chapter(startMs: 0, title: "only")], durationMs: 1000).isEmpty)
        let many = (0..<5_000).map { Chapter(startMs: Int64($0) * 1000, title: nil) }
        #expect(Chapter.cleaned(many, durationMs: nil).count == Chapter.maxCount)
    }

    @Test func aBookHoldsItsFirstPartPausedAtItsEnd() {
        let ids = (1...3).map { TrackID(Int64($0)) }
        var groups = ShuffleGroups()
        for (rank, id) in ids.enumerated() {
            groups.set(id, ShuffleTraits(artist: 0, album: 0, pathRank: UInt32(rank)))
        }
        let order = ShuffleOrder(
            restoring: ids, cursor: 2, library: ids, random: SplitMix64(seed: 1),
            settings: ShuffleSettings(mode: .inOrder), groups: groups)
        var machine = PlayerMachine(order: order, volume: 5, scale: VolumeScale(), once: false, pausesAtEnd: true)
        _ = machine.handle(.begin(positionMs: 1_000, paused: false))
        #expect(
            machine.handle(.trackEnded(continued: false)) == [
                .announce(ids[0]), .start(ids[0], positionMs: 0, paused: true), .queue(ids[1]), .saveState, .reachedEnd,
            ])
        #expect(machine.paused)
        #expect(
            machine.state(positionMs: 0) == PlaybackState(order: ids, cursor: 0, positionMs: 0, volume: 5, paused: true)
        )
        // A person pressing next at the last part is the same end.
        _ = machine.handle(.jump(position: 2))
        #expect(machine.handle(.next).last == .reachedEnd)
    }

    @Test func aStickFileMarksStoryFoldersAndStoryStations() {
        let file = StationFile(
            parsing: """
                stories = Hörbücher/
                from-start = "Bedtime stories"
                stories =
                station = Gruffalo
                search = folder:Gruffalo
                story = yes
                stories = Late
                station = Calm
                search = calm
                story = maybe
                """)
        #expect(file.stories.folders == [Array("Hörbücher".utf8)])
        #expect(file.stories.fromStart == [Array("Bedtime stories".utf8)])
        #expect(file.stations.map(\.name) == ["All", "Gruffalo", "Calm"])
        #expect(file.stations.map(\.isStory) == [false, true, false])
        #expect(file.errors.compactMap(\.line) == [3, 7, 10])
        #expect(file.stories.marksStory(Array("Hörbücher/Zog/1.mp3".utf8)))
        #expect(!file.stories.marksStory(Array("Hörbücher2/1.mp3".utf8)))
        #expect(file.stories.marksStory(Array("Bedtime stories/1.mp3".utf8)))
        #expect(file.stories.startsFromBeginning(Array("Bedtime stories/Moon".utf8)))
        #expect(!file.stories.startsFromBeginning(Array("Hörbücher/Zog".utf8)))
    }

    @Test func theStoryMessagesAreSaid() {
        var announcer = Announcer()
        func text(_ event: Announcer.Event) -> String? {
            guard case .say(let segments, _)? = announcer.handle(event, at: .zero).first else { return nil }
            return segments.map(\.text).joined(separator: " ")
        }
        #expect(text(.storyChosen(name: "Zog", chapter: "Chapter 3")) == "Zog. Chapter 3")
        #expect(text(.storyChosen(name: "Zog", chapter: nil)) == "Zog")
        #expect(text(.musicChosen(station: nil)) == "Music")
        #expect(text(.musicChosen(station: "Calm")) == "Calm")
        #expect(text(.noStories) == "No stories on this stick")
        #expect(text(.startedOver) == "From the beginning")
        #expect(text(.storyFinished) == "The end")
    }
}
