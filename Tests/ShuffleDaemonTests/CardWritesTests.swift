import Foundation
import Glibc
import ShuffleTestSupport
import Testing

/// What the daemon writes to the card while music plays: the resume point only every `resume-save` seconds
/// (and at once on a pause), so a cheap microSD card is not worn by a synced write every two seconds.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canMount && TestLibrary.isAvailable && PacedSink.isAvailable,
        "needs root (mount), lame and pulseaudio"))
struct CardWritesTests {
    /// When the database's write-ahead log last changed (every commit writes it, a checkpoint too).
    static func lastWrite(_ database: String) -> timespec? {
        var info = stat()
        guard stat(database + "-wal", &info) == 0 else { return nil }
        return info.st_mtim
    }

    static func same(_ a: timespec?, _ b: timespec?) -> Bool {
        a?.tv_sec == b?.tv_sec && a?.tv_nsec == b?.tv_nsec
    }

    /// Plays with `resume-save` at `seconds` and returns whether the database was written during 6 s of playing
    /// (after the start's own writes), and whether a pause then wrote it.
    func writes(resumeSave seconds: Int) throws -> (whilePlaying: Bool, onPause: Bool) {
        let library = try DaemonHarness.library(tracks: 3, seconds: 40)
        let daemon = try DaemonHarness()
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        // No loudness scan: it writes what it measures, and this is about the player's writes.
        try daemon.start(
            device: "paced", arguments: ["--replay-gain", "off", "--resume-save", "\(seconds)"],
            environment: sink.environment)
        try daemon.plug(library)
        #expect(
            DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" && daemon.waitForPosition(over: 1_000) },
            "\(daemon.log)")
        // The index run writes too: it must be over.
        #expect(
            DaemonHarness.wait(seconds: 10) {
                ((try? daemon.status())?["library"] as? [String: Any])?["indexing"] as? Bool == false
            }, "\(daemon.log)")
        // What the start still had in flight lands first; then 6 s in which nothing may be written. Both are
        // waits for nothing to happen: sleeps.
        usleep(1_500_000)
        let before = Self.lastWrite(daemon.database)
        usleep(6_000_000)
        let afterPlaying = Self.lastWrite(daemon.database)
        #expect(daemon.state() == "playing", "\(daemon.log)")
        _ = try daemon.mpc(["pause"])
        let paused = DaemonHarness.wait(seconds: 3) { !Self.same(Self.lastWrite(daemon.database), afterPlaying) }
        #expect(daemon.stop() == 0)
        return (!Self.same(before, afterPlaying), paused)
    }

    @Test func playingWritesNothingUntilItsIntervalAndAPauseWritesAtOnce() throws {
        let (whilePlaying, onPause) = try writes(resumeSave: 30)
        #expect(!whilePlaying, "the database was written while playing, with resume-save = 30")
        #expect(onPause, "a pause stores the resume point at once")
    }

    /// The yardstick for the test above: the same 6 s with a save every 2 s do write, so the file's time is a
    /// measure that sees the player's saves.
    @Test func savingEveryTwoSecondsWritesWhilePlaying() throws {
        let (whilePlaying, _) = try writes(resumeSave: 2)
        #expect(whilePlaying, "a save every 2 s wrote nothing in 6 s of playing")
    }
}
