import Foundation
import LibPThread
import MusicLibrary
import ShuffleCore
import ShuffleTestSupport
import Testing

/// The scanner and the incremental indexer on real folder trees with real MP3 files.
@Suite(.serialized) struct IndexerTests {
    let folder: String
    let root: String
    let mp3: Data
    let otherMP3: Data

    init() throws {
        folder = NSTemporaryDirectory() + "indexer-\(UUID().uuidString)"
        root = folder + "/stick"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // Two real MP3s from the project's generator.
        let source = folder + "/generated"
        let result = try Run.program(
            "/usr/bin/env",
            [
                "python3", PackagePaths.root.appendingPathComponent("tools/make-testlib").path, source, "--tracks", "2",
                "--no-extras", "--broken", "0", "--quiet",
            ])
        #expect(result.status == 0, "make-testlib: \(result.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: source).filter { $0.hasSuffix(".mp3") }.sorted()
        mp3 = try Data(contentsOf: URL(fileURLWithPath: source + "/" + files[0]))
        otherMP3 = try Data(contentsOf: URL(fileURLWithPath: source + "/" + files[1]))
    }

    func write(_ relative: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Indexes `root` with a fresh connection (so `totalChanges` is this run's) and a prober that counts reads.
    func index() throws -> (IndexSummary, Int64, [String], probed: Int) {
        let database = try LibraryDatabase(path: folder + "/library.db", create: true)
        let reads = PThreadMutex(0)
        var prober = FileProber.mediaProbe
        let probe = prober.probe
        prober.probe = { path in
            reads.withLock { $0 += 1 }
            return probe(path)
        }
        let warnings = PThreadMutex<[String]>([])
        let indexer = Indexer(
            database: database, prober: prober, warn: { line in warnings.withLock { $0.append(line) } })
        let real = try #require(LibraryLocation.realPath(root))
        let summary = try indexer.run(root: real, key: VolumeRef.pathKey(for: real), now: 1_700_000_000)
        return (summary, database.totalChanges, warnings.withLock { $0 }, reads.withLock { $0 })
    }

    func listed() throws -> [String: LibraryEntry] {
        let database = try LibraryDatabase(path: folder + "/library.db", create: false)
        let volume = try #require(try database.currentVolume())
        return Dictionary(uniqueKeysWithValues: try database.entries(of: volume).map { ($0.path.display, $0) })
    }

    @Test func skipsHiddenAndSystemEntriesAndNeverFollowsLinks() throws {
        try write("Artist/Album/01.mp3", mp3)
        try write("Artist/Album/._01.mp3", Data(repeating: 0, count: 4096))
        try write(".Trashes/501/deleted.mp3", mp3)
        try write(".hidden.mp3", mp3)
        try write("System Volume Information/x.mp3", mp3)
        try write("$RECYCLE.BIN/y.mp3", mp3)
        try write("lost+found/z.mp3", mp3)
        try write("Artist/Album/cover.jpg", Data(repeating: 1, count: 100))
        try write("Artist/Album/no extension", otherMP3)
        try write("Artist/Album/notes", Data("hello, not audio".utf8))
        try FileManager.default.createDirectory(atPath: folder + "/outside", withIntermediateDirectories: true)
        try mp3.write(to: URL(fileURLWithPath: folder + "/outside/elsewhere.mp3"))
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: root + "/out", withDestinationPath: folder + "/outside")
        try fm.createSymbolicLink(atPath: root + "/Artist/loop", withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: root + "/Artist/link.mp3", withDestinationPath: "Album/01.mp3")
        try fm.createSymbolicLink(atPath: root + "/Artist/dangling.mp3", withDestinationPath: "nowhere.mp3")

        let (summary, _, warnings, _) = try index()
        #expect(warnings.isEmpty)
        #expect(try listed().keys.sorted() == ["Artist/Album/01.mp3", "Artist/Album/no extension"])
        #expect(summary.tracks == 2)
        #expect(summary.unplayable == 0)
    }

    @Test func aSecondRunOnAnUnchangedTreeWritesNothing() throws {
        try write("a/1.mp3", mp3)
        try write("a/2.mp3", otherMP3)
        try write("a/empty.mp3", Data())
        try write("a/notes", Data("plain text".utf8))
        let (first, firstChanges, _, firstReads) = try index()
        #expect(first.added == 3)
        #expect(first.tracks == 2)
        #expect(first.unplayable == 1)
        #expect(firstChanges > 0)
        #expect(firstReads == 4)
        let (second, changes, _, reads) = try index()
        #expect(changes == 0)
        #expect(reads == 0, "unplayable and non-audio files are not read again until they change")
        #expect(!second.wroteAnything)
        #expect(second.tracks == 2 && second.unplayable == 1)
        #expect(try listed()["a/empty.mp3"]?.status == .unplayable)
        #expect(try listed()["a/notes"] == nil)
    }

    @Test func changesMovesAndDeletesAreReflected() throws {
        try write("a/1.mp3", mp3)
        try write("a/2.mp3", otherMP3)
        try write("a/3.mp3", mp3 + Data([0]))
        try write("a/gone.mp3", otherMP3 + Data([0, 0]))
        _ = try index()
        let before = try listed()

        try FileManager.default.moveItem(atPath: root + "/a/2.mp3", toPath: root + "/a/renamed.mp3")
        try FileManager.default.removeItem(atPath: root + "/a/gone.mp3")
        try write("a/1.mp3", otherMP3)  // new content, new size and time
        try write("a/3.mp3", Data("broken now".utf8))
        try write("a/new.mp3", mp3)
        let (summary, _, _, reads) = try index()
        #expect(summary.added == 1)
        #expect(summary.changed == 2)
        #expect(summary.moved == 1)
        #expect(summary.removed == 1)
        #expect(reads == 4)
        let after = try listed()
        #expect(after.keys.sorted() == ["a/1.mp3", "a/3.mp3", "a/new.mp3", "a/renamed.mp3"])
        #expect(after["a/renamed.mp3"]?.id == before["a/2.mp3"]?.id, "a moved file keeps its track id")
        #expect(after["a/1.mp3"]?.id == before["a/1.mp3"]?.id)
        #expect(after["a/1.mp3"]?.tags == before["a/2.mp3"]?.tags)
        #expect(after["a/3.mp3"]?.status == .unplayable)
        let database = try LibraryDatabase(path: folder + "/library.db", create: false)
        #expect(try database.rowCount("tracks") == 3)
        #expect(try database.rowCount("tracks_fts") == 3)
        #expect(try database.rowCount("paths_fts") == 3)
        let volume = try #require(try database.currentVolume())
        #expect(try database.search("renamed", in: volume, limit: 5).map(\.path.display) == ["a/renamed.mp3"])
        #expect(try database.search("gone", in: volume, limit: 5).isEmpty)
        let (again, changes, _, _) = try index()
        #expect(changes == 0 && !again.wroteAnything)
    }

    @Test func aFileAsRootOrAMissingRootIsAClearError() throws {
        try write("file.mp3", mp3)
        let database = try LibraryDatabase(path: folder + "/library.db", create: true)
        let indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in })
        for path in [root + "/file.mp3", root + "/missing"] {
            do {
                _ = try indexer.run(root: PathBytes(path), key: "path:" + path, now: 1)
                Issue.record("indexing \(path) should fail")
            } catch {
                #expect("\(error)".contains(path))
            }
        }
        #expect(try database.rowCount("volumes") == 0, "nothing is written for a root that cannot be walked")
    }

    @Test(.enabled(if: geteuid() != 0, "root reads folders whatever their mode"))
    func anUnreadableFolderIsSkippedWithAWarning() throws {
        try write("ok/1.mp3", mp3)
        try write("locked/2.mp3", mp3)
        chmod(root + "/locked", 0)
        defer { chmod(root + "/locked", 0o755) }
        let (summary, _, warnings, _) = try index()
        #expect(summary.tracks == 1)
        #expect(warnings.contains { $0.contains("locked") })
    }
}

/// Lengths the first probe can only estimate (a stream over its 24 MiB walk) are walked in full after the run.
@Suite struct EstimatedLengthTests {
    /// 62,000 frames of 417 bytes: a 25.9 MB stream, past the first probe's walk.
    static let frames = 62_000

    /// A stick folder holding `long.mp3` (and `short.mp3`, 400 frames, when `short`), its real root and key.
    static func stick(short: Bool) throws -> (TemporaryDirectory, PathBytes, String) {
        let scratch = try TemporaryDirectory(prefix: "estimated")
        let stick = scratch.appending("stick")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        try Data(HostileFiles.silentFrames(frames)).write(to: stick.appendingPathComponent("long.mp3"))
        if short { try Data(HostileFiles.silentFrames(400)).write(to: stick.appendingPathComponent("short.mp3")) }
        let root = try #require(LibraryLocation.realPath(stick.path))
        return (scratch, root, VolumeRef.pathKey(for: root))
    }

    @Test func theRunEstimatesALongStreamAndTheRefiningPassStoresItsExactLength() throws {
        let (scratch, root, key) = try Self.stick(short: true)
        let database = try LibraryDatabase(path: scratch.path + "/library.db", create: true)
        let indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in })
        _ = try indexer.run(root: root, key: key, now: 1_700_000_000)
        func entries() throws -> [String: StreamInfo] {
            let volume = try #require(try database.existingVolume(key: key))
            return Dictionary(
                uniqueKeysWithValues: try database.entries(of: volume).compactMap { entry in
                    entry.stream.map { (entry.path.display, $0) }
                })
        }
        let first = try entries()
        #expect(first["long.mp3"]?.isEstimate == true)
        #expect(first["short.mp3"]?.isEstimate == false)
        #expect(first["short.mp3"]?.frames == Int64(400 * 1152))

        #expect(try indexer.refineEstimates(key: key) == 1)
        let refined = try entries()
        #expect(refined["long.mp3"]?.isEstimate == false)
        #expect(refined["long.mp3"]?.frames == Int64(Self.frames * 1152))
        // Nothing is walked twice: the next pass finds no estimate, and a run over the unchanged stick keeps it.
        #expect(try indexer.refineEstimates(key: key) == 0)
        _ = try indexer.run(root: root, key: key, now: 1_700_000_100)
        #expect(try entries()["long.mp3"]?.isEstimate == false)
    }

    @Test func aCancelledPassKeepsTheEstimateForTheNextRun() throws {
        let (scratch, root, key) = try Self.stick(short: false)
        let database = try LibraryDatabase(path: scratch.path + "/library.db", create: true)
        let cancellation = IndexCancellation()
        let indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in }, cancellation: cancellation)
        _ = try indexer.run(root: root, key: key, now: 1_700_000_000)
        cancellation.cancel()
        #expect(try indexer.refineEstimates(key: key) == 0)
        let volume = try #require(try database.existingVolume(key: key))
        #expect(try database.entries(of: volume).first?.stream?.isEstimate == true)
    }

    @Test func aVersion2DatabaseWalksItsLongFilesOnceMore() throws {
        let (scratch, root, key) = try Self.stick(short: true)
        let path = scratch.path + "/library.db"
        do {
            let database = try LibraryDatabase(path: path, create: true)
            let indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in })
            _ = try indexer.run(root: root, key: key, now: 1_700_000_000)
            #expect(try indexer.refineEstimates(key: key) == 1)
        }
        // What version 2 left: no column saying which lengths are estimates.
        let sql = """
            ALTER TABLE tracks DROP COLUMN duration_estimated; ALTER TABLE tracks DROP COLUMN loudness_state;
            ALTER TABLE tracks DROP COLUMN loudness_lufs; ALTER TABLE tracks DROP COLUMN loudness_peak;
            DROP TABLE station_playback; ALTER TABLE volumes DROP COLUMN station;
            ALTER TABLE volumes DROP COLUMN changed_at;
            ALTER TABLE tracks DROP COLUMN story; ALTER TABLE tracks DROP COLUMN story_read; DROP TABLE chapters;
            ALTER TABLE volumes DROP COLUMN book;
            PRAGMA user_version = 2
            """
        let downgrade = try Run.program("/usr/bin/sqlite3", [path, sql])
        #expect(downgrade.status == 0, "\(downgrade.stderr)")
        let database = try LibraryDatabase(path: path, create: false)
        let volume = try #require(try database.existingVolume(key: key))
        // Migrated to the current version: the volume keeps when it was last seen (db_update's floor).
        #expect(try database.updateStamp(of: volume) == 1_700_000_000)
        let marked = try database.entries(of: volume).filter { $0.stream?.isEstimate == true }.map(\.path.display)
        #expect(marked == ["long.mp3"], "only a file over the first walk's 24 MiB may hold an estimate")
        let indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in })
        #expect(try indexer.refineEstimates(key: key) == 1)
        #expect(try database.entries(of: volume).allSatisfy { $0.stream?.isEstimate == false })
    }
}
