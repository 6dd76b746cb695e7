import Foundation
import Glibc
import ShuffleTestSupport
import Testing

/// The level and its cap are the daemon machine's, and the player plays what it is told: what `status` says
/// is what is heard and what the resume point stores.
@Suite(.serialized, .enabled(if: DaemonHarness.canMount && TestLibrary.isAvailable, "needs root (mount) and lame"))
struct LevelOwnerTests {
    /// A cap raised by SIGHUP holds for the player as well. The player used to keep the cap it was started
    /// with: `status` said 10 while the music played, and the resume point stored, step 3.
    @Test func aCapRaisedOnReloadIsThePlayersToo() throws {
        let library = try DaemonHarness.library(tracks: 2, seconds: 20)
        let daemon = try DaemonHarness()
        let config = daemon.directory.appending("shufflebox.conf")
        try "max-volume = 3\nvolume = 3\nspeech = off\n".write(to: config, atomically: true, encoding: .utf8)
        try daemon.start(arguments: ["--config", config.path])
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.trackPath() != nil }, "\(daemon.log)")
        try "max-volume = 12\nvolume = 3\nspeech = off\n".write(to: config, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(DaemonHarness.wait(seconds: 5) { (try? daemon.status())?["maxVolume"] as? Int == 12 })
        let louder = try Run.shufflebox(["ctl", "--socket", daemon.socket, "volume", "10"])
        #expect(louder.status == 0, "\(louder.stderr)")
        #expect(try daemon.status()["volume"] as? Int == 10)
        // A pause stores the resume point, with the level the player holds.
        #expect(try Run.shufflebox(["ctl", "--socket", daemon.socket, "pause"]).status == 0)
        var stored = ""
        let query = "SELECT volume, paused FROM playback"
        let saved = DaemonHarness.wait(seconds: 5) {
            stored = (try? Run.program("/usr/bin/sqlite3", [daemon.database, query]))?.stdout ?? ""
            return stored.hasSuffix("|1\n")
        }
        #expect(saved, "\(daemon.log)")
        #expect(stored == "10|1\n", "status says 10, the player stored \(stored)")
        #expect(daemon.stop() == 0)
    }
}
