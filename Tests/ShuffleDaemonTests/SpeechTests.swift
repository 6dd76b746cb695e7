import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

/// The box's voice through the real daemon and devices: the speak gesture on a playing daemon (paced sink,
/// recorded) ducks the music by the configured amount and brings it back; the phrase heard is espeak-ng's
/// own rendering of the words, at the volume's level and never above the cap; speech while paused leaves
/// the player paused; `shufflebox say` speaks to a device.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canMount && TestLibrary.isAvailable && PacedSink.isAvailable
            && ExternalTool.find("espeak-ng") != nil,
        "needs root (mount), lame, pulseaudio and espeak-ng"))
struct DaemonSpeechTests {
    /// A one-track stick: `name.mp3` holding a `frequency` Hz sine at `amplitude` (0: silence), no tags.
    static func toneLibrary(
        _ directory: TemporaryDirectory, name: String, frequency: Double, amplitude: Double
    ) throws -> URL {
        let library = directory.appending(name)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let wav = directory.appending("\(name).wav")
        try SpeechReference.writeTone(wav, frequency: frequency, amplitude: amplitude, seconds: 30)
        let lame = try #require(ExternalTool.find("lame"))
        let result = try Run.program(lame, ["--silent", "-b", "128", wav.path, library.appendingPathComponent("\(name).mp3").path])
        #expect(result.status == 0, "\(result.stderr)")
        return library
    }

    /// The left channel of the recording from byte `offset` on.
    static func left(_ recording: URL, from offset: Int) throws -> [Int16] {
        let bytes = [UInt8](try Data(contentsOf: recording))
        let samples = SpeechReference.samples(Array(bytes[min(bytes.count, offset)...]))
        return stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
    }

    static let holdPlay = "0 play press\n1000 play release\n"

    @Test func theSpeakGestureDucksTheMusicByTheConfiguredAmountAndBringsItBack() throws {
        let daemon = try DaemonHarness()
        let library = try Self.toneLibrary(daemon.directory, name: "Low Hum", frequency: 60, amplitude: 0.3)
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        let recording = daemon.directory.appending("heard.raw")
        try sink.record(to: recording)
        let fifo = daemon.directory.appending("buttons.fifo").path
        let config = daemon.directory.appending("speech.conf")
        try "duck = -15\n".write(to: config, atomically: true, encoding: .utf8)
        try daemon.start(
            device: "paced", arguments: ["--board", "qemu", "--volume", "20", "--max-volume", "20", "--config", config.path],
            environment: sink.environment.merging(["SHUFFLEBOX_BUTTON_FIFO": fifo]) { $1 })
        try daemon.plug(library)
        let heard = HeardAudio(file: recording)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(heard.waitForSound(milliseconds: 1_000))
        let start = (try FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0
        try DaemonHarness.press(Self.holdPlay, fifo: fifo)
        // 5 s heard from the gesture on (the phrase, the dip and the music back), by the recording's own clock.
        let bytes = 5 * PacedSink.recordingRate * PacedSink.recordingChannels * 2
        let recorded = { DaemonHarness.size(of: recording) - start }
        #expect(DaemonHarness.wait(seconds: 20) { recorded() >= bytes }, "recorded \(recorded()) bytes")
        #expect(daemon.state() == "playing")
        #expect(daemon.stop() == 0)

        let left = try Self.left(recording, from: start)
        let window = 2_205  // 50 ms
        let levels = stride(from: 0, to: left.count - window, by: window).map {
            SpeechReference.toneAmplitude(left[$0..<($0 + window)], frequency: 60, rate: 44_100)
        }
        // On a loaded machine the paced sink can run dry for a moment: windows of silence are no level.
        // A window in which the sink ran dry for a moment reads low, never high: the levels are taken at the upper
        // quartile of their windows, which such dips do not move (seen: 0.56 dB low at the median under load).
        let sounding = levels.prefix(12).filter { $0 > 1_000 }.sorted()
        let before = sounding.isEmpty ? 0 : sounding[sounding.count * 3 / 4]
        #expect(before > 3_000, "the hum is heard before the gesture: \(before)")
        let ducked = levels.indices.filter { levels[$0] > before * 0.05 && levels[$0] < before * 0.5 }
        let first = try #require(ducked.first, "the music ducked: \(levels.map { Int($0) })")
        // The dip is one run of windows from the first. A window past it can fall in the same band: the last
        // one, when the daemon stops in the middle of it (seen in CI: the music was back at its level for 3 s,
        // then a final window of 4,123 made that window the "end of the dip" and left nothing after it).
        var last = first
        while ducked.contains(last + 1) { last += 1 }
        #expect(ducked.count >= 10, "ducked for the phrase, at least half a second: \(ducked.count) windows")
        let depths = ducked.map { levels[$0] }.sorted()
        let depth = 20 * log10(depths[depths.count / 2] / before)
        #expect(abs(depth + 15) <= 1, "ducked by \(depth) dB, configured -15: \(levels[first...last].map { Int($0) })")
        let after = levels[min(levels.count - 1, last + 8)...].filter { $0 > before * 0.5 }.sorted()
        #expect(after.count >= 4, "the music comes back: \(levels.map { Int($0) })")
        let back = after.isEmpty ? -99 : 20 * log10(after[after.count * 3 / 4] / before)
        #expect(abs(back) <= 0.5, "the music returns at its level: \(back) dB")
    }

    @Test func whilePausedThePhraseIsEspeakNgsOwnAtTheCappedLevelAndThePlayerStaysPaused() throws {
        let daemon = try DaemonHarness()
        let library = try Self.toneLibrary(daemon.directory, name: "Quiet Song", frequency: 60, amplitude: 0)
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        let recording = daemon.directory.appending("heard.raw")
        try sink.record(to: recording)
        let fifo = daemon.directory.appending("buttons.fifo").path
        // At a cap of 12 the voice is at step 12 (-16 dB) however loud it is asked to be.
        try daemon.start(
            device: "paced", arguments: ["--board", "qemu", "--volume", "12", "--max-volume", "12"],
            environment: sink.environment.merging(["SHUFFLEBOX_BUTTON_FIFO": fifo]) { $1 })
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        let press = { (lines: String) in try DaemonHarness.press(lines, fifo: fifo) }
        try press("0 play press\n60 play release\n")
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" }, "\(daemon.log)")
        // A new stick was announced ("Loading music", "1 song"): let that be said first.
        let heard = HeardAudio(file: recording)
        #expect(heard.waitForSilence(quietMilliseconds: 800, seconds: 10))
        let position = try daemon.status()["positionMs"] as? Int
        let start = (try FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0
        try press(Self.holdPlay)
        #expect(heard.waitForSound(milliseconds: 300, seconds: 8), "the phrase is heard: \(daemon.log)")
        #expect(heard.waitForSilence(quietMilliseconds: 500, seconds: 8))
        #expect(daemon.state() == "paused", "speech does not unpause")
        #expect(try daemon.status()["positionMs"] as? Int == position, "nor move the position")
        #expect(daemon.stop() == 0)

        let left = try Self.left(recording, from: start)
        let first = try #require(left.firstIndex { abs(Int($0)) > 30 })
        let end = try #require(left.lastIndex { abs(Int($0)) > 30 })
        // At 44.1 kHz from espeak-ng's 22,050: every other sample is one of the phrase's own.
        let spoken = stride(from: first, through: end, by: 2).map { left[$0] }
        let reference = try SpeechReference.espeak("Quiet Song", voice: "en")
        let gain = VolumeScale(steps: 20, cap: 12).gain(12)
        let scaled = spoken.map { Int16(clamping: Int((Double($0) / gain).rounded())) }
        let score = SpeechComparison.correlation(scaled, reference)
        #expect(score > 0.9, "the phrase is espeak-ng's 'Quiet Song': correlation \(score)")
        // Energy, not RMS: the two differ in the silence around the words.
        let level = 10 * log10(SpeechReference.energy(spoken) / SpeechReference.energy(reference))
        #expect(abs(level - 20 * log10(gain)) <= 1, "spoken at \(level) dB, the cap is \(20 * log10(gain)) dB")
    }
}

/// `shufflebox say` into ALSA's file PCM: espeak-ng's rendering of the words, at the asked level.
@Suite(.enabled(if: ExternalTool.find("espeak-ng") != nil, "needs espeak-ng"))
struct SayCommandTests {
    @Test(arguments: [20, 10])
    func sayWritesThePhraseToTheDeviceAtTheAskedLevel(_ volume: Int) throws {
        let directory = try TemporaryDirectory()
        let capture = directory.appending("said.raw")
        let result = try Run.shufflebox(
            ["say", "Maximum", "volume", "--device", ALSATestDevices.capture, "--volume", String(volume)],
            environment: ALSATestDevices.captureEnvironment(file: capture))
        #expect(result.status == 0, "\(result.stderr)")
        let said = SpeechReference.samples([UInt8](try Data(contentsOf: capture)))
        let reference = try SpeechReference.espeak("Maximum volume", voice: "en")
        let gain = VolumeScale().gain(volume)
        let score = SpeechComparison.correlation(said.map { Int16(clamping: Int(Double($0) / gain)) }, reference)
        #expect(score > 0.95, "correlation \(score)")
        let level = 10 * log10(SpeechReference.energy(said) / SpeechReference.energy(reference))
        #expect(abs(level - 20 * log10(gain)) <= 0.5, "\(level) dB for step \(volume)")
    }

    @Test func withoutWordsOrWithABadDeviceItSaysWhatIsWrong() throws {
        let empty = try Run.shufflebox(["say"])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("say needs the words to say"))
        let bad = try Run.shufflebox(["say", "hello", "--device", "no_such_pcm"])
        #expect(bad.status == 69)
        #expect(bad.stderr.contains("cannot play on ALSA device 'no_such_pcm'"), "\(bad.stderr)")
    }
}

/// `shufflebox buttons --speak`: the wiring check you can hear says the button, its wire and the gesture.
@Suite(.enabled(if: ExternalTool.find("espeak-ng") != nil, "needs espeak-ng"))
struct ButtonsSpeakTests {
    @Test func aReplayedClickIsSaidWithItsButtonAndWire() throws {
        let directory = try TemporaryDirectory()
        let script = directory.appending("click.txt")
        try "0 play press\n60 play release\n".write(to: script, atomically: true, encoding: .utf8)
        let capture = directory.appending("said.raw")
        let result = try Run.shufflebox(
            ["buttons", "--board", "qemu", "--script", script.path, "--speak", "--device", ALSATestDevices.capture],
            environment: ALSATestDevices.captureEnvironment(file: capture))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("click"))
        let said = SpeechReference.samples([UInt8](try Data(contentsOf: capture)))
        let gain = VolumeScale().gain(14)
        let heard = said.map { Int16(clamping: Int(Double($0) / gain)) }
        // The qemu board's play button is gpio-sim line 0, with no header pin.
        let right = SpeechComparison.correlation(heard, try SpeechReference.espeak("play, GPIO 0, click", voice: "en"))
        let wrong = SpeechComparison.correlation(heard, try SpeechReference.espeak("next, GPIO 1, click", voice: "en"))
        #expect(right > 0.95, "correlation with its own words \(right)")
        #expect(wrong < right, "and less with another button's \(wrong)")
    }
}
