import Foundation
import Glibc
import ShuffleTestSupport
import Testing

/// `shufflebox play` on a library that goes away mid-track (a stick pulled out): nothing is marked
/// unplayable, the resume point is kept, and the player says what happened. The device is ALSA's `file`
/// PCM writing into a FIFO the test reads, so the player is held mid-track for as long as the test likes
/// (no clock involved).
@Suite(.serialized, .enabled(if: TestLibrary.isAvailable, "needs python3 and lame for the generated library"))
struct PulledLibraryTests {
    /// A folder with a library, a database and a FIFO device.
    final class Setup: Sendable {
        let folder: TemporaryDirectory
        let library: URL
        let backup: URL
        let database: String
        let fifo: URL
        let environment: [String: String]

        init() throws {
            folder = try TemporaryDirectory(prefix: "shufflebox-pulled")
            library = folder.appending("library")
            backup = folder.appending("backup")
            database = folder.appending("library.db").path
            fifo = folder.appending("pcm.fifo")
            guard mkfifo(fifo.path, 0o600) == 0 else { throw TestSupportError("mkfifo \(fifo.path) failed") }
            let conf = folder.appending("fifo.conf")
            let text = """
                pcm.fifo {
                    type file
                    slave.pcm "null"
                    file "\(fifo.path)"
                    format "raw"
                }
                """
            try text.write(to: conf, atomically: true, encoding: .utf8)
            environment = ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(conf.path)"]
        }

        /// Four 3-second tracks of one format (so the PCM is never reopened between them), with a copy kept
        /// aside (same times, so a later index sees them unchanged).
        func generate(into directory: URL) throws {
            try TestLibrary.generate(
                at: directory, tracks: 4, seed: 9, formats: .same, broken: 0, extras: false, seconds: 3)
            let copy = try Run.program("/bin/cp", ["-a", directory.path, backup.path])
            guard copy.status == 0 else { throw TestSupportError("cp -a failed: \(copy.stderr)") }
        }

        func sql(_ query: String) throws -> String {
            let result = try Run.program("/usr/bin/sqlite3", [database, query])
            guard result.status == 0 else { throw TestSupportError("sqlite3 \(query): \(result.stderr)") }
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Plays `setup.library`, lets about a second of the first track through, calls `pull`, and lets the
    /// player run on until it ends. Returns the player and its exit status.
    private func playAndPull(_ setup: Setup, pull: () throws -> Void) async throws -> (PlayerProcess, Int32) {
        let reader = open(setup.fifo.path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) & ~O_NONBLOCK)
        let player = try PlayerProcess(
            ["play", setup.library.path, "--db", setup.database, "--device", "fifo", "--seed", "5"],
            environment: setup.environment)
        #expect(try await player.waitForLines(1), "\(player.stderr)")
        // One second of 44.1 kHz stereo S16: well inside the first (3-second) track.
        let heard = Self.read(reader, bytes: 176_400, seconds: 30)
        #expect(heard == 176_400, "\(player.stderr)")
        try pull()
        Self.drain(reader, seconds: 30)  // to the end: the player closes the device
        let status = player.wait(seconds: 30)
        return (player, status)
    }

    /// Checks what a pulled library must leave behind, then puts the library back and checks that the next
    /// run continues with the rest of the cycle.
    private func checkAfterPull(_ setup: Setup, _ player: PlayerProcess, status: Int32) throws {
        #expect(status == 1, "\(player.stderr)")
        #expect(
            player.stderr.contains(
                "the music folder \(setup.library.path) is gone (stick pulled out?); the resume point is saved"),
            "\(player.stderr)")
        #expect(player.lines.count == 1, "only the first track was heard: \(player.lines)")
        #expect(try setup.sql("SELECT count(*) FROM files WHERE status = 'unplayable'") == "0")
        #expect(try setup.sql("SELECT count(*) FROM files WHERE status = 'ok'") == "4")
        // The first track was heard to its end; the next one is where the next run starts.
        #expect(try setup.sql("SELECT cursor, position_ms, length(order_blob) FROM playback") == "1|0|32")
    }

    /// The stick comes back: the rest of the cycle plays, every remaining track once, the heard one not again.
    private func checkResume(_ setup: Setup, heard first: String) throws {
        let again = try Run.shufflebox(
            ["play", setup.library.path, "--db", setup.database, "--device", "null", "--once"],
            environment: setup.environment)
        #expect(again.status == 0, "\(again.stderr)")
        let lines = again.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(!lines.contains(first))
    }

    @Test func aLibraryFolderRemovedMidTrackMarksNothingUnplayableAndKeepsTheResumePoint() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        try setup.generate(into: setup.library)
        let (player, status) = try await playAndPull(setup) {
            try FileManager.default.removeItem(at: setup.library)
        }
        try checkAfterPull(setup, player, status: status)
        let copy = try Run.program("/bin/cp", ["-a", setup.backup.path, setup.library.path])
        #expect(copy.status == 0)
        try checkResume(setup, heard: try #require(player.lines.first))
    }

    @Test(.enabled(if: DaemonHarness.canMount, "needs root to mount a tmpfs"))
    func aStickUnmountedMidTrackMarksNothingUnplayableAndKeepsTheResumePoint() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        try FileManager.default.createDirectory(at: setup.library, withIntermediateDirectories: true)
        try DaemonHarness.shell("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", setup.library.path])
        var mounted = true
        defer { if mounted { _ = try? DaemonHarness.shell("umount", ["-l", setup.library.path]) } }
        try setup.generate(into: setup.library)
        // Lazily, as systemd does when a stick is pulled with files open: the open track stays readable,
        // the folder is at once the empty mount point on another file system.
        let (player, status) = try await playAndPull(setup) {
            try DaemonHarness.shell("umount", ["-l", setup.library.path])
            mounted = false
        }
        try checkAfterPull(setup, player, status: status)
        try DaemonHarness.shell("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", setup.library.path])
        mounted = true
        let copy = try Run.program("/bin/cp", ["-a", setup.backup.path + "/.", setup.library.path])
        #expect(copy.status == 0)
        try checkResume(setup, heard: try #require(player.lines.first))
    }

    /// Reads up to `bytes` from `fd` (a FIFO), waiting for a writer to appear and giving up after `seconds`.
    /// Returns how many bytes came.
    static func read(_ fd: Int32, bytes: Int, seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while total < bytes && Date() < deadline {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) >= 0 else { break }
            let count = Glibc.read(fd, &buffer, min(buffer.count, bytes - total))
            if count > 0 {
                total += count
            } else if count == 0 {
                usleep(20_000)  // no writer yet: the player has not opened the device
            } else if errno != EINTR && errno != EAGAIN {
                break
            }
        }
        return total
    }

    /// Reads `fd` (a FIFO whose writer is connected) until the writer closes it, for at most `seconds`.
    static func drain(_ fd: Int32, seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) >= 0 else { return }
            guard ready.revents != 0 else { continue }
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return }
        }
    }
}
