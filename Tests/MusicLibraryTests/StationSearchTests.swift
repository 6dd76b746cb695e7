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

    @Test func eachStationKeepsItsOwnResumePointBesideTheWholeSticks() throws {
        let database = library.database
        let volume = library.volume
        let rock = [ids["Rock/04.mp3"]!, ids["Rock/05.mp3"]!]
        let all = ids.values.sorted()
        let whole = PlaybackState(order: all, cursor: 3, positionMs: 12_000, volume: 7, paused: false)
        let station = PlaybackState(order: rock.reversed(), cursor: 1, positionMs: 4_500, volume: 5, paused: true)
        try database.savePlaybackState(whole, of: volume, now: 100)
        try database.savePlaybackState(station, of: volume, station: "Rock", now: 200)
        #expect(try database.loadPlaybackState(of: volume) == whole)
        #expect(try database.loadPlaybackState(of: volume, station: "Rock") == station)
        #expect(try database.loadPlaybackState(of: volume, station: "Bedtime") == nil)
        // The level is the box's: whichever resume point was stored last gives it.
        #expect(try database.storedVolumeLevel(of: volume) == 5)
        // A save that only moves the position (the order unchanged) updates the station's row, not the stick's.
        var moved = station
        moved.positionMs = 9_000
        try database.savePlaybackState(moved, of: volume, station: "Rock", now: 300)
        let reopened = try LibraryDatabase(path: library.folder + "/library.db", create: false)
        #expect(try reopened.loadPlaybackState(of: volume, station: "Rock")?.positionMs == 9_000)
        #expect(try reopened.loadPlaybackState(of: volume)?.positionMs == 12_000)
        #expect(try library.count("station_playback") == 1)
    }

    @Test func theStationPlayingLastIsStoredWithTheVolume() throws {
        #expect(try library.database.currentStation(of: library.volume) == nil)
        try library.database.setCurrentStation("Bedtime", of: library.volume)
        let reopened = try LibraryDatabase(path: library.folder + "/library.db", create: false)
        #expect(try reopened.currentStation(of: library.volume) == "Bedtime")
        try reopened.setCurrentStation(nil, of: library.volume)
        #expect(try library.database.currentStation(of: library.volume) == nil)
    }

    @Test func aStationsCatalogHoldsItsTracksAndItsOwnResumePoint() async throws {
        let store = try await LibraryStore.open(path: library.folder + "/library.db")
        let search = try StationSearch(parsing: "folder:Rock")
        let catalog = store.catalog(for: library.volume, station: Station(name: "Rock", search: search, mode: nil))
        let picked = try await catalog.playableTrackIDs()
        #expect(picked == [ids["Rock/04.mp3"]!, ids["Rock/05.mp3"]!].sorted())
        let state = PlaybackState(order: picked, cursor: 1, positionMs: 1_000, volume: 4, paused: false)
        try await catalog.savePlaybackState(state)
        #expect(try await catalog.loadPlaybackState() == state)
        // The whole stick's catalog neither sees the station's tracks only nor its resume point.
        let whole = store.catalog(for: library.volume)
        #expect(try await whole.playableTrackIDs().count == ids.count)
        #expect(try await whole.loadPlaybackState() == nil)
    }
}
