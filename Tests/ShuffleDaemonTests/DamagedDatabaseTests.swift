import Foundation
import ShuffleTestSupport
import Testing

/// A damaged `library.db` (a bad card, a power cut during a write on cheap flash) never silences the box:
/// the daemon moves it aside, starts a fresh index, says so in `status`, and plays. The command-line tools
/// say what is wrong and how to start over.
@Suite(.serialized, .enabled(if: TestLibrary.isAvailable, "needs python3 and lame for the generated library"))
struct DamagedDatabaseTests {
    /// `count` bytes that are not SQLite (a fixed seed: the same bytes every run).
    static func garbage(_ count: Int, seed: UInt64 = 0x5EED) -> Data {
        var state = seed
        return Data(
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            })
    }

    /// Overwrites every page of the SQLite file at `path` but the first (the header and schema stay valid).
    static func garblePages(of path: String) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let size = try #require(attributes[.size] as? Int)
        #expect(size > 4096 * 4, "the database is too small to garble: \(size) bytes")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: garbage(size - 4096))
    }

    /// A database holding the index of a small library (checkpointed and closed: no WAL left).
    static func indexedDatabase(at path: String) throws {
        let library = try DaemonHarness.library(tracks: 30, seconds: 1)
        let result = try Run.shufflebox(["index", library.path, "--db", path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The damaged copies kept beside `database`.
    static func damagedCopies(beside database: String) -> [String] {
        let folder = (database as NSString).deletingLastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("library.db.damaged-") && !$0.hasSuffix("-wal") }
    }

    /// Starts the daemon on the damaged state, plugs a stick and expects it to play and to say what happened.
    func expectReplacedAndPlaying(_ daemon: DaemonHarness) throws {
        try daemon.start()
        let status = try daemon.status()
        let warning = status["warning"] as? String ?? ""
        #expect(warning.contains("was damaged"), "status: \(status)\n\(daemon.log)")
        #expect(daemon.log.contains("<4>[index] the library database \(daemon.database) was damaged"), "\(daemon.log)")
        #expect(Self.damagedCopies(beside: daemon.database).count == 1)
        let text = try Run.shufflebox(["status", "--socket", daemon.socket])
        #expect(text.stdout.contains("warning: the library database"), "\(text.stdout)")
        let library = try DaemonHarness.library(tracks: 4, seconds: 10)
        let plugged = Date()
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        print("damaged database: playing \(Int(Date().timeIntervalSince(plugged) * 1000)) ms after the mount")
        #expect(daemon.stop() == 0)
    }

    @Test(.enabled(if: DaemonHarness.canMount, "needs root to mount a tmpfs"))
    func randomBytesAreMovedAsideAndTheBoxPlays() throws {
        let daemon = try DaemonHarness()
        try FileManager.default.createDirectory(at: daemon.stateDirectory, withIntermediateDirectories: true)
        try Self.garbage(64 * 1024).write(to: URL(fileURLWithPath: daemon.database))
        try expectReplacedAndPlaying(daemon)
        // Damaged again on the next start: still one copy kept, the newest.
        let again = try daemon.sibling()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: again.database + suffix) }
        try Self.garbage(8 * 1024, seed: 2).write(to: URL(fileURLWithPath: again.database))
        try again.start()
        let warned = try again.status()
        #expect(warned["warning"] as? String != nil)
        let copies = Self.damagedCopies(beside: again.database)
        #expect(copies.count == 1, "\(copies)")
        let kept = try Data(
            contentsOf: URL(fileURLWithPath: (again.database as NSString).deletingLastPathComponent)
                .appendingPathComponent(copies.first ?? "none"))
        #expect(kept.count == 8 * 1024, "the newest damaged file is the one kept")
        #expect(again.stop() == 0)
    }

    @Test(.enabled(if: DaemonHarness.canMount, "needs root to mount a tmpfs"))
    func aValidHeaderWithGarbagePagesIsFoundOnOpenAndReplaced() throws {
        let daemon = try DaemonHarness()
        try Self.indexedDatabase(at: daemon.database)
        try Self.garblePages(of: daemon.database)
        try expectReplacedAndPlaying(daemon)
    }

    @Test(.enabled(if: DaemonHarness.canMount, "needs root to mount a tmpfs"))
    func damageFoundWhileRunningReplacesTheDatabaseAndTheStickPlays() throws {
        let daemon = try DaemonHarness()
        try Self.indexedDatabase(at: daemon.database)
        try daemon.start()
        let before = try daemon.status()
        #expect(before["warning"] is NSNull, "\(before)")
        try Self.garblePages(of: daemon.database)
        let library = try DaemonHarness.library(tracks: 4, seconds: 10)
        let plugged = Date()
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        print("damaged while running: playing \(Int(Date().timeIntervalSince(plugged) * 1000)) ms after the mount")
        let after = try daemon.status()
        #expect((after["warning"] as? String ?? "").contains("was damaged"), "\(daemon.log)")
        #expect(Self.damagedCopies(beside: daemon.database).count == 1)
        #expect(daemon.stop() == 0)
    }

    @Test func commandLineToolsSayTheDatabaseIsDamagedAndHowToStartOver() throws {
        let scratch = try TemporaryDirectory(prefix: "damaged-db")
        let library = try DaemonHarness.library(tracks: 4, seconds: 1)
        let random = scratch.path + "/random.db"
        try Self.garbage(64 * 1024).write(to: URL(fileURLWithPath: random))
        let garbled = scratch.path + "/garbled.db"
        try Self.indexedDatabase(at: garbled)
        try Self.garblePages(of: garbled)
        for db in [random, garbled] {
            for command in [["index", library.path], ["list"], ["search", "a"], ["play", library.path, "--once"]] {
                let result = try Run.shufflebox(
                    command + ["--db", db], environment: ["ALSA_CONFIG_PATH": "/dev/null"])
                #expect(result.status != 0, "\(command) on \(db)")
                #expect(result.stderr.contains("\(db) is"), "\(command): \(result.stderr)")
                #expect(result.stderr.contains("damaged ("), "\(command): \(result.stderr)")
                #expect(result.stderr.contains("shufflebox index DIR"), "\(command): \(result.stderr)")
            }
        }
    }
}
