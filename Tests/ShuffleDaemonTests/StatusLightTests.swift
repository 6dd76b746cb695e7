import Foundation
import ShuffleTestSupport
import Testing

/// The status light driven by the real daemon, against a folder laid out like an LED-class device (the
/// hardware edge): the trigger, brightness and delays each state leaves there, the board file naming the LED
/// and its polarity, the LED handed back on exit, and a missing or read-only LED said once.
@Suite(.serialized, .enabled(if: DaemonHarness.canMount && TestLibrary.isAvailable, "needs root (mount) and lame"))
struct StatusLightTests {
    static let noLibrary = "trigger=pattern repeat=-1 pattern=255 150 255 0 0 250 0 0 255 150 255 0 0 1450 0 0"
    static let playing = "trigger=none brightness=255"
    static let paused = "trigger=timer delay_on=1000 delay_off=1000"
    static let error =
        "trigger=pattern repeat=-1 pattern=255 150 255 0 0 250 0 0 255 150 255 0 0 250 0 0 255 150 255 0 0 1050 0 0"

    /// Waits until the folder shows `expected`.
    static func waitFor(_ expected: String, on led: LEDClassFolder, _ daemon: DaemonHarness) -> Bool {
        DaemonHarness.wait(seconds: 10) { led.shown == expected }
    }

    @Test func everyStateOfTheDaemonShowsOnTheLed() throws {
        let library = try DaemonHarness.library(tracks: 3, seconds: 20)
        let daemon = try DaemonHarness()
        let led = try LEDClassFolder(
            in: daemon.directory.path, triggers: "none [mmc0] timer oneshot heartbeat pattern", brightness: 0)
        try daemon.start(arguments: ["--led", led.path])
        #expect(Self.waitFor(Self.noLibrary, on: led, daemon), "\(led.shown)\n\(daemon.log)")
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(Self.waitFor(Self.playing, on: led, daemon), "\(led.shown)")
        // Indexing lasts only until the first playable track; its quick blink stays in the delays the daemon
        // wrote then (the folder was made with 500 and 500, and no other state so far uses the timer).
        #expect(led.value("delay_on") == "100" && led.value("delay_off") == "100", "indexing was not shown")
        _ = try daemon.mpc(["pause"])
        #expect(Self.waitFor(Self.paused, on: led, daemon), "\(led.shown)")
        _ = try daemon.mpc(["play"])
        #expect(Self.waitFor(Self.playing, on: led, daemon), "\(led.shown)")
        #expect(daemon.stop() == 0)
        // Handed back with the trigger it had (the Pi's ACT LED goes back to showing SD card activity).
        #expect(led.value("trigger") == "mmc0")
    }

    @Test func aBrokenSoundDeviceShowsAsTheErrorPattern() throws {
        let library = try DaemonHarness.library(tracks: 3, seconds: 10)
        let daemon = try DaemonHarness()
        let led = try LEDClassFolder(in: daemon.directory.path)
        try daemon.start(device: "nosuchdevice", arguments: ["--led", led.path])
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "error" }, "\(daemon.log)")
        #expect(Self.waitFor(Self.error, on: led, daemon), "\(led.shown)")
        #expect(daemon.stop() == 0)
    }

    @Test func theBoardFileNamesTheLedAndItsPolarity() throws {
        let daemon = try DaemonHarness()
        let led = try LEDClassFolder(in: daemon.directory.path, triggers: "[none] timer", maxBrightness: 1)
        let board = daemon.directory.appending("board.conf")
        let text = """
            [board]
            chip = no-such-chip
            [button play]
            gpio = 1
            click = play-pause
            [led]
            name = \(daemon.directory.path)/missing \(led.path)   # the first that exists
            active-low = yes
            """
        try text.write(to: board, atomically: true, encoding: .utf8)
        try daemon.start(arguments: ["--board-file", board.path])
        // No library, no pattern trigger: one short blink every 2 s, written inverted (the timer taken, the
        // pattern found missing, the LED active-low).
        #expect(
            Self.waitFor("trigger=timer delay_on=1850 delay_off=150", on: led, daemon), "\(led.shown)\n\(daemon.log)")
        #expect(daemon.stop() == 0)
        #expect(led.shown == "trigger=none brightness=0")
    }

    @Test func withoutTheLedTheDaemonSaysSoOnceAndPlays() throws {
        let library = try DaemonHarness.library(tracks: 3, seconds: 10)
        let daemon = try DaemonHarness()
        let missing = daemon.directory.appending("leds/none").path
        try daemon.start(arguments: ["--led", missing])
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        _ = try daemon.mpc(["pause"])
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" })
        #expect(daemon.stop() == 0)
        #expect(daemon.log.components(separatedBy: "no status light: no LED at \(missing)").count == 2, "\(daemon.log)")
    }

    /// A board's LED may appear after the daemon started (Debian's kernel has leds-gpio as a module, which
    /// udev's coldplug loads while the daemon already runs): the light is taken when it comes, and shows the
    /// daemon's state, not left dark for the whole boot.
    @Test func aLedThatAppearsAfterTheDaemonStartedIsTakenWhenItComes() throws {
        let daemon = try DaemonHarness()
        let path = daemon.directory.appending("leds/status").path
        try daemon.start(arguments: ["--led", path])
        // The daemon answers once every service has started: it has looked for the LED, and found none.
        #expect(daemon.state() == "no-library", "\(daemon.log)")
        // Made whole elsewhere, then moved into place: the daemon never sees half an LED.
        let made = try LEDClassFolder(in: daemon.directory.path, name: "staging", triggers: "[none] timer")
        _ = try DaemonHarness.shell("mkdir", ["-p", daemon.directory.appending("leds").path])
        _ = try DaemonHarness.shell("mv", [made.path, path])
        let led = LEDClassFolder(existing: path)
        // No library: one short blink every 2 s.
        #expect(Self.waitFor("trigger=timer delay_on=150 delay_off=1850", on: led, daemon), "\(led.shown)\n\(daemon.log)")
        #expect(daemon.stop() == 0)
    }

    /// At boot udev's coldplug may hand the LED to the daemon's group only after the daemon has started (seen
    /// under emulation: more than 10 s later). Until then every write is refused with EACCES; the light must
    /// show the daemon's state once udev has come, not stay dark for the whole boot.
    @Test func aLedThatUdevHandsOverLateIsTakenWhenItComes() throws {
        let daemon = try DaemonHarness()
        let led = try LEDClassFolder(in: daemon.directory.path)
        let files = try FileManager.default.contentsOfDirectory(atPath: led.path).map { led.path + "/" + $0 }
        _ = try DaemonHarness.shell("chmod", ["0444"] + files)
        // Root that honours file modes, as the daemon's own user does: without the capabilities that skip them.
        let caps = "-dac_override,-dac_read_search,-fowner"
        let setpriv = ["/usr/bin/setpriv", "--inh-caps=\(caps)", "--bounding-set=\(caps)"]
        try daemon.start(arguments: ["--led", led.path], under: setpriv)
        // The daemon answers once every service has started and it has shown its first state: its first
        // write was refused by then. Then 1.5 s of its retries (50 ms, 100 ms, ... apart: seven of them) are
        // refused too; that the LED did not change in a while can only be waited out.
        #expect(daemon.state() == "no-library", "\(daemon.log)")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(led.shown == "trigger=none brightness=0", "a refused write changed the LED: \(led.shown)")
        _ = try DaemonHarness.shell("chmod", ["0644"] + files)
        #expect(Self.waitFor(Self.noLibrary, on: led, daemon), "\(led.shown)\n\(daemon.log)")
        #expect(daemon.stop() == 0)
        #expect(!daemon.log.contains("carrying on without it"), "\(daemon.log)")
    }

    @Test func withoutWriteAccessTheDaemonSaysSoOnceAndPlays() throws {
        let library = try DaemonHarness.library(tracks: 3, seconds: 10)
        let daemon = try DaemonHarness()
        let led = try LEDClassFolder(in: daemon.directory.path)
        // A read-only /sys, as systemd's ProtectKernelTunables makes it: every write fails with EROFS.
        try DaemonHarness.shell("mount", ["--bind", "-o", "ro", led.path, led.path])
        defer { _ = try? DaemonHarness.shell("umount", [led.path]) }
        try daemon.start(arguments: ["--led", led.path])
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        _ = try daemon.mpc(["pause"])
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" })
        #expect(daemon.stop() == 0)
        let complaints = daemon.log.components(separatedBy: "carrying on without it").count - 1
        #expect(complaints == 1, "\(daemon.log)")
        #expect(
            daemon.log.contains("status light: cannot write \(led.path)/")
                || daemon.log.contains("status light: cannot open \(led.path)/"))
        #expect(led.value("trigger").hasPrefix("[none]"))
    }
}
