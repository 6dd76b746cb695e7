import ShuffleCore
import Testing

@Suite struct StationFileTests {
    @Test func readsSettingsAndStationsAndTheWholeStickComesFirst() throws {
        let file = StationFile(
            parsing: """
                # Lina's stick
                volume = 6
                max-volume = 10   # quieter than the box
                shuffle = albums

                station = Bedtime
                search = lullaby folder:"Bedtime songs"
                mode = balanced
                station = Raffi
                search = artist:raffi genre:Children\r
                """)
        #expect(file.errors == [])
        #expect(file.settings == StickSettings(startVolume: 6, maxVolume: 10, mode: .albums))
        #expect(file.stations.map(\.name) == ["All", "Bedtime", "Raffi"])
        #expect(file.stations[0].search.isEmpty && file.stations[0].mode == nil)
        #expect(file.stations[1].search.words == ["lullaby"])
        #expect(file.stations[1].search.filters.map(\.field) == [.folder])
        #expect(file.stations[1].search.filters.map(\.value) == ["Bedtime songs"])
        #expect(file.stations[1].mode == .balanced)
        #expect(file.stations[2].search.filters.map(\.value) == ["raffi", "Children"])
        #expect(file.stations[2].mode == nil)
    }

    /// (text, the line numbers of the errors): a line in error is skipped, the rest applies.
    static let broken: [(String, [Int?])] = [
        ("volume 6\n", [1]),
        ("search = x\n", [1]),
        ("station = A\nsearch = \"open\n", [2, nil]),
        ("station = A\nsearch = x\nstation = a\nsearch = y\n", [3]),
        ("station = All\nsearch = x\n", [1]),
        ("station = A\nmode = random\nsearch = x\n", [2]),
        ("max-volume = loud\n", [1]),
        ("station = A\nsearch = x\nvolume = 3\n", [3]),
        ("\n\nbrightness = 3\n", [3]),
        ("station = Empty\nstation = B\nsearch = folder:\n", [nil, 3, nil]),
    ]

    @Test(arguments: broken)
    func errorsNameTheirLine(text: String, lines: [Int?]) {
        let file = StationFile(parsing: text)
        #expect(file.errors.map(\.line) == lines, "\(file.errors)")
        #expect(file.errors.allSatisfy { $0.description.hasPrefix("shufflebox.txt") })
        #expect(file.stations.first?.name == StationFile.wholeStick)
    }

    @Test func theRestOfAFileWithErrorsStillApplies() {
        let file = StationFile(parsing: "volume = x\nmax-volume = 9\nstation = B\nsearch = y\n")
        #expect(file.errors.map(\.line) == [1])
        #expect(file.settings.maxVolume == 9)
        #expect(file.stations.map(\.name) == ["All", "B"])
    }

    typealias Settings = DaemonMachine.Settings
    static let box = Settings(startVolume: 8, maxVolume: 12, volumeSteps: 20, resumePaused: false, minVolume: 3)

    /// (stick start, stick cap) → (start, cap) after: lower, never higher.
    @Test(arguments: [
        (nil, nil, 8, 12), (6, nil, 6, 12), (20, nil, 8, 12), (nil, 10, 8, 10), (nil, 20, 8, 12), (nil, 5, 5, 5),
        (10, 6, 6, 6), (nil, 0, 3, 3), (0, nil, 0, 12),
    ] as [(Int?, Int?, Int, Int)])
    func aStickCanLowerButNeverRaiseTheCapOrTheStartVolume(start: Int?, cap: Int?, wantStart: Int, wantCap: Int) {
        let applied = StickSettings(startVolume: start, maxVolume: cap).applied(to: Self.box)
        #expect(applied.startVolume == wantStart)
        #expect(applied.maxVolume == wantCap)
        #expect(applied.minVolume == Self.box.minVolume, "the floor is the parent's")
        #expect(applied.volumeSteps == Self.box.volumeSteps)
    }

    @Test func searchesReadQuotesFiltersAndWords() throws {
        let search = try StationSearch(parsing: #"the  "white album" ARTIST:"The Beatles" title:x folder:a/b"#)
        #expect(search.words == ["the", "white album"])
        #expect(search.filters.map(\.field) == [.artist, .title, .folder])
        #expect(search.filters.map(\.value) == ["The Beatles", "x", "a/b"])
        #expect(try StationSearch(parsing: "unknown:field").words == ["unknown:field"])
        #expect(throws: StationSearch.ParseError.self) { try StationSearch(parsing: "  ") }
        #expect(throws: StationSearch.ParseError.self) { try StationSearch(parsing: "genre:") }
    }
}
