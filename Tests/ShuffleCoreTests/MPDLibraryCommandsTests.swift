import ShuffleCore
import Testing

/// A library of five songs in three folders, browsed and searched from memory.
private struct LibraryBackend: MPDBackend {
    let songs: [SongInfo] = [
        SongInfo(
            id: 1, path: "Ann/First/01 One.mp3", title: "One", artist: "Ann", album: "First", durationMs: 100_000,
            albumArtist: "Ann", genre: "Pop", track: 1, year: 2001),
        SongInfo(
            id: 2, path: "Ann/First/02 Two.mp3", title: "Two", artist: "Ann", album: "First", durationMs: 50_000,
            albumArtist: "Ann", genre: "Pop", track: 2, year: 2001),
        SongInfo(
            id: 3, path: "Ann/Second/01 Three.mp3", title: "Three", artist: "Ann feat. Bob", album: "Second",
            durationMs: 60_000, albumArtist: "Ann", genre: "Rock", year: 2005),
        SongInfo(
            id: 4, path: "Various/Mix/01 Four.mp3", title: "Four", artist: "Bob", album: "Mix", durationMs: 30_000,
            albumArtist: "Various Artists", genre: "Rock"),
        SongInfo(id: 5, path: "loose.mp3", durationMs: 10_000),
    ]

    func snapshot() -> PlayerSnapshot { PlayerSnapshot(state: .playing) }
    mutating func perform(_ action: PlayerAction) -> MPDError? { nil }
    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] { [] }
    func librarySongs() -> SongList { SongList(songs) }
}

@Suite struct MPDLibraryCommandsTests {
    private func run(_ line: String) -> String {
        var backend = LibraryBackend()
        var session = MPDSession()
        return session.receive(line: Array(line.utf8), backend: &backend).text
    }

    private func ids(_ answer: String) -> [String] {
        answer.split(separator: "\n").filter { $0.hasPrefix("Id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test(arguments: [
        (#"find "(artist == 'Ann')""#, ["1", "2"]),
        (#"find "(Artist == \"Ann\")""#, ["1", "2"]),
        (#"find "(artist != 'Ann')""#, ["3", "4", "5"]),
        (#"find "(artist contains 'Bob')""#, ["3", "4"]),
        (#"find "(artist contains 'bob')""#, []),
        (#"search "(artist contains 'bob')""#, ["3", "4"]),
        (#"find "(title starts_with 'T')""#, ["2", "3"]),
        (#"find "(base 'Ann')""#, ["1", "2", "3"]),
        (#"find "(base 'Ann/First')""#, ["1", "2"]),
        (#"find "(!(genre == 'Pop'))""#, ["3", "4", "5"]),
        (#"find "((genre == 'Rock') AND (albumartist == 'Ann'))""#, ["3"]),
        (#"find "((albumartist == 'Ann') AND (date == '2001') AND (track == '2'))""#, ["2"]),
        (#"find "(file == 'loose.mp3')""#, ["5"]),
        (#"search "(any contains 'mix')""#, ["4"]),
        ("find genre Rock", ["3", "4"]),
        ("find albumartist Ann genre Pop", ["1", "2"]),
        ("search genre roc", ["3", "4"]),
        (#"find "(albumartist == 'Ann')" sort Title"#, ["1", "3", "2"]),
        (#"find "(albumartist == 'Ann')" window 1:2"#, ["2"]),
    ])
    func filterExpressionsAndEveryTagFindTheRightSongs(_ line: String, _ expected: [String]) {
        let answer = run(line)
        #expect(answer.hasSuffix("OK\n"), "\(answer)")
        #expect(ids(answer) == expected, "\(line)")
    }

    @Test(arguments: [
        #"find "(artist == 'Ann""#, #"find "(artist ~~ 'Ann')""#, #"find "(bogus == 'x')""#,
        #"find "(artist == 'Ann') AND""#, #"find "((artist == 'a') OR (artist == 'b'))""#, #"find "(artist == Ann)""#,
    ])
    func malformedFiltersAreAnsweredWithAnACK(_ line: String) {
        #expect(run(line).hasPrefix("ACK [2@0] {find} "), "\(line)")
    }

    @Test func listGivesDistinctValuesAndGroupsThem() {
        #expect(run("list genre") == "Genre: Pop\nGenre: Rock\nOK\n")
        #expect(run("list album") == "Album: First\nAlbum: Mix\nAlbum: Second\nOK\n")
        #expect(run("list album Bob") == "Album: Mix\nOK\n")
        #expect(run(#"list album "(genre == 'Rock')""#) == "Album: Mix\nAlbum: Second\nOK\n")
        #expect(
            run("list album group albumartist")
                == "AlbumArtist: Ann\nAlbum: First\nAlbum: Second\nAlbumArtist: Various Artists\nAlbum: Mix\nOK\n")
        #expect(run("list title artist Ann") == "Title: One\nTitle: Two\nOK\n")
        #expect(run("list bogus").hasPrefix("ACK [2@0] {list} Unknown tag type"))
    }

    @Test func countAndCountByGroup() {
        #expect(run("count genre Pop") == "songs: 2\nplaytime: 150\nOK\n")
        #expect(run(#"count "(base 'Ann')""#) == "songs: 3\nplaytime: 210\nOK\n")
        #expect(
            run("count group genre")
                == "Genre: \nsongs: 1\nplaytime: 10\nGenre: Pop\nsongs: 2\nplaytime: 150\nGenre: Rock\nsongs: 2\nplaytime: 90\nOK\n"
        )
    }

    @Test func foldersListTheirSubfoldersAndSongs() {
        #expect(
            run("lsinfo")
                == "directory: Ann\ndirectory: Various\nfile: loose.mp3\nTime: 10\nduration: 10.000\nId: 5\nOK\n")
        #expect(run(#"lsinfo "Ann""#) == "directory: Ann/First\ndirectory: Ann/Second\nOK\n")
        let first = run(#"lsinfo "Ann/First/""#)
        #expect(ids(first) == ["1", "2"] && first.contains("Title: One\n") && !first.contains("directory:"))
        #expect(
            run("listall Ann")
                == "directory: Ann/First\ndirectory: Ann/Second\nfile: Ann/First/01 One.mp3\nfile: Ann/First/02 Two.mp3\n"
                + "file: Ann/Second/01 Three.mp3\nOK\n")
        let everything = run("listallinfo")
        #expect(ids(everything) == ["1", "2", "3", "4", "5"])
        #expect(everything.contains("directory: Various/Mix\n"))
    }

    // Cantata asks `lsinfo "mpd-client://cantata/VERSION"` to tell MPD from other servers: an empty OK made it
    // take the box for forked-daapd and list `file:`, so its Library view stayed empty ("No music?").
    @Test func aPathThatIsNoFolderIsNoSuchDirectoryAndASongsPathIsThatSong() {
        #expect(run(#"lsinfo "mpd-client://cantata/2.5.0""#) == "ACK [50@0] {lsinfo} No such directory\n")
        #expect(run(#"lsinfo "Ann/Third""#) == "ACK [50@0] {lsinfo} No such directory\n")
        #expect(run(#"listallinfo "An""#) == "ACK [50@0] {listallinfo} No such directory\n")
        let song = run(#"lsinfo "Ann/First/01 One.mp3""#)
        #expect(ids(song) == ["1"] && song.hasPrefix("file: Ann/First/01 One.mp3\n"), "\(song)")
        #expect(run("lsinfo /") == run("lsinfo"))
    }
}

/// A larger library with tags drawn from small pools (missing, empty, the same name in two Unicode forms),
/// for `list` and `count`, whose answers are held to the rows and sums worked out here from the songs.
private struct PoolBackend: MPDBackend {
    let songs: [SongInfo]
    init() {
        let names: [String?] = [nil, "", "Ann", "Bob", "Caf\u{E9}", "Cafe\u{301}", "Zo\u{EB}"]
        var songs: [SongInfo] = []
        for n in 0..<600 {
            // One value at a time: Swift 6.0's type checker gives up on the whole initializer at once.
            let title: String? = n % 9 == 0 ? nil : "T\(n % 11)"
            let track: Int? = n % 4 == 0 ? nil : n % 13
            let year: Int? = n % 6 == 0 ? nil : 1990 + n % 4
            let path: String = "f\(n % 7)/\(n).mp3"
            let durationMs = Int64(n) * 1_234
            songs.append(
                SongInfo(
                    id: Int64(n + 1), path: path, title: title, artist: names[n % 7], album: names[(n / 7) % 7],
                    durationMs: durationMs, albumArtist: names[(n / 3) % 7], genre: names[(n / 5) % 7],
                    track: track, disc: n % 3, year: year))
        }
        self.songs = songs
    }
    func snapshot() -> PlayerSnapshot { PlayerSnapshot(state: .playing) }
    mutating func perform(_ action: PlayerAction) -> MPDError? { nil }
    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] { [] }
    func librarySongs() -> SongList { SongList(songs) }
}

@Suite struct MPDListAndCountTests {
    private func run(_ line: String) -> String {
        var backend = PoolBackend()
        var session = MPDSession()
        return session.receive(line: Array(line.utf8), backend: &backend).text
    }

    /// MPD's `list TAG group G1 group G2` answer for `songs`: each distinct row once, sorted, a group's value
    /// written when it changes.
    private func expectedList(_ tag: MPDTag, _ groups: [MPDTag], _ songs: [SongInfo]) -> String {
        let rows = Set(songs.compactMap { song in song.tag(tag).map { groups.map { song.tag($0) ?? "" } + [$0] } })
        var out = ""
        var previous: [String] = []
        for row in rows.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let names = groups.map(\.rawValue) + [tag.rawValue]
            for level in row.indices
            where level == row.count - 1 || previous.count <= level
                || previous[...level] != row[...level]
            {
                out += "\(names[level]): \(row[level])\n"
            }
            previous = row
        }
        return out + "OK\n"
    }

    @Test func listIsEveryDistinctRowOfTheTagsNamed() {
        let songs = PoolBackend().songs
        let cases: [(MPDTag, [MPDTag])] = [
            (.album, []), (.album, [.albumArtist]), (.album, [.albumArtist, .date]), (.genre, [.artist, .disc]),
            (.track, [.album]), (.title, [.artist]), (.artist, [.title]), (.date, [.genre, .album, .artist]),
        ]
        for (tag, groups) in cases {
            let line = (["list", tag.rawValue] + groups.flatMap { ["group", $0.rawValue] }).joined(separator: " ")
            #expect(run(line) == expectedList(tag, groups, songs), "\(line)")
        }
        let filtered = songs.filter { $0.genre == "Bob" }
        #expect(
            run(#"list album "(genre == 'Bob')" group albumartist"#)
                == expectedList(.album, [.albumArtist], filtered))
    }

    @Test func countSumsTheSongsAndTheirTimeByGroup() {
        let songs = PoolBackend().songs
        func lines(_ some: [SongInfo]) -> String {
            "songs: \(some.count)\nplaytime: \(some.reduce(Int64(0)) { $0 + $1.durationMs } / 1000)\n"
        }
        #expect(run(#"count "(base '')""#) == lines(songs) + "OK\n")
        #expect(run(#"count "(artist == 'Ann')""#) == lines(songs.filter { $0.artist == "Ann" }) + "OK\n")
        let groups = Dictionary(grouping: songs) { $0.album ?? "" }
        let expected = groups.keys.sorted().map { "Album: \($0)\n" + lines(groups[$0]!) }.joined() + "OK\n"
        #expect(run(#"count "(base '')" group album"#) == expected)
    }
}
