import Foundation
import Glibc
import LibPThread
import LibSQLite
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MusicLibrary

/// Schema version 7 on a library written by version 6: every row, id, loudness measurement and resume point
/// stays; the stories are learnt from the stored genres at once and from the files themselves afterwards.
@Suite(.serialized, .enabled(if: StoryStick.isAvailable, "needs ffmpeg (apt-get install ffmpeg)"))
struct StoryMigrationTests {
    let scratch: TemporaryDirectory
    let root: PathBytes
    let key: String
    var databasePath: String { scratch.path + "/library.db" }

    init() throws {
        scratch = try TemporaryDirectory(prefix: "story-migration")
        let stick = scratch.appending("stick")
        try StoryStick.make(at: stick)
        root = try #require(LibraryLocation.realPath(stick.path))
        key = VolumeRef.pathKey(for: root)
    }

    /// One track row as version 6 wrote it, with what is checked after the migration.
    struct OldTrack {
        var id: Int64
        var path: String
        var genre: String?
        var lufs: Double
    }

    /// Writes a version-6 library of the stick: the schema by version 6's own statements, then every file as
    /// version 6's indexer stored it (ids spaced out, so a renumbering would show), each track measured.
    func writeVersion6() throws -> [OldTrack] {
        let connection = try Connection(path: databasePath)
        try Schema.migrate(connection, from: 0, to: 6)
        #expect(try connection.scalarInt("PRAGMA user_version") == 6)
        let insertVolume = try connection.prepare(
            """
            INSERT INTO volumes(id, key, root, label, first_seen, last_seen, station, changed_at)
            VALUES (3, ?1, ?2, NULL, 1700000000, 1700000000, 'Bedtime', 1700000000)
            """)
        try insertVolume.bind(key, at: 1)
        try insertVolume.bind(blob: root.bytes, at: 2)
        try insertVolume.run()
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.display)
            .filter { $0.hasSuffix(".mp3") || $0.hasSuffix(".m4b") || $0.hasSuffix(".m4a") }.sorted()
        var tracks: [OldTrack] = []
        for (index, path) in files.enumerated() {
            guard case .audio(let tags, let stream) = FileProber.mediaProbe.probe(root.appending(PathBytes(path)))
            else {
                Issue.record("\(path) does not probe as audio")
                continue
            }
            var info = stat()
            #expect(stat(root.appending(PathBytes(path)).display, &info) == 0)
            let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            let track = OldTrack(id: Int64(100 + 7 * index), path: path, genre: tags.genre, lufs: -20 - Double(index))
            let insertFile = try connection.prepare(
                "INSERT INTO files(id, volume_id, path, size, mtime_ns, status) VALUES (?1, 3, ?2, ?3, ?4, 'ok')")
            try insertFile.bind(track.id, at: 1)
            try insertFile.bind(blob: Array(path.utf8), at: 2)
            try insertFile.bind(Int64(info.st_size), at: 3)
            try insertFile.bind(mtime, at: 4)
            try insertFile.run()
            let insertTrack = try connection.prepare(
                """
                INSERT INTO tracks(id, title, artist, album, genre, duration_ms, frames, sample_rate, channels, codec,
                    duration_estimated, loudness_state, loudness_lufs, loudness_peak)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 0, 1, ?11, 0.5)
                """)
            try insertTrack.bind(track.id, at: 1)
            try insertTrack.bind(tags.title, at: 2)
            try insertTrack.bind(tags.artist, at: 3)
            try insertTrack.bind(tags.album, at: 4)
            try insertTrack.bind(tags.genre, at: 5)
            try insertTrack.bind(stream.durationMs, at: 6)
            try insertTrack.bind(stream.frames, at: 7)
            try insertTrack.bind(stream.sampleRate, at: 8)
            try insertTrack.bind(stream.channels, at: 9)
            try insertTrack.bind(stream.codec, at: 10)
            try insertTrack.bind(track.lufs, at: 11)
            try insertTrack.run()
            tracks.append(track)
        }
        let order = tracks.map(\.id).reduce(into: [UInt8]()) { bytes, id in
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: id >> Int64(shift))) }
        }
        try connection.execute(
            """
            INSERT INTO playback VALUES (3, x'\(hex(order))', 2, \(tracks[2].id), 61000, 7, 1, 1700000100);
            INSERT INTO station_playback VALUES (3, 'Bedtime', x'\(hex(order))', 1, \(tracks[1].id), 5000, 6, 0,
                1700000050);
            """)
        return tracks
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// What must not change: each track's id, path and loudness, and both resume points.
    func kept(_ database: LibraryDatabase) throws -> [String] {
        let volume = try #require(try database.existingVolume(key: key))
        #expect(volume.id == 3)
        var lines = try database.entries(of: volume).map { entry in
            "\(entry.id) \(entry.path.display) \(entry.loudness.map { "\($0.integratedLUFS ?? 0)" } ?? "unmeasured")"
        }
        let stick = try #require(try database.loadPlaybackState(of: volume))
        let station = try #require(try database.loadPlaybackState(of: volume, station: "Bedtime"))
        lines.append("stick \(stick.order.count) \(stick.cursor) \(stick.positionMs) \(stick.volume) \(stick.paused)")
        lines.append("Bedtime \(station.order) \(station.cursor) \(station.positionMs) \(station.volume)")
        lines.append("station \(try database.currentStation(of: volume) ?? "none")")
        return lines
    }

    @Test func aVersion6LibraryKeepsEveryRowAndLearnsItsStoriesFromGenresThenFromTheFiles() throws {
        defer { scratch.remove() }
        let old = try writeVersion6()
        #expect(old.count == StoryStick.songs.count + StoryStick.stories.count)

        let database = try LibraryDatabase(path: databasePath, create: false)
        #expect(try database.connection.scalarInt("PRAGMA user_version") == 7)
        let volume = try #require(try database.existingVolume(key: key))
        let before = try kept(database)
        #expect(before.count == old.count + 3)
        for track in old {
            #expect(
                before.contains("\(track.id) \(track.path) \(track.lufs)"), "\(track.path) keeps its id and loudness")
        }
        #expect(before.contains("stick \(old.count) 2 61000 7 true"))
        #expect(before.contains("Bedtime \(old.map { TrackID($0.id) }) 1 5000 6"))
        #expect(before.contains("station Bedtime"))

        // The migration itself: the stored genres and file names say which tracks are stories, so the
        // audiobook parts and the .m4b leave the music at once; every track still waits to be read.
        func stories() throws -> [String: String] {
            var result: [String: String] = [:]
            for entry in try database.entries(of: volume) { result[entry.path.display] = entry.tags.story?.rawValue }
            return result
        }
        var expected = Dictionary(uniqueKeysWithValues: StoryStick.genreStories.map { ($0, "audiobook") })
        #expect(try stories() == expected)
        let unread = try database.unreadStories(of: volume, after: nil, limit: 1000)
        #expect(unread.count == old.count)
        let music = try database.musicTrackIDs(of: volume, rules: StoryRules()).map(\.rawValue)
        #expect(Set(music) == Set(old.filter { expected[$0.path] == nil }.map(\.id)))

        // An index run over the unchanged stick reads and rewrites nothing: the rows stay as they were.
        let indexer = Indexer(database: database, prober: .mediaProbe, warn: { Issue.record("warning: \($0)") })
        let summary = try indexer.run(root: root, key: key, now: 1_700_000_200)
        #expect(summary.probed == 0 && !summary.wroteAnything)

        // The step after the run reads each file once more, for its flags and chapters only.
        #expect(try indexer.readStories(key: key) == old.count)
        #expect(try database.unreadStories(of: volume, after: nil, limit: 1000).isEmpty)
        // Now the files' own flags are known: the podcasts, whose genre says nothing, are stories too.
        if StoryStick.hasFlaggedFiles {
            for episode in StoryStick.podcasts { expected[episode] = "podcast" }
            let chaptered = try #require(old.first { $0.path == StoryStick.chapteredMP3 })
            let chapters = try #require(try database.playableTrack(TrackID(chaptered.id), of: volume)).tags.chapters
            #expect(chapters.map(\.title) == StoryStick.chapterTitles)
        }
        #expect(try stories() == expected)
        #expect(try kept(database) == before, "loudness, ids and resume points untouched by the step")
        #expect(try indexer.readStories(key: key) == 0, "each file is read once")
        for track in old {
            let read = try #require(try database.playableTrack(TrackID(track.id), of: volume))
            #expect(read.tags.genre == track.genre)
            #expect(read.loudness?.integratedLUFS == track.lufs)
        }
    }

    /// What the probe will soon say of files (a story flag, chapters) lands in the new columns only.
    @Test func theStepStoresAFilesOwnFlagAndChaptersAndNothingElse() throws {
        defer { scratch.remove() }
        let old = try writeVersion6()
        let database = try LibraryDatabase(path: databasePath, create: false)
        let volume = try #require(try database.existingVolume(key: key))
        let before = try kept(database)
        var prober = FileProber.mediaProbe
        let probe = prober.probe
        let chapters = [Chapter(startMs: 0, title: "Opening"), Chapter(startMs: 150, title: nil)]
        prober.probe = { path in
            guard path.display.hasSuffix("Pop A.mp3"), case .audio(var tags, let stream) = probe(path) else {
                return probe(path)
            }
            tags.story = .podcast
            tags.chapters = chapters
            tags.title = "changed, and not stored"
            return .audio(tags, stream)
        }
        let indexer = Indexer(database: database, prober: prober, warn: { _ in })
        #expect(try indexer.readStories(key: key) == old.count)
        let song = try #require(old.first { $0.path == "Songs/Pop A.mp3" })
        let track = try #require(try database.playableTrack(TrackID(song.id), of: volume))
        #expect(track.tags.story == .podcast)
        #expect(track.tags.chapters == chapters)
        #expect(track.tags.title == "Pop A")
        #expect(try database.chaptersByTrack(of: volume)[TrackID(song.id)] == chapters)
        #expect(try kept(database) == before)
        // The chapters go with the track row when the file goes.
        let others = try database.rowCount("chapters") - Int64(chapters.count)
        try database.transaction { () throws(SQLiteError) in try database.deleteFile(id: song.id) }
        #expect(try database.rowCount("chapters") == others)
    }

    @Test func aCancelledStepLeavesTheRestForTheNextRun() throws {
        defer { scratch.remove() }
        let old = try writeVersion6()
        let database = try LibraryDatabase(path: databasePath, create: false)
        let volume = try #require(try database.existingVolume(key: key))
        let cancellation = IndexCancellation()
        var prober = FileProber.mediaProbe
        let probe = prober.probe
        let reads = PThreadMutex(0)
        prober.probe = { path in
            let count = reads.withLock { count in
                count += 1
                return count
            }
            if count == 5 { cancellation.cancel() }
            return probe(path)
        }
        let indexer = Indexer(database: database, prober: prober, warn: { _ in }, cancellation: cancellation)
        #expect(try indexer.readStories(key: key) == 5)
        #expect(try database.unreadStories(of: volume, after: nil, limit: 1000).count == old.count - 5)
        let next = Indexer(database: database, prober: .mediaProbe, warn: { _ in })
        #expect(try next.readStories(key: key) == old.count - 5)
    }
}
