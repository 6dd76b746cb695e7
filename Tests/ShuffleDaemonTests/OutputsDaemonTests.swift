import Foundation
import Glibc
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// The outputs list with the daemon as a real process, real ALSA devices and a stand-in for the kernel's
/// card list (`$SHUFFLEBOX_SOUND_ROOT`: a `cards` file as /proc/asound/cards writes it, and a `dev/snd`
/// folder whose entries come and go as a card's nodes do): the one fake is the hardware edge.
///
/// The outputs: `usb` (driver USB-Audio) first, `busy` (a card whose PCM does not open) second, and `loop`
/// (the paced sink, playing at real speed and recording what it heard) last.
@Suite(.serialized, .enabled(if: DaemonHarness.canPlayForMPC, "needs root (mount), lame and the paced sink"))
struct OutputsDaemonTests {
    static let outputs = [
        "--output", "usb driver USB-Audio pcm usbdac_{card}",
        "--output", "busy card Busy pcm refused_{card}",
        "--output", "loop card Loop pcm paced",
    ]

    /// The stand-in for the kernel's sound devices.
    struct Cards {
        let root: URL
        init(in directory: TemporaryDirectory) throws {
            root = directory.appending("sound")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("dev/snd"), withIntermediateDirectories: true)
        }

        /// Writes the card list (as the kernel would) and creates or removes each card's control node.
        func set(_ cards: [(index: Int, id: String, driver: String)]) throws {
            var text = ""
            for card in cards {
                let id = card.id.padding(toLength: 15, withPad: " ", startingAt: 0)
                text += String(format: "%2d", card.index) + " [\(id)]: \(card.driver) - \(card.driver)\n"
                text += "                      \(card.driver) \(card.index)\n"
            }
            try text.write(to: root.appendingPathComponent("cards"), atomically: true, encoding: .utf8)
            let snd = root.appendingPathComponent("dev/snd")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: snd.path)) ?? []
            where !cards.contains(where: { "controlC\($0.index)" == name }) {
                try FileManager.default.removeItem(at: snd.appendingPathComponent(name))
            }
            for card in cards {
                let node = snd.appendingPathComponent("controlC\(card.index)")
                if !FileManager.default.fileExists(atPath: node.path) {
                    _ = FileManager.default.createFile(atPath: node.path, contents: nil)
                }
            }
        }
    }

    static let busy = (index: 0, id: "Busy", driver: "Dummy")
    static let loop = (index: 1, id: "Loop", driver: "Loopback")
    static let usb = (index: 2, id: "USBDAC", driver: "USB-Audio")

    /// Starts a daemon on the outputs above with `cards` present; returns it with the sink and the USB capture.
    func start(_ cards: Cards, _ present: [(index: Int, id: String, driver: String)], in daemon: DaemonHarness)
        throws -> (sink: PacedSink, usbCapture: URL, heard: URL)
    {
        try cards.set(present)
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        let heard = daemon.directory.appending("heard.raw")
        try sink.record(to: heard)
        let usbCapture = daemon.directory.appending("usb.raw")
        let conf = daemon.directory.appending("usbdac.conf")
        try """
        pcm.usbdac_USBDAC {
            type file
            slave.pcm "null"
            file "\(usbCapture.path)"
            format "raw"
        }

        """.write(to: conf, atomically: true, encoding: .utf8)
        var environment = sink.environment
        environment["ALSA_CONFIG_PATH"] = (environment["ALSA_CONFIG_PATH"] ?? "") + ":" + conf.path
        environment["SHUFFLEBOX_SOUND_ROOT"] = cards.root.path
        try daemon.start(arguments: Self.outputs, environment: environment)
        return (sink, usbCapture, heard)
    }

    func outputs(_ daemon: DaemonHarness) -> String {
        (try? Run.shufflebox(["outputs", "--socket", daemon.socket]).stdout) ?? ""
    }

    /// The track and position of one `status`.
    static func place(_ daemon: DaemonHarness) -> (track: String?, position: Int) {
        let status = try? daemon.status()
        return ((status?["track"] as? [String: Any])?["path"] as? String, status?["positionMs"] as? Int ?? -1)
    }

    static func size(_ file: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
    }

    @Test func aCardThatWillNotOpenIsSkippedAUSBDACTakesOverAndUnpluggedPausesAndGoesBack() throws {
        let library = try DaemonHarness.library(tracks: 3, seconds: 60)
        let daemon = try DaemonHarness()
        let cards = try Cards(in: daemon.directory)
        let (sink, usbCapture, heard) = try start(cards, [Self.busy, Self.loop], in: daemon)
        defer { try? sink.stop() }
        try daemon.plug(library)
        // The busy card is first present in the list, fails to open, and the loop plays.
        #expect(daemon.waitForPosition(over: 1500, seconds: 20), "\(daemon.log)")
        var list = outputs(daemon)
        #expect(list.contains("* loop"), "\(list)")
        #expect(list.contains("busy") && list.contains("failed: cannot open ALSA device 'refused_Busy'"), "\(list)")
        #expect(list.contains("usb") && list.contains("not present"), "\(list)")
        #expect((try daemon.status()["output"] as? String)?.hasPrefix("loop ") == true)
        #expect(PacedSink.heardFrames(in: heard) > 0)

        // A USB DAC plugged in takes over, still playing.
        try cards.set([Self.busy, Self.loop, Self.usb])
        #expect(DaemonHarness.wait(seconds: 10) { outputs(daemon).contains("* usb") }, "\(daemon.log)")
        #expect(DaemonHarness.wait(seconds: 10) { Self.size(usbCapture) > 44100 * 4 }, "\(daemon.log)")
        #expect(daemon.state() == "playing")

        // Unplugged: the music pauses (never suddenly aloud on the speaker), and plays there on `play`.
        try cards.set([Self.busy, Self.loop])
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "paused" }, "\(daemon.log)")
        list = outputs(daemon)
        #expect(list.contains("* loop"), "\(list)")
        // Where it paused, from one `status` that a second one agrees with: read while the player was taking the
        // next track (the USB file device had played the first to its end at once), two separate calls gave the
        // old track with the new one's position (a CI run of stop 36).
        var settled: (track: String?, position: Int) = (nil, -1)
        #expect(
            DaemonHarness.wait(seconds: 5) {
                let now = Self.place(daemon)
                defer { settled = now }
                return now.track != nil && now == settled
            }, "\(daemon.log)")
        let (track, position) = settled
        let heardBefore = PacedSink.heardFrames(in: heard)
        #expect(try Run.shufflebox(["ctl", "--socket", daemon.socket, "play"]).status == 0)
        // The same track, from where it paused (the USB file device played fast, so it may be near its end).
        let resumed = DaemonHarness.wait(seconds: 5) {
            daemon.trackPath() == track && (try? daemon.status())?["positionMs"] as? Int ?? 0 > position
        }
        #expect(resumed, "the place is kept across the switch: \(track ?? "-") at \(position) ms\n\(daemon.log)")
        #expect(DaemonHarness.wait(seconds: 5) { PacedSink.heardFrames(in: heard) > heardBefore + 22050 })
        #expect(daemon.stop() == 0)
    }

    @Test func withNoOutputTheStatusSaysWhyAndMusicStartsWhenACardComes() throws {
        let library = try DaemonHarness.library(tracks: 2, seconds: 20)
        let daemon = try DaemonHarness()
        let cards = try Cards(in: daemon.directory)
        let (sink, _, heard) = try start(cards, [], in: daemon)
        defer { try? sink.stop() }
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "error" }, "\(daemon.log)")
        let reason = try daemon.status()["error"] as? String ?? ""
        #expect(reason.hasPrefix("no sound output works: usb not present; busy not present; loop not present"))
        try cards.set([Self.loop])
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(daemon.waitForPosition(over: 1000, seconds: 15), "\(daemon.log)")
        #expect(PacedSink.heardFrames(in: heard) > 0)
        #expect(daemon.stop() == 0)
    }
}

@Suite struct SoundNodeTests {
    @Test(
        arguments: [
            ("controlC1", 1), ("pcmC12D0p", 12), ("pcmC0D1c", 0), ("hwC2D0", 2), ("midiC3D0", 3), ("timer", nil),
            ("seq", nil), ("by-path", nil), ("C1", nil), ("controlC", nil),
        ] as [(String, Int?)])
    func aNodeNamesItsCard(_ name: String, _ card: Int?) {
        #expect(OutputService.cardNumber(name) == card)
    }
}
