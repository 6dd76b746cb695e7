import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

/// `shufflebox index`, `list` and `search` end to end: the real executable on generated libraries.
@Suite(.serialized) struct LibraryCommandTests {
    let scratch: TemporaryDirectory
    var db: String { scratch.path + "/state/library.db" }

    init() throws { scratch = try TemporaryDirectory(prefix: "library-commands") }

    /// Whether `row` is a "truncated-audio" file its format's reference decoder still plays audio from: mpg123
    /// for MP3, FFmpeg for FLAC (the other formats' cut files are unplayable, as the probe finds them).
    static func playsInPart(_ row: ManifestRow, root: PathBytes) -> Bool {
        guard row.kind == .broken, row.notes.contains("truncated-audio") else { return false }
        let path = root.appending(row.path)
        switch row.codec {
        case "flac": return ((try? ExternalTool.ffmpegDecodedFrames(of: path)) ?? 0) > 0
        case "mp3", nil: return ((try? ExternalTool.decodedFrames(of: path, channels: row.channels ?? 2)) ?? 0) > 0
        default: return false
        }
    }

    /// Runs `list --json` and returns its objects by path.
    func listing() throws -> [String: [String: Any]] {
        let result = try Run.shufflebox(["list", "--json", "--db", db])
        #expect(result.status == 0, "list failed: \(result.stderr)")
        var objects: [String: [String: Any]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let path = try #require(object["path"] as? String)
            #expect(objects[path] == nil, "listed twice: \(path)")
            objects[path] = object
        }
        return objects
    }

    /// Checks that `list --json` says exactly what the manifest says: every playable track with its tags and
    /// duration, every broken file unplayable, nothing else.
    func expectListing(
        matches manifest: Manifest, root: PathBytes? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let listed = try listing()
        let expected = manifest.rows.filter { $0.kind == .track || $0.kind == .broken }
        #expect(Set(listed.keys) == Set(expected.map(\.path.display)), sourceLocation: sourceLocation)
        for row in expected {
            guard let object = listed[row.path.display] else { continue }
            let keys = Set(object.keys)
            #expect(keys == Self.keys, "keys of \(row.path.display)", sourceLocation: sourceLocation)
            // The yardstick cuts its "truncated-audio" files mid-stream, where mpg123 (and FFmpeg, for FLAC) still
            // plays the whole frames before the cut: playable is what the decoder plays, so those are listed ok.
            if let root, Self.playsInPart(row, root: root) {
                #expect(object["status"] as? String == "ok", "\(row.path.display)", sourceLocation: sourceLocation)
                continue
            }
            if row.kind == .broken {
                #expect(
                    object["status"] as? String == "unplayable", "\(row.path.display)", sourceLocation: sourceLocation)
                #expect((object["reason"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
                continue
            }
            #expect(object["status"] as? String == "ok", "\(row.path.display)", sourceLocation: sourceLocation)
            let tags = row.tags
            let title = object["title"] as? String
            if let expectedTitle = tags.title {
                #expect(title == expectedTitle, "title of \(row.path.display)", sourceLocation: sourceLocation)
            } else {
                #expect(
                    title?.isEmpty == false, "untagged \(row.path.display) gets its file name",
                    sourceLocation: sourceLocation)
            }
            for (key, value) in [
                ("artist", tags.artist), ("album", tags.album), ("albumArtist", tags.albumArtist),
                ("genre", tags.genre),
            ] {
                #expect(
                    object[key] as? String == value, "\(key) of \(row.path.display)", sourceLocation: sourceLocation)
            }
            for (key, value) in [
                ("track", tags.track), ("trackTotal", tags.trackTotal), ("disc", tags.disc),
                ("discTotal", tags.discTotal), ("year", tags.year),
            ] {
                #expect(object[key] as? Int == value, "\(key) of \(row.path.display)", sourceLocation: sourceLocation)
            }
            let samples = try #require(row.samples, "samples of \(row.path.display)")
            let rate = try #require(row.rate)
            #expect(
                object["format"] as? String == row.codec, "format of \(row.path.display)",
                sourceLocation: sourceLocation)
            #expect(object["sampleRate"] as? Int == rate, "rate of \(row.path.display)", sourceLocation: sourceLocation)
            #expect(
                object["channels"] as? Int == row.channels, "channels of \(row.path.display)",
                sourceLocation: sourceLocation)
            #expect(
                object["bitsPerSample"] as? Int == row.bits, "bits of \(row.path.display)",
                sourceLocation: sourceLocation)
            #expect(
                object["durationMs"] as? Int64 == samples * 1000 / Int64(rate), "durationMs of \(row.path.display)",
                sourceLocation: sourceLocation)
        }
    }

    static let keys: Set<String> = [
        "path", "status", "reason", "title", "artist", "album", "albumArtist", "track", "trackTotal", "disc",
        "discTotal", "year", "genre", "durationMs", "format", "sampleRate", "channels", "bitsPerSample",
        "pathHex", "durationEstimated",
    ]

    func index(_ root: URL) throws -> Run.Result {
        let result = try Run.shufflebox(["index", root.path, "--db", db])
        #expect(result.status == 0, "index failed: \(result.stderr)")
        return result
    }

    @Test(.enabled(if: TestLibrary.isAvailable, "needs python3 and lame (scripts/install-deps test)"))
    func ownGeneratorLibraryIsListedExactlyAndFollowsMutations() throws {
        let root = scratch.appending("stick")
        let manifest = try TestLibrary.generate(at: root, tracks: 60, seed: 5)
        let first = try index(root)
        // Not a terminal: nothing but the one summary line.
        #expect(first.stderr.split(separator: "\n").count == 1, "\(first.stderr)")
        #expect(first.stderr.contains("\(manifest.playable.count) tracks"))
        try expectListing(matches: manifest)

        let mutations = try TestLibrary.mutate(at: root, seed: 5)
        #expect(!mutations.isEmpty)
        let second = try index(root)
        #expect(!second.stderr.contains("(0 added, 0 changed, 0 moved, 0 removed)"), "\(second.stderr)")
        try expectListing(matches: try Manifest(libraryRoot: root))

        // Unchanged tree: nothing is written, not even a byte of the database file.
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let third = try index(root)
        #expect(third.stderr.contains("(0 added, 0 changed, 0 moved, 0 removed)"), "\(third.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    @Test(
        .enabled(
            if: TestLibrary.isAvailable && ExternalTool.allFormatTools, "needs flac, vorbis-tools, opus-tools, ffmpeg"))
    func everyFormatIsListedWithItsShapeAndEveryArtistValueIsSearchable() throws {
        let root = scratch.appending("all-formats")
        let manifest = try TestLibrary.generate(at: root, tracks: 120, seed: 9, formats: .all, seconds: 0.4)
        _ = try index(root)
        try expectListing(matches: manifest, root: PathBytes(root.path))
        let listed = try listing()
        let formats = Set(listed.values.compactMap { $0["format"] as? String })
        #expect(formats == ["mp3", "flac", "vorbis", "opus", "aac", "alac", "wav", "aiff"])
        // A second ARTIST value is not shown but is found.
        let row = try #require(manifest.playable.first { $0.artist2 != nil }, "a track with two artists")
        let second = try #require(row.artist2)
        #expect(listed[row.path.display]?["artist"] as? String == row.artist)
        let result = try Run.shufflebox(["search", second, "--db", db, "--json", "--limit", "500"])
        let paths = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String
        }
        #expect(paths.contains(row.path.display), "search \(second) found \(paths)")
    }

    @Test(
        .enabled(
            if: TestLibrary.isAvailable && ExternalTool.allFormatTools, "needs flac, vorbis-tools, opus-tools, ffmpeg"))
    func aVersion1DatabaseIsMigratedAndReadsTheFilesItCouldNotPlayAgain() throws {
        let root = scratch.appending("migrate")
        let manifest = try TestLibrary.generate(
            at: root, tracks: 40, seed: 4, formats: .all, extras: false, seconds: 0.4)
        _ = try index(root)
        let before = try listing()
        // Make the database what version 1 left: no new columns, and every file that is not MP3 was then
        // "not audio" (ignored) or unplayable, with no track row.
        let sql = """
            DELETE FROM tracks WHERE codec != 'mp3';
            UPDATE files SET status = 'ignored' WHERE id NOT IN (SELECT id FROM tracks) AND status = 'ok';
            ALTER TABLE tracks DROP COLUMN bits_per_sample;
            ALTER TABLE tracks DROP COLUMN rg_album_peak;
            ALTER TABLE tracks DROP COLUMN header_gain;
            ALTER TABLE tracks DROP COLUMN duration_estimated;
            ALTER TABLE tracks DROP COLUMN loudness_state;
            ALTER TABLE tracks DROP COLUMN loudness_lufs;
            ALTER TABLE tracks DROP COLUMN loudness_peak;
            DROP TABLE station_playback;
            ALTER TABLE volumes DROP COLUMN station;
            ALTER TABLE volumes DROP COLUMN changed_at;
            ALTER TABLE tracks DROP COLUMN story; ALTER TABLE tracks DROP COLUMN story_read; DROP TABLE chapters;
            ALTER TABLE volumes DROP COLUMN book;
            PRAGMA user_version = 1;
            """
        let downgrade = try Run.program("/usr/bin/sqlite3", [db, sql])
        #expect(downgrade.status == 0, "\(downgrade.stderr)")
        let ids = try Run.program("/usr/bin/sqlite3", [db, "SELECT group_concat(id) FROM files ORDER BY id"]).stdout
        #expect(try listing().values.filter { $0["status"] as? String == "ok" }.count < manifest.playable.count)
        let again = try index(root)
        let inPart = manifest.rows.filter { Self.playsInPart($0, root: PathBytes(root.path)) }.count
        let playing = manifest.playable.count + inPart
        #expect(again.stderr.contains("\(playing) tracks"), "\(again.stderr)")
        let version = try Run.program("/usr/bin/sqlite3", [db, "PRAGMA user_version"]).stdout
        #expect(version.trimmingCharacters(in: .whitespacesAndNewlines) == "7")
        #expect(
            try Run.program("/usr/bin/sqlite3", [db, "SELECT group_concat(id) FROM files ORDER BY id"]).stdout == ids)
        let after = try listing()
        #expect(after.count == before.count)
        for (path, object) in before {
            #expect(after[path]?["format"] as? String == object["format"] as? String, "\(path)")
            #expect(after[path]?["bitsPerSample"] as? Int == object["bitsPerSample"] as? Int, "\(path)")
        }
        try expectListing(matches: manifest, root: PathBytes(root.path))
    }

    @Test(.enabled(if: PackagePaths.shared != nil && TestLibrary.isAvailable, "needs ../shared (the yardstick)"))
    func yardstickLibraryIsListedExactly() throws {
        let root = scratch.appending("yardstick")
        let manifest = try TestLibrary.generateYardstick(at: root, tracks: 150, seed: 7)
        _ = try index(root)
        try expectListing(matches: manifest, root: PathBytes(root.path))
    }

    @Test(.enabled(if: TestLibrary.isAvailable, "needs python3 and lame (scripts/install-deps test)"))
    func searchFindsByTagAndPathWithoutDiacritics() throws {
        let root = scratch.appending("search")
        let manifest = try TestLibrary.generate(at: root, tracks: 40, seed: 2)
        _ = try index(root)
        let artist = try #require(
            manifest.playable.compactMap(\.tags.artist).first { $0.contains("é") || $0.contains("ö") }
                ?? manifest.playable.compactMap(\.tags.artist).first)
        let folded = artist.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        let result = try Run.shufflebox(["search", folded, "--db", db, "--json", "--limit", "500"])
        #expect(result.status == 0, "\(result.stderr)")
        let artists = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["artist"] as? String
        }
        #expect(artists.contains(artist), "search \(folded) found \(artists)")
        for hostile in ["\"", "NEAR(", "a OR", "*", "-", "(", ""] {
            let run = try Run.shufflebox(["search", hostile, "--db", db])
            #expect(run.status == 0, "search \(hostile): \(run.stderr)")
        }
        let text = try Run.shufflebox(["search", folded, "--db", db, "--limit", "1"])
        #expect(text.stdout.split(separator: "\n").count == 1)
        #expect(text.stdout.contains(" - ") && text.stdout.contains("  ("))
    }

    /// Stories in `list`: each says its kind, its book and its part, and its chapters; the folders the
    /// `shufflebox.txt` at the library's root marks count, and a song beside them stays a song.
    @Test(.enabled(if: StoryStick.isAvailable, "needs ffmpeg (apt-get install ffmpeg)"))
    func listSaysWhichTracksAreStoriesWithTheirBookPartAndChapters() throws {
        let root = scratch.appending("stories")
        try StoryStick.make(at: root)
        _ = try index(root)
        // The probe reads no chapters of these files yet: two are put in by hand, as an index run stores them.
        let insert = try Run.program(
            "/usr/bin/sqlite3",
            [
                db,
                """
                INSERT INTO chapters SELECT id, 0, 'Opening' FROM files WHERE path = CAST('Whole book.m4b' AS BLOB);
                INSERT INTO chapters SELECT id, 150, NULL FROM files WHERE path = CAST('Whole book.m4b' AS BLOB);
                """,
            ])
        #expect(insert.status == 0, "\(insert.stderr)")
        let listed = try listing()
        #expect(listed.count == StoryStick.songs.count + StoryStick.stories.count)
        for song in StoryStick.songs {
            #expect(Set(listed[song]?.keys.map { $0 } ?? []) == Self.keys, "\(song) is a song, with a song's keys")
        }
        /// "kind | book path | book name | part" of `path`, "-" for each that is missing.
        func story(_ path: String) -> String {
            let object = listed[path] ?? [:]
            let book = object["book"] as? [String: Any]
            let fields = [object["story"], book?["path"], book?["name"], object["part"]]
            return fields.map { $0.map { "\($0)" } ?? "-" }.joined(separator: " | ")
        }
        for (index, part) in StoryStick.parts.enumerated() {
            #expect(story(part) == "audiobook | Gruffalo | The Gruffalo | \(index + 1)", "\(part)")
        }
        #expect(story(StoryStick.wholeBook) == "audiobook | Whole book.m4b | A whole book | 1")
        #expect(story("Marked/Chapter 2.mp3") == "audiobook | Marked | Marked | 1", "natural order: C before I")
        #expect(story("Marked/Intro.mp3") == "audiobook | Marked | Marked | 2")
        #expect(story("Songs/Pop A.mp3") == "- | - | - | -")
        let chapters = listed[StoryStick.wholeBook]?["chapters"] as? [[String: Any]]
        #expect(chapters?.count == 2)
        #expect(chapters?.first?["start_ms"] as? Int == 0 && chapters?.first?["title"] as? String == "Opening")
        #expect(chapters?.last?["start_ms"] as? Int == 150 && chapters?.last?["title"] is NSNull)
        #expect(listed["Gruffalo/3.mp3"]?["chapters"] == nil)
        if StoryStick.hasFlaggedFiles {
            // Read from the files: the chapters of the .m4b (FFmpeg's chapter track) and of the MP3 (CHAP, CTOC),
            // each a book of its own; the podcasts by their flags, one book of two episodes.
            for book in [StoryStick.chapteredBook, StoryStick.chapteredMP3] {
                let titles = (listed[book]?["chapters"] as? [[String: Any]])?.map { $0["title"] as? String }
                #expect(titles == StoryStick.chapterTitles, "\(book)")
                #expect(story(book).hasPrefix("audiobook | \(book) | "), "\(story(book))")
            }
            #expect(story(StoryStick.podcasts[0]) == "podcast | Podcasts | A Show | 1")
            #expect(story(StoryStick.podcasts[1]) == "podcast | Podcasts | A Show | 2")
        }

        let text = try Run.shufflebox(["list", "--db", db])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("(Gruffalo/3.mp3)  [audiobook: The Gruffalo, part 3 of 12]") })
        #expect(lines.contains { $0.hasSuffix("(Songs/Pop A.mp3)") })

        // Without the stick's file, the marked folder holds songs again; the tagged stories stay stories.
        try FileManager.default.removeItem(at: root.appendingPathComponent("shufflebox.txt"))
        let unmarked = try listing()
        #expect(unmarked["Marked/Intro.mp3"]?["story"] == nil)
        #expect(unmarked["Gruffalo/1.mp3"]?["story"] as? String == "audiobook")
    }

    @Test func errorsNameThePathAndExitNonZero() throws {
        let missing = try Run.shufflebox(["index", scratch.path + "/no-such-folder", "--db", db])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no-such-folder"))
        #expect(!FileManager.default.fileExists(atPath: db), "no database for a folder that is not there")

        try Data("x".utf8).write(to: scratch.appending("plain-file"))
        let notFolder = try Run.shufflebox(["index", scratch.path + "/plain-file", "--db", db])
        #expect(notFolder.status != 0)
        #expect(notFolder.stderr.contains("plain-file"))

        let unwritable = try Run.shufflebox(["index", scratch.path, "--db", "/proc/shufflebox-test/x.db"])
        #expect(unwritable.status != 0)
        #expect(unwritable.stderr.contains("cannot create the library database /proc/shufflebox-test/x.db"))
        #expect(unwritable.stderr.split(separator: "\n").count == 1)

        for command in [["list"], ["search", "x"]] {
            let none = try Run.shufflebox(command + ["--db", scratch.path + "/none.db"])
            #expect(none.status != 0)
            #expect(none.stderr.contains("no library yet at \(scratch.path)/none.db; run 'shufflebox index DIR' first"))
        }
    }

    @Test func defaultDatabaseLivesInTheStateDirectory() throws {
        let state = scratch.path + "/xdg-state"
        try FileManager.default.createDirectory(atPath: scratch.path + "/empty", withIntermediateDirectories: true)
        let result = try Run.shufflebox(["index", scratch.path + "/empty"], environment: ["XDG_STATE_HOME": state])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: state + "/shufflebox/library.db"))
        let list = try Run.shufflebox(["list"], environment: ["XDG_STATE_HOME": state])
        #expect(list.status == 0)
        #expect(list.stdout.isEmpty)
    }
}
