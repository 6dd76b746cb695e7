import ShuffleCore
import Testing

/// The bytes of song lists: a tag from a hostile stick cannot add a line, numbers and durations read as MPD
/// writes them at every edge, and a song is every line a client looks for, in MPD's order.
@Suite struct MPDWriterTests {
    @Test func aTagWithLineBreaksStaysOneLineAndCannotForgeAnAnswer() {
        let title = "Evil\nOK\r\nACK [5@0] {} forged\rend"
        let song = SongInfo(id: 7, path: "a\nb.mp3", title: title, artist: "\r\n", durationMs: 1_500)
        let text = MPDCommands.song(song, position: 3)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "ends with a newline")
        #expect(
            Array(lines.dropLast()) == [
                "file: a b.mp3", "Title: Evil OK  ACK [5@0] {} forged end", "Artist:   ", "Time: 2",
                "duration: 1.500", "Pos: 3", "Id: 7",
            ])
        #expect(!lines.contains("OK") && !lines.contains { $0.hasPrefix("ACK") })
    }

    @Test func numbersAndDurationsAtTheirEdges() {
        var out = MPDWriter()
        for value: Int64 in [0, 9, 10, -1, 1_234_567_890, .max, .min] { out.line("n", value) }
        for ms: Int64 in [0, 1, 999, 1_000, 61_001, -5, 3_600_000_123] { out.line("d", milliseconds: ms) }
        #expect(
            out.text.split(separator: "\n") == [
                "n: 0", "n: 9", "n: 10", "n: -1", "n: 1234567890", "n: 9223372036854775807",
                "n: -9223372036854775808", "d: 0.000", "d: 0.001", "d: 0.999", "d: 1.000", "d: 61.001", "d: 0.000",
                "d: 3600000.123",
            ])
        // Every duration as `%d.%03d` of its seconds and milliseconds writes it.
        for ms in stride(from: Int64(0), through: 100_000, by: 37) {
            var one = MPDWriter()
            one.line("duration", milliseconds: ms)
            let fraction = String(ms % 1000)
            #expect(
                one.text == "duration: \(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)\n")
        }
    }

    @Test func aSongHasEveryTagEnabledInMPDsOrderAndOnlyThose() {
        var song = SongInfo(
            id: 42, path: "Artist/Album/01 Song.flac", title: "Song", artist: "Artist", album: "Album",
            durationMs: 215_499, albumArtist: "Various", genre: "Rock", track: 1, disc: 2, year: 1999,
            format: "44100:24:2", modified: 0)
        #expect(
            MPDCommands.song(song, position: 0)
                == """
                file: Artist/Album/01 Song.flac
                Last-Modified: 1970-01-01T00:00:00Z
                Title: Song
                Artist: Artist
                Album: Album
                AlbumArtist: Various
                Track: 1
                Disc: 2
                Genre: Rock
                Date: 1999
                Time: 215
                duration: 215.499
                Format: 44100:24:2
                Pos: 0
                Id: 42

                """)
        song.track = nil
        #expect(
            MPDCommands.song(song, position: nil, tags: [.track, .date, .title])
                == "file: Artist/Album/01 Song.flac\nLast-Modified: 1970-01-01T00:00:00Z\nTitle: Song\nDate: 1999\n"
                + "Time: 215\nduration: 215.499\nFormat: 44100:24:2\nId: 42\n")
    }

    @Test func theCompactListingWritesEachSongAsItsSongInfoDoes() {
        var songs = [
            SongInfo(id: 1, path: "a.mp3"),
            SongInfo(
                id: 2, path: "Ärger/Ünïcödé 海辺.flac", title: "T\nitle", artist: "A", album: "B", durationMs: 999,
                albumArtist: "C", genre: "G\r", track: -3, disc: 0, year: 2024, format: "48000:24:2",
                modified: -86_401),
            SongInfo(id: .max, path: "", title: "", artist: "", durationMs: .max / 2, modified: 4_102_444_800),
            // Line breaks past the first eight bytes, a tab; a title longer than a song's lines are written at once.
            SongInfo(
                id: -9, path: "folder/with a\tTab/and a line\nbreak.mp3",
                title: String(repeating: "long\r\n", count: 900),
                artist: "Twelve bytes\rmore", album: "\u{1F3B5}\u{1F3B5}\n", durationMs: 1, genre: "\n",
                modified: Int64.min + 1),
        ]
        songs[0].year = Int(Int32.max)
        let list = SongList(songs)
        let tagSets: [[MPDTag]] = [MPDTag.allCases, [], [.date, .title], [.genre, .albumArtist, .track, .disc]]
        for tags in tagSets {
            for (place, song) in songs.enumerated() {
                var compact = MPDWriter()
                list.write(at: place, place: place == 1 ? nil : place * 7, tags: tags, into: &compact)
                var reference = MPDWriter()
                MPDCommands.append(song, position: place == 1 ? nil : place * 7, tags: tags, to: &reference)
                #expect(compact.text == reference.text, "\(song.path) \(tags)")
            }
        }
    }
    @Test func everyValueLengthIsCopiedWholeAndABreakAnywhereBecomesASpace() {
        // Values are copied a word at a time up to 64 bytes (the last word overlapping the one before), longer
        // ones by memmove: every length either side of those edges, a break or a tab at every place in it.
        var out = MPDWriter()
        var expected: [UInt8] = []
        for length in 0...80 {
            let plain = (0..<length).map { UInt8(0x41 + $0 % 26) }
            for place in -1..<length {
                let odd: [UInt8] = place < 0 ? [0x41] : [0x0A, 0x0D, 0x09, 0x0E]
                for byte in odd {
                    var value = plain
                    if place >= 0 { value[place] = byte }
                    value.withUnsafeBufferPointer { out.line("key", bytes: $0) }
                    let written = value.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
                    expected += Array("key: ".utf8) + written + [0x0A]
                }
            }
        }
        #expect(out.count == expected.count)
        #expect(Array(out.bytes) == expected)
    }

    @Test func anAnswerGrowsAndIsWrittenAgainAfterItsBytesAreRemoved() {
        var out = MPDWriter(capacity: 16)
        for round in 0..<3 {
            var expected = ""
            // Past the room made a few KiB at a time, then over the bytes of the answer removed.
            for index in 0..<(3_000 - round * 1_000) {
                let value = String(repeating: "v", count: index % 97)
                out.line("k\(index)", value)
                out.line("n", Int64(index) * 1_000_003)
                expected += "k\(index): \(value)\nn: \(Int64(index) * 1_000_003)\n"
            }
            out.append(bytes: repeatElement(UInt8(ascii: "x"), count: 5_000))
            out.append("OK\n")
            expected += String(repeating: "x", count: 5_000) + "OK\n"
            #expect(out.text == expected, "round \(round)")
            out.removeAll()
            #expect(out.bytes.isEmpty)
        }
    }

    @Test func songsWrittenSideBySideAreTheSongsWrittenOneByOne() {
        // Paths and titles of every length the copy treats apart, a line break in some, shared tags, songs
        // without a time or a title, songs too long for a page (line by line) and a tag asked for three times,
        // in batches of every size.
        var songs: [SongInfo] = []
        for length in 0...72 {
            let name = String(repeating: "n", count: length)
            let path = length % 9 == 4 ? "p\r" + name : "p" + name
            let title: String? = length % 11 == 0 ? nil : length % 7 == 3 ? name + "\n" : "t" + name
            let modified: Int64? = length % 5 == 0 ? nil : Int64(length) * 86_399_999
            var song = SongInfo(
                id: Int64(length * 3 + 1), path: path, title: title, artist: "Artist \(length % 4)",
                album: length % 3 == 0 ? nil : "Album\n\(length % 6)", durationMs: Int64(length) * 1_001,
                albumArtist: "AA", genre: "G\(length % 2)", track: length, disc: 1, year: 1_990 + length,
                format: "44100:16:2", modified: modified)
            if length == 40 { song.title = String(repeating: "long\n", count: 900) }
            // Either side of a page when the title is asked for three times.
            if length == 50 { song.title = String(repeating: "x", count: 1_200) }
            if length == 60 { song.title = String(repeating: "y\n", count: 650) }
            songs.append(song)
        }
        let list = SongList(songs)
        let order = songs.indices.map { ($0 * 29) % songs.count }
        for size in [1, 2, 7, 32, songs.count] {
            let tagSets: [[MPDTag]] = [MPDTag.allCases, [.title], [.title, .artist, .title, .title]]
            for tags in tagSets {
                var batched = MPDWriter()
                var reference = MPDWriter()
                var start = 0
                while start < order.count {
                    let part = order[start..<min(start + size, order.count)]
                    let batch = part.map { (position: $0, place: $0 % 4 == 1 ? nil : Optional($0 + 1_000)) }
                    list.write(batch, tags: tags, into: &batched)
                    for song in batch {
                        MPDCommands.append(songs[song.position], position: song.place, tags: tags, to: &reference)
                    }
                    start += size
                }
                #expect(batched.text == reference.text, "batches of \(size)")
            }
        }
    }
}
