import Foundation
import ShuffleTestSupport
import Testing

/// The profile for children end to end: the real daemon, scripted buttons through its FIFO source, real MP3s
/// played through the paced sink.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canMount && TestLibrary.isAvailable && PacedSink.isAvailable,
        "needs root (mount), lame and pulseaudio"))
struct ChildProfileDaemonTests {
    /// Writes `lines` into the daemon's button FIFO.
    static func press(_ lines: String, fifo: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: fifo))
        handle.write(Data(lines.utf8))
        try handle.close()
    }

    static let lockChord = "0 play press\n50 volume-down press\n3300 volume-down release\n3350 play release\n"

    /// `lockChord` starting at `milliseconds`, after presses written in the same script.
    static func lockChord(at milliseconds: Int) -> String {
        lockChord.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", maxSplits: 1)
            return "\(Int(fields[0])! + milliseconds) \(fields[1])\n"
        }.joined()
    }

    /// The lock file the daemon keeps in its state folder ("locked\n", "unlocked\n"; "" while there is none).
    static func lockFile(_ daemon: DaemonHarness) -> String {
        (try? String(contentsOf: daemon.stateDirectory.appendingPathComponent("buttons.lock"), encoding: .utf8)) ?? ""
    }

    @Test func theLockRefusesEveryPressButItsChordAndSurvivesARestart() throws {
        // 40 s songs: the one playing when the buttons are locked must not end by itself before it is compared
        // (about 14 s in). Three of them, as CardWritesTests has: one library generated for both in a whole run.
        let library = try DaemonHarness.library(tracks: 3, seconds: 40)
        let daemon = try DaemonHarness()
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        let fifo = daemon.directory.appending("buttons.fifo").path
        let arguments = ["--board", "qemu", "--volume", "8", "--max-volume", "12"]
        let environment = sink.environment.merging(["SHUFFLEBOX_BUTTON_FIFO": fifo]) { $1 }
        try daemon.start(device: "paced", arguments: arguments, environment: environment)
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" && daemon.trackPath() != nil })
        #expect(DaemonHarness.wait(seconds: 5) { (try? daemon.status())?["volume"] as? Int == 8 }, "\(daemon.log)")

        try Self.press(Self.lockChord, fifo: fifo)
        #expect(DaemonHarness.wait(seconds: 8) { Self.lockFile(daemon) == "locked\n" }, "\(daemon.log)")
        #expect(daemon.state() == "playing", "the chord itself neither pauses nor skips")
        let track = daemon.trackPath()
        // The presses, the chord (unlocked) and the chord again (locked for the restart), in one script: the
        // scripted edges are taken in order, so once the lock file has said "unlocked" and then "locked", every
        // press before was decided, and each left the music as it was. (A script written while the chord's
        // releases are still due would mix its edges with theirs.)
        try Self.press(
            "0 volume-up press\n60 volume-up release\n500 play press\n560 play release\n1000 next press\n"
                + "1060 next release\n" + Self.lockChord(at: 1500) + Self.lockChord(at: 5350), fifo: fifo)
        #expect(DaemonHarness.wait(seconds: 12) { Self.lockFile(daemon) == "unlocked\n" }, "\(daemon.log)")
        #expect(DaemonHarness.wait(seconds: 12) { Self.lockFile(daemon) == "locked\n" }, "\(daemon.log)")
        #expect(try daemon.status()["volume"] as? Int == 8, "volume-up was refused")
        #expect(daemon.state() == "playing", "play-pause was refused")
        #expect(daemon.trackPath() == track, "next was refused")
        #expect(daemon.stop() == 0)

        // A restart (a power cut, a reboot): still locked. The press before the chord is refused, the chord
        // unlocks, and the presses after it work: one step up, then a pause, which also says the script is done
        // (nothing else pauses). Unlocked at the restart, the first press would step up, and the chord lock and
        // refuse the pause; a refusal that let the press through would leave two steps up.
        let again = try daemon.sibling()
        try again.start(device: "paced", arguments: arguments, environment: environment)
        #expect(DaemonHarness.wait(seconds: 10) { again.state() == "playing" }, "\(again.log)")
        try Self.press(
            "0 volume-up press\n60 volume-up release\n" + Self.lockChord(at: 500)
                + "4350 volume-up press\n4410 volume-up release\n4850 play press\n4910 play release\n", fifo: fifo)
        #expect(DaemonHarness.wait(seconds: 12) { again.state() == "paused" }, "\(again.log)")
        #expect(try again.status()["volume"] as? Int == 9)
        #expect(Self.lockFile(again) == "unlocked\n")
        #expect(again.stop() == 0)
    }

    @Test func anIdleBoxAsksForThePowerOffThroughItsOneCommand() throws {
        let daemon = try DaemonHarness()
        let marker = daemon.directory.appending("powered-off")
        let script = daemon.directory.appending("poweroff.sh")
        try "#!/bin/sh\necho \"$@\" >> '\(marker.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        try daemon.start(arguments: ["--idle-power-off", "2s", "--power-off-command", "\(script.path) now"])
        // The shell creates the file for `>>` before `echo` writes into it: wait for the whole line, not the file.
        #expect(
            DaemonHarness.wait(seconds: 15) {
                (try? String(contentsOf: marker, encoding: .utf8))?.hasSuffix("\n") == true
            },
            "\(daemon.log)")
        #expect(try String(contentsOf: marker, encoding: .utf8) == "now\n")
        #expect(daemon.stop() == 0)
    }

    /// A stick with one 40 s MP3 of a steady tone (so the heard level follows the player's gain alone).
    static func toneStick(in directory: TemporaryDirectory) throws -> URL {
        let stick = directory.appending("tone")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        let rate = 44_100
        let frames = rate * 40
        var pcm = [UInt8]()
        pcm.reserveCapacity(frames * 4)
        for frame in 0..<frames {
            let sample = Int16(12_000 * sin(2 * Double.pi * 440 * Double(frame) / Double(rate)))
            let bits = UInt16(bitPattern: sample)
            for _ in 0..<2 { pcm += [UInt8(bits & 0xFF), UInt8(bits >> 8)] }
        }
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        var wav = Array("RIFF".utf8) + le32(36 + pcm.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1)
        wav += le16(2) + le32(rate) + le32(rate * 4) + le16(4) + le16(16) + Array("data".utf8) + le32(pcm.count)
        wav += pcm
        let source = directory.appending("tone.wav")
        try Data(wav).write(to: source)
        let encoded = try DaemonHarness.shell(
            "lame",
            ["--quiet", "--noreplaygain", "-b", "128", source.path, stick.appendingPathComponent("tone.mp3").path])
        #expect(encoded.status == 0)
        return stick
    }

    /// RMS of each `window` frames of the s16le stereo recording, over its sounding frames only: a loaded
    /// machine can starve the paced sink, which then records stretches of digital silence inside the music
    /// (they are not the player's gain). A window with under a tenth of its frames sounding counts as silent.
    static func levels(_ file: URL, window: Int) throws -> [Double] {
        let bytes = [UInt8](try Data(contentsOf: file))
        let frames = bytes.count / 4
        return stride(from: 0, to: frames - window + 1, by: window).map { start in
            var sum = 0.0
            var sounding = 0
            for frame in start..<(start + window) {
                let left = Double(Int16(bitPattern: UInt16(bytes[4 * frame]) | UInt16(bytes[4 * frame + 1]) << 8))
                let right = Int16(bitPattern: UInt16(bytes[4 * frame + 2]) | UInt16(bytes[4 * frame + 3]) << 8)
                guard left != 0 || right != 0 else { continue }
                sum += left * left
                sounding += 1
            }
            return sounding * 10 < window ? 0 : (sum / Double(sounding)).squareRoot()
        }
    }

    @Test func theSleepTimerFadesSteadilyToSilenceThenPauses() throws {
        let daemon = try DaemonHarness()
        let stick = try Self.toneStick(in: daemon.directory)
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        let recording = daemon.directory.appending("heard.raw")
        try sink.record(to: recording)
        // The fade alone: the voice would say "Sleep timer, 1 minute" over the hum being measured.
        let quiet = daemon.directory.appending("quiet.conf")
        try "speech = off\n".write(to: quiet, atomically: true, encoding: .utf8)
        try daemon.start(
            device: "paced", arguments: ["--volume", "10", "--sleep-fade", "4", "--config", quiet.path],
            environment: sink.environment)
        try daemon.plug(stick)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(daemon.waitForPosition(over: 3_000), "\(daemon.log)")
        let asked = try Run.shufflebox(["ctl", "--socket", daemon.socket, "sleep", "2s"])
        #expect(asked.status == 0, "\(asked.stderr)")
        // Nothing else pauses this box: the sleep timer did.
        #expect(DaemonHarness.wait(seconds: 20) { daemon.state() == "paused" }, "\(daemon.log)")
        #expect((try daemon.status())["volume"] as? Int == 10, "the level is back for the next play")
        // A second heard after the pause: the silence that ends the recording lasts (nothing plays again).
        usleep(1_000_000)

        // 100 ms windows: a plateau, then a decline that never rises (1 dB of slack for windows that straddle
        // a step), down to digital silence, which lasts.
        let levels = try Self.levels(recording, window: PacedSink.recordingRate / 10)
        let end = try #require(levels.lastIndex { $0 > 0 })
        #expect(end >= 60, "at least 6 s heard: \(levels.count) windows")
        let plateau = levels[(end - 60)..<(end - 45)].sorted()[7]
        #expect(plateau > 100, "the tone was heard before the fade")
        let fadeStart = try #require(levels[(end - 45)...end].firstIndex { $0 < plateau * 0.85 })
        let fade = Array(levels[fadeStart...end])
        #expect(fade.count >= 20, "the fade is spread over its time, not a jump: \(fade.count) windows")
        for (earlier, later) in zip(fade, fade.dropFirst()) {
            #expect(later <= earlier * 1.12, "the fade never rises: \(fade)")
        }
        // The last audible step is step 1 of 10 (18 dB down); then silence.
        #expect((fade.last ?? plateau) < plateau / 5, "it ends at least 14 dB down, then silent: \(fade)")
        #expect(levels[(end + 1)...].allSatisfy { $0 == 0 })
        #expect(daemon.stop() == 0)
    }
}
