import ShuffleCore
import Testing

@Suite struct SongListTests {
    /// Songs with every field set, none set, shared and unshared tags, empty strings and hostile numbers.
    static let songs: [SongInfo] = [
        SongInfo(
            id: 7, path: "Beyoncé/Live at the Olympia/05 - Ça va.mp3", title: "Ça va", artist: "Beyoncé",
            album: "Live at the Olympia", durationMs: 215_000, albumArtist: "Beyoncé", genre: "Pop", track: 5,
            disc: 1, year: 2014, format: "44100:16:2"),
        SongInfo(id: 3, path: "loose.mp3"),
        SongInfo(
            id: 9, path: "Beyoncé/Live at the Olympia/06 - Halo.flac", title: "Halo", artist: "Beyoncé",
            album: "Live at the Olympia", durationMs: 261_000, albumArtist: "Beyoncé", genre: "Pop", track: 6,
            disc: 1, year: 2014, format: "96000:24:2"),
        SongInfo(
            id: Int64.max, path: "", title: "", artist: "", album: nil, durationMs: -1, track: Int.max, disc: -3,
            year: 0),
        SongInfo(id: 1, path: "Ελλάδα/日本語/\u{1F3B5} long enough to leave the inline form.ogg", title: "🎵"),
    ]

    @Test func everySongComesBackAsItWent() {
        let list = SongList(Self.songs)
        #expect(list.count == Self.songs.count)
        #expect(Array(list) == Self.songs)
        #expect(list.indices.map { list.id(at: $0) } == Self.songs.map(\.id))
        #expect(list[3].track == Int(Int32.max), "a number past 32 bits is clamped, as SongInfo stores it")
        for position in list.indices {
            #expect(list.path(at: position) == Self.songs[position].path)
            for tag in MPDTag.allCases {
                #expect(list.tag(tag, at: position) == Self.songs[position].tag(tag), "\(tag) of song \(position)")
            }
        }
    }

    @Test func anEmptyListHasNoSongs() {
        #expect(SongList().isEmpty)
        #expect(SongList().sortedByPath().isEmpty)
    }

    /// The order of `String`s: "e" then a decomposed "é" (e + U+0301, as a Mac writes names) then "f",
    /// where the order of bytes would put the decomposed one after "f"'s byte only when NFC says so.
    @Test func sortingByPathIsTheOrderOfStrings() {
        let paths = [
            "f.mp3", "e\u{301}/b.mp3", "\u{E9}/a.mp3", "e/z.mp3", "Z.mp3", "a/b/c.mp3", "a/b.mp3", "ab.mp3", "Ω.mp3",
            "e\u{301}t\u{E9}.mp3",
        ]
        let songs = paths.enumerated().map { SongInfo(id: Int64($0.offset), path: $0.element) }
        let sorted = SongList(songs).sortedByPath()
        #expect(sorted.map(\.path) == paths.sorted())
        #expect(Array(sorted) == songs.sorted { $0.path < $1.path })
    }

    /// The records are moved into their order in place, cycle by cycle: a scrambled 1,000 songs (cycles of
    /// every length, some songs already in place) come out whole, each once, in the order of `String`s.
    @Test func sortingManySongsInPlaceKeepsEverySong() {
        var state: UInt64 = 7
        let songs = (0..<1_000).map { index -> SongInfo in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let folder = index % 10 == 0 ? "a" : String(state >> 40, radix: 36)
            return SongInfo(id: Int64(index), path: "\(folder)/\(index).mp3", title: "t\(index)")
        }
        let sorted = SongList(songs).sortedByPath()
        #expect(Array(sorted) == songs.sorted { $0.path < $1.path })
    }
}

/// `albumart` and `readpicture` read only what the listing holds: a song's path exactly, or a folder above songs.
@Suite struct SongListPathTests {
    let songs = SongList([
        SongInfo(id: 1, path: "Album/01 One.mp3"), SongInfo(id: 2, path: "Cafe\u{301}/song.mp3"),
        SongInfo(id: 3, path: "loose.mp3"),
    ])

    @Test func aSongIsItsPathByteForByte() {
        #expect(songs.containsPath("Album/01 One.mp3"))
        #expect(songs.containsPath("loose.mp3"))
        #expect(songs.containsPath("Cafe\u{301}/song.mp3"))
        // The same name composed is another file on the stick: not this song.
        #expect(!songs.containsPath("Caf\u{E9}/song.mp3"))
        #expect(!songs.containsPath("Album/01 One.mp"))
        #expect(!songs.containsPath("Album"))
        #expect(!songs.containsPath("../../etc/passwd"))
    }

    @Test func aFolderIsOneAboveASong() {
        #expect(songs.containsPath("Album", asFolder: true))
        #expect(songs.containsPath("Cafe\u{301}", asFolder: true))
        #expect(!songs.containsPath("Alb", asFolder: true))
        #expect(!songs.containsPath("loose.mp3", asFolder: true))
        #expect(!songs.containsPath("Album/01 One.mp3", asFolder: true))
    }
}
