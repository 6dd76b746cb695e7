import MusicLibrary
import ShuffleCore
import Testing

/// A station's search on a real SQLite file: free words as `shufflebox search`, field filters, folders.
@Suite struct StationSearchTests {
    let library: LibraryFixture
    let ids: [String: TrackID]

    init() throws {
        library = try LibraryFixture()
        var ids: [String: TrackID] = [:]
        let rows: [(String, TagInfo)] = [
            ("Bedtime songs/01.mp3", TagInfo(title: "Twinkle", artist: "Raffi", album: "Night", genre: "Children")),
            ("Bedtime songs/02.mp3", TagInfo(title: "Lullaby", artist: "Brahms", album: "Night", genre: "Classical")),
            ("Bedtime songs extra/03.mp3", TagInfo(title: "Other", artist: "Raffi", genre: "Children")),
            ("Rock/04.mp3", TagInfo(title: "Loud", artist: "The Band", album: "Noise", albumArtist: "Various")),
            ("Rock/05.mp3", TagInfo(title: "Lullaby Metal", artist: "The Band", album: "Noise", genre: "Metal")),
        ]
        for (path, tags) in rows { ids[path] = try library.addTrack(path, tags) }
        _ = try library.addUnplayable("Bedtime songs/broken.mp3", reason: "not MPEG audio")
        self.ids = ids
    }

    func picks(_ text: String) throws -> [String] {
        let search = try StationSearch(parsing: text)
        let found = Set(try library.database.stationTrackIDs(search, of: library.volume))
        return ids.filter { found.contains($0.value) }.map(\.key).sorted()
    }

    @Test func wordsMatchLikeTheSearchCommand() throws {
        #expect(try picks("lullaby") == ["Bedtime songs/02.mp3", "Rock/05.mp3"])
        #expect(try picks("lull") == ["Bedtime songs/02.mp3", "Rock/05.mp3"], "the last word is a prefix")
        #expect(try picks("lullaby metal") == ["Rock/05.mp3"])
    }

    @Test func fieldFiltersAreCaseInsensitiveContains() throws {
        #expect(try picks("artist:raffi") == ["Bedtime songs extra/03.mp3", "Bedtime songs/01.mp3"])
        #expect(try picks("genre:CHILD") == ["Bedtime songs extra/03.mp3", "Bedtime songs/01.mp3"])
        #expect(try picks("albumartist:various") == ["Rock/04.mp3"])
        #expect(try picks(#"artist:"the band" title:loud"#) == ["Rock/04.mp3"])
        #expect(try picks("album:night").count == 2)
    }

    @Test func aFolderPicksItsTracksAndNotAFolderWhoseNameMerelyStartsTheSame() throws {
        #expect(try picks(#"folder:"Bedtime songs""#) == ["Bedtime songs/01.mp3", "Bedtime songs/02.mp3"])
        #expect(try picks(#"folder:"/Bedtime songs/""#) == ["Bedtime songs/01.mp3", "Bedtime songs/02.mp3"])
        #expect(try picks("folder:Rock lullaby") == ["Rock/05.mp3"])
        #expect(try picks("folder:Nowhere").isEmpty)
    }

    @Test func hostileValuesAreDataNotSQL() throws {
        #expect(try picks("artist:'); DROP TABLE files; --").isEmpty)
        #expect(try picks("\"*\"").isEmpty)
        #expect(try picks("artist:raffi").count == 2, "the table is still there")
    }
}
