import Foundation
import ShuffleTestSupport
import Testing

/// Plug-in libraries with the daemon as a real process: tmpfs "sticks" mounted under a temporary library
/// root (needs root), audio through ALSA's file PCM, or the paced PulseAudio sink where time matters.
@Suite(.serialized, .enabled(if: DaemonHarness.canMount && TestLibrary.isAvailable, "needs root (mount) and lame"))
struct HotplugTests {
    @Test func plugPlaysUnplugWaitsReplugPlaysAgainAndClientsAgree() throws {
        let library = try DaemonHarness.library(tracks: 6, seconds: 10)
        let daemon = try DaemonHarness()
        try daemon.start()
        #expect(daemon.state() == "no-library")
        let plugged = Date()
        try daemon.plug(library)
        let grew = DaemonHarness.wait(seconds: 10) {
            ((try? FileManager.default.attributesOfItem(atPath: daemon.capture.path))?[.size] as? Int ?? 0) > 0
        }
        #expect(grew, "no audio reached the capture file:\n\(daemon.log)")
        print("daemon: first audio \(Int(Date().timeIntervalSince(plugged) * 1000)) ms after the mount")
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "playing" })
        // Paused, the track stands still, so the two clients must name the same one.
        #expect(try daemon.mpc(["pause"]).status == 0)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" })
        let ours = try #require(daemon.trackPath())
        let theirs = try daemon.mpc(["-f", "%file%", "current"]).stdout.trimmingCharacters(in: .newlines)
        #expect(ours == theirs)
        #expect(try daemon.mpc(["status"]).stdout.contains("[paused]"))
        let search = try daemon.mpc(["search", "any", ""])
        #expect(search.status == 0)

        try daemon.unplug()
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "no-library" }, "\(daemon.log)")
        #expect(daemon.process.isRunning)
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(daemon.trackPath() != nil)
        #expect(daemon.stop() == 0)
    }

    @Test(.enabled(if: PacedSink.isAvailable, "needs pulseaudio for a device that keeps real time"))
    func replugContinuesTheSameTrackWhereItStopped() throws {
        let library = try DaemonHarness.library(tracks: 5, seconds: 20)
        let daemon = try DaemonHarness()
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        try daemon.start(device: "paced", environment: sink.environment)
        try daemon.plug(library)
        #expect(daemon.waitForPosition(over: 3000), "\(daemon.log)")
        let before = try daemon.status()
        let track = try #require(daemon.trackPath())
        let position = before["positionMs"] as? Int ?? 0
        try daemon.unplug()
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "no-library" })
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "playing" && daemon.trackPath() != nil })
        let after = try daemon.status()
        #expect(daemon.trackPath() == track)
        let resumed = after["positionMs"] as? Int ?? -1
        print("daemon: unplugged at \(position) ms of \(track), resumed at \(resumed) ms")
        #expect(abs(resumed - position) <= 5000, "stopped at \(position) ms, resumed at \(resumed) ms")
        #expect(daemon.stop() == 0)
    }

    @Test(.enabled(if: PacedSink.isAvailable, "needs pulseaudio for a device that keeps real time"))
    func killNineRoundsKeepTheDatabaseIntactAndResume() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["SHUFFLEBOX_KILL_ROUNDS"] ?? "") ?? 4
        let library = try DaemonHarness.library(tracks: 5, seconds: 20)
        let first = try DaemonHarness()
        let sink = try PacedSink(directory: first.directory.appending("paced"))
        defer { try? sink.stop() }
        try first.plug(library)
        var last: (track: String, positionMs: Int)?
        var generator = SystemRandomNumberGenerator()
        for round in 0..<rounds {
            // Every round is a fresh process on the same state directory, socket and stick.
            let daemon = round == 0 ? first : try first.sibling()
            try daemon.start(device: "paced", environment: sink.environment)
            #expect(
                DaemonHarness.wait(seconds: 5) { daemon.state() == "playing" && daemon.trackPath() != nil },
                "round \(round): \(daemon.log)")
            if let last, let status = try? daemon.status() {
                let position = status["positionMs"] as? Int ?? -1
                let sameTrack = daemon.trackPath() == last.track
                // Within 5 s of the last position heard (or just past the end, on the next track).
                #expect(
                    sameTrack ? abs(position - last.positionMs) <= 5000 : position <= 5000,
                    "round \(round): was \(last), now \(status)")
            }
            usleep(UInt32.random(in: 200_000...2_500_000, using: &generator))
            if let status = try? daemon.status(), let track = daemon.trackPath() {
                last = (track, status["positionMs"] as? Int ?? 0)
            }
            #expect(daemon.stop(SIGKILL) == 128 + SIGKILL)
            let check = try Run.program("/usr/bin/sqlite3", [daemon.database, "PRAGMA integrity_check"])
            #expect(check.stdout == "ok\n", "round \(round): \(check.stdout)\(check.stderr)")
        }
    }
}
