import Foundation
import Glibc
import ShuffleTestSupport
import Testing

/// `stats` as clients that cache the library read it: `db_update` moves forward whenever what the library shows
/// changes (another stick plays, an index run changes the stick) and stays put otherwise, across restarts;
/// `playtime` counts the music played, not the time paused. Cantata loads its library view only when
/// `db_update` moves forward: at 0 it said "No music?" while the box played.
@Suite(.serialized, .enabled(if: DaemonHarness.canMount && TestLibrary.isAvailable, "needs root (mount) and lame"))
struct LibraryStampTests {
    func stats(_ daemon: DaemonHarness) -> [String: Int] {
        var out: [String: Int] = [:]
        for line in daemon.raw(Array("stats\nclose\n".utf8)).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, let value = Int(parts[1]) { out[parts[0]] = value }
        }
        return out
    }

    @Test func dbUpdateMovesForwardWhenTheLibraryShownChangesAndPlaytimeCountsOnlyPlaying() throws {
        let first = try DaemonHarness.library(tracks: 2, seconds: 10)
        let second = try DaemonHarness.library(tracks: 3, seconds: 10)
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.plug(first, as: "first")
        #expect(DaemonHarness.wait(seconds: 20) { daemon.queueIsComplete(tracks: 2) }, "\(daemon.log)")
        let plugged = stats(daemon)["db_update"] ?? 0
        #expect(plugged > 0, "\(stats(daemon))")

        // Playing counts; paused does not.
        #expect(DaemonHarness.wait(seconds: 10) { stats(daemon)["playtime"] ?? 0 >= 1 }, "\(stats(daemon))")
        #expect(try Run.shufflebox(["ctl", "--socket", daemon.socket, "pause"]).status == 0)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" })
        let played = stats(daemon)["playtime"] ?? 0
        #expect(played >= 1, "\(stats(daemon))")
        // Whole seconds: counted while paused, 1.1 s would move it on by at least one. That it does not move can
        // only be waited out.
        usleep(1_100_000)
        #expect(stats(daemon)["playtime"] == played, "time paused is not play time")

        // Another stick: a forward move; back to the first: forward again.
        try daemon.plug(second, as: "second")
        #expect(DaemonHarness.wait(seconds: 20) { daemon.queueIsComplete(tracks: 3) }, "\(daemon.log)")
        // The stamp comes with the stick's listing, read once its first track is out, a moment after the queue:
        // waited for, as a client waits for `idle database`.
        _ = DaemonHarness.wait(seconds: 10) { (stats(daemon)["db_update"] ?? 0) > plugged }
        let other = stats(daemon)["db_update"] ?? 0
        #expect(other > plugged)
        try daemon.unplug("second")
        #expect(DaemonHarness.wait(seconds: 20) { daemon.queueIsComplete(tracks: 2) }, "\(daemon.log)")
        _ = DaemonHarness.wait(seconds: 10) { (stats(daemon)["db_update"] ?? 0) > other }
        let back = stats(daemon)["db_update"] ?? 0
        #expect(back > other)

        // A restart with the same stick shows the same library: the stamp stays.
        #expect(daemon.stop() == 0)
        let again = try daemon.sibling()
        try again.start()
        #expect(DaemonHarness.wait(seconds: 20) { again.queueIsComplete(tracks: 2) }, "\(again.log)")
        _ = DaemonHarness.wait(seconds: 10) { (stats(again)["db_update"] ?? 0) > 0 }
        #expect(stats(again)["db_update"] == back, "\(stats(again))")

        // The stick changed on a computer (a song removed): its index run moves the stamp forward.
        try again.unplug("first")
        let staged = again.staging("first")
        let songs = try FileManager.default.subpathsOfDirectory(atPath: staged.path).filter { $0.hasSuffix(".mp3") }
        try FileManager.default.removeItem(at: staged.appendingPathComponent(try #require(songs.first)))
        try again.plug(first, as: "first")
        #expect(DaemonHarness.wait(seconds: 20) { again.queueIsComplete(tracks: 1) }, "\(again.log)")
        _ = DaemonHarness.wait(seconds: 10) { (stats(again)["db_update"] ?? 0) > back }
        #expect((stats(again)["db_update"] ?? 0) > back, "\(stats(again))")
        #expect(again.stop() == 0)
    }
}
