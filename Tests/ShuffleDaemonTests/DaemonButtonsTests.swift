import Foundation
import ShuffleTestSupport
import Testing

/// Scripted button edges (through the daemon's FIFO source) reach the player through the same
/// recogniser and actions as GPIO buttons, and the volume cap holds.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canMount && TestLibrary.isAvailable && PacedSink.isAvailable,
        "needs root (mount), lame and pulseaudio"))
struct DaemonButtonsTests {
    @Test func playPauseNextAndVolumeButtonsWithTheCap() throws {
        let library = try DaemonHarness.library(tracks: 5, seconds: 20)
        let daemon = try DaemonHarness()
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        let fifo = daemon.directory.appending("buttons.fifo").path
        try daemon.start(
            device: "paced", arguments: ["--board", "qemu", "--volume", "10", "--max-volume", "12"],
            environment: sink.environment.merging(["SHUFFLEBOX_BUTTON_FIFO": fifo]) { $1 })
        try daemon.plug(library)
        #expect(
            DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" && daemon.trackPath() != nil },
            "\(daemon.log)")
        let press = { (lines: String) in try DaemonHarness.press(lines, fifo: fifo) }
        try press("0 play press\n60 play release\n")
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" }, "\(daemon.log)")
        try press("0 play press\n60 play release\n")
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "playing" })
        let before = try #require(daemon.trackPath())
        try press("0 next press\n60 next release\n")
        #expect(DaemonHarness.wait(seconds: 5) { daemon.trackPath().map { $0 != before } ?? false }, "\(daemon.log)")
        // Five steps up from 10 with a cap of 12: it stops at 12. One step down after them, in the same script
        // (its edges are taken in order): 11 only if every step up past the cap was refused (else 14).
        let ups = (0..<5).map { "\($0 * 400) volume-up press\n\($0 * 400 + 60) volume-up release\n" }.joined()
        try press(ups + "2400 volume-down press\n2460 volume-down release\n")
        #expect(DaemonHarness.wait(seconds: 8) { (try? daemon.status())?["volume"] as? Int == 12 }, "\(daemon.log)")
        #expect(DaemonHarness.wait(seconds: 8) { (try? daemon.status())?["volume"] as? Int == 11 }, "\(daemon.log)")
        #expect(daemon.stop() == 0)
    }
}
