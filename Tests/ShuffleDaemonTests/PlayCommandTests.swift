import Foundation
import ShuffleCore
import ShuffleDaemon
import ShuffleTestSupport
import Testing

/// `shufflebox play` end to end: the real binary, real MP3s from `tools/make-testlib`, a real SQLite file and
/// ALSA's `file` PCM (or a paced PulseAudio sink where time must pass).
@Suite(.serialized) struct PlayCommandTests {
    let folder: TemporaryDirectory
    let library: URL
    let database: String
    let capture: URL
    let environment: [String: String]

    init() throws {
        folder = try TemporaryDirectory(prefix: "shufflebox-play")
        library = folder.appending("library")
        database = folder.appending("library.db").path
        capture = folder.appending("capture.raw")
        // The project's own capture device (tests/alsa/capture.conf): the file PCM writes what was played.
        environment = ALSATestDevices.captureEnvironment(file: capture)
    }

    func play(_ extra: [String], database: String? = nil) throws -> Run.Result {
        try Run.shufflebox(
            ["play", library.path, "--db", database ?? self.database, "--device", "capture"] + extra,
            environment: environment)
    }

    /// A paced sink recording what it plays into the returned file, and the `play` arguments (with `seed`)
    /// and environment (info log, for "resuming track N at M ms") that play the library on it.
    /// Waits (at most 20 s) until the paced sink has heard `milliseconds` of sound in `recording` (its own
    /// clock: it falls behind the wall clock on a busy machine). Every 100 ms: each look reads the whole file.
    static func waitUntilHeard(_ recording: URL, milliseconds: Int) async throws -> Bool {
        try await poll(seconds: 20, every: .milliseconds(100)) {
            PacedSink.heardFrames(in: recording) * 1000 / 44_100 >= milliseconds
        }
    }

    /// Waits (at most 5 s) until the sink has recorded `milliseconds` more, sound or silence: what a player that
    /// just ended had still in flight has reached the recording by then.
    static func waitForTail(_ recording: URL, milliseconds: Int = 300) async throws {
        let end = DaemonHarness.size(of: recording) + milliseconds * 44_100 / 1000 * 4
        _ = try await poll(seconds: 5) { DaemonHarness.size(of: recording) >= end }
    }

    /// `DaemonHarness.wait` for async tests: polls `condition` (every 20 ms unless told) for up to `seconds`
    /// without holding a thread of the cooperative pool.
    static func poll(
        seconds: Double, every interval: Duration = .milliseconds(20), until condition: () -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: interval)
        }
        return condition()
    }

    func pacedPlay(seed: Int) throws -> (
        sink: PacedSink, recording: URL, arguments: [String], environment: [String: String]
    ) {
        let sink = try PacedSink(directory: folder.appending("paced"))
        let recording = folder.appending("heard.raw")
        do {
            try sink.record(to: recording)
        } catch {
            try? sink.stop()
            throw error
        }
        let env = environment.merging(sink.environment) { $1 }.merging(["SHUFFLEBOX_LOG": "info"]) { $1 }
        return (
            sink, recording, ["play", library.path, "--db", database, "--device", "paced", "--seed", "\(seed)"], env
        )
    }

    /// The line the player prints for a manifest row.
    func displayLine(_ row: ManifestRow) -> String {
        if let artist = row.artist, !artist.isEmpty, let title = row.title, !title.isEmpty {
            return "\(artist) - \(title)"
        }
        return row.path.display
    }

    @Test func playOnceWritesExactlyTheDecodedFramesOfASameFormatLibrary() throws {
        defer { folder.remove() }
        let manifest = try TestLibrary.generate(at: library, tracks: 7, formats: .same, broken: 0, extras: false)
        let result = try play(["--once", "--seed", "4", "--volume", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = manifest.playable.compactMap(\.samples).reduce(0, +)
        let written = (try? Data(contentsOf: capture).count) ?? -1
        #expect(written == Int(frames) * 4, "44.1 kHz stereo S16: 4 bytes a frame, nothing lost or added")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.sorted() == manifest.playable.map(displayLine).sorted())
    }

    /// `--mixer` names a hardware volume control; where the card has none (no card at all here) the player
    /// says so and plays with software volume, every frame still there.
    @Test func aMixerControlThatIsNotThereFallsBackToSoftwareVolume() throws {
        defer { folder.remove() }
        let manifest = try TestLibrary.generate(at: library, tracks: 3, formats: .same, broken: 0, extras: false)
        let result = try play(["--once", "--seed", "2", "--volume", "20", "--mixer", "PCM"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("hardware volume control 'PCM'"))
        #expect(result.stderr.contains("using software volume"))
        let frames = manifest.playable.compactMap(\.samples).reduce(0, +)
        #expect((try? Data(contentsOf: capture).count) == Int(frames) * 4)
    }

    @Test func aMixedLibraryWithBrokenFilesPlaysEveryPlayableTrackOnceAndSkipsTheRest() throws {
        defer { folder.remove() }
        let manifest = try TestLibrary.generate(at: library, tracks: 12, seed: 5, formats: .mixed, broken: 6)
        let result = try play(["--once", "--seed", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == manifest.playable.count)
        #expect(lines.sorted() == manifest.playable.map(displayLine).sorted())
    }

    /// A stick of every format, indexed and played end to end: every playable track of every format once
    /// per cycle (the decoder for each is chosen by the file's content).
    @Test(.enabled(if: ExternalTool.allFormatTools, "needs flac, vorbis-tools, opus-tools, ffmpeg"))
    func anEveryFormatLibraryPlaysEveryTrackOfEveryFormat() throws {
        defer { folder.remove() }
        let manifest = try TestLibrary.generate(
            at: library, tracks: 24, seed: 3, formats: .all, broken: 0, extras: false, seconds: 0.2)
        let result = try play(["--once", "--seed", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let formats = Set(manifest.playable.compactMap(\.codec))
        #expect(formats.count >= 7, "the library holds every format: \(formats.sorted())")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.sorted() == manifest.playable.map(displayLine).sorted())
    }

    @Test func theSameSeedGivesTheSameOrderAndEachTrackOncePerCycle() throws {
        defer { folder.remove() }
        let manifest = try TestLibrary.generate(
            at: library, tracks: 9, formats: .same, broken: 0, extras: false, seconds: 0.3)
        let first = try play(["--once", "--seed", "77"], database: folder.appending("a.db").path)
        let second = try play(["--once", "--seed", "77"], database: folder.appending("b.db").path)
        let other = try play(["--once", "--seed", "78"], database: folder.appending("c.db").path)
        #expect(first.status == 0 && second.status == 0 && other.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout != other.stdout)
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.sorted() == manifest.playable.map(displayLine).sorted())
        // The next run on the same database begins a new cycle: every track once again.
        let next = try play(["--once"], database: folder.appending("a.db").path)
        #expect(next.stdout.split(separator: "\n").map(String.init).sorted() == lines.sorted())
        let nextFirst = next.stdout.split(separator: "\n").first.map(String.init)
        #expect(nextFirst != lines.last, "a cycle never begins with the last track")
    }

    /// `play` plays a stick's music: the songs once each, and none of its stories (a folder of audiobook parts,
    /// an `.m4b`, and a folder its `shufflebox.txt` marks).
    @Test(.enabled(if: StoryStick.isAvailable, "needs ffmpeg (apt-get install ffmpeg)"))
    func playOncePlaysEverySongAndNoStory() throws {
        defer { folder.remove() }
        try StoryStick.make(at: library, seconds: 0.3)
        let result = try play(["--once", "--seed", "9"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let songs = StoryStick.songs.map {
            "Band - " + URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent
        }
        #expect(lines.sorted() == songs.sorted())
        // What was heard is five songs' worth (0.3 s each), not the seventeen stories' besides.
        let frames = ((try? Data(contentsOf: capture).count) ?? 0) / 4
        #expect(frames >= 5 * 13_000 && frames <= 5 * 14_000, "\(frames) frames")
    }

    @Test func aFolderWithoutPlayableTracksExitsNonZeroWithAClearMessage() throws {
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try Data("not audio".utf8).write(to: library.appendingPathComponent("song.mp3"))
        let result = try play(["--once"])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("nothing to play"))
    }

    @Test func aDeviceThatCannotBeOpenedEndsOnceWithANonZeroStatus() throws {
        defer { folder.remove() }
        try TestLibrary.generate(at: library, tracks: 2, formats: .same, broken: 0, extras: false, seconds: 0.3)
        let result = try Run.shufflebox(
            ["play", library.path, "--db", database, "--device", "no_such_device", "--once"], environment: environment)
        #expect(result.status == ExitCode.unavailable)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no_such_device"))
    }

    @Test(.enabled(if: PacedSink.isAvailable, "needs pulseaudio for a device that keeps real time"))
    func afterKillNineTheNextStartContinuesTheSameTrackNearWhereItWas() async throws {
        defer { folder.remove() }
        try TestLibrary.generate(at: library, tracks: 4, formats: .same, broken: 0, extras: false, seconds: 12)
        let (sink, recording, arguments, env) = try pacedPlay(seed: 3)
        defer { try? sink.stop() }

        let first = try PlayerProcess(arguments, environment: env)
        #expect(try await first.waitForLines(1))
        #expect(try await Self.waitUntilHeard(recording, milliseconds: 5_500))
        #expect(first.stop(with: SIGKILL) == 128 + SIGKILL)
        try await Self.waitForTail(recording)
        // Where it was: the audio the sink actually played (the paced sink can fall behind the wall clock
        // on a busy machine, so the recording, not elapsed time, says how far the listener got).
        let heardMs = Int64(PacedSink.heardFrames(in: recording)) * 1000 / 44_100
        let killedOn = try #require(first.lines.last)
        #expect(first.lines.count == 1, "still in the first track (12 s long)")

        let second = try PlayerProcess(arguments, environment: env)
        #expect(try await second.waitForLines(1))
        #expect(second.lines.first == killedOn, "the same track")
        #expect(second.stop(with: SIGTERM) == 0, "SIGTERM saves and exits cleanly")
        let resumed = try #require(Self.resumePosition(in: second.stderr), "\(second.stderr)")
        #expect(heardMs > 1_000, "the first run was heard for a while")
        #expect(abs(resumed - heardMs) < 5_000, "resumed at \(resumed) ms, heard up to \(heardMs) ms")
    }

    @Test(.enabled(if: PacedSink.isAvailable, "needs pulseaudio for a device that keeps real time"))
    func quitWithTheKeySavesAndARestartContinuesTheStoredOrder() async throws {
        defer { folder.remove() }
        let manifest = try TestLibrary.generate(
            at: library, tracks: 5, formats: .same, broken: 0, extras: false, seconds: 0.6)
        let sink = try PacedSink(directory: folder.appending("paced"))
        defer { try? sink.stop() }
        let env = environment.merging(sink.environment) { $1 }
        let first = try PlayerProcess(
            ["play", library.path, "--db", database, "--device", "paced", "--seed", "9"], environment: env)
        #expect(try await first.waitForLines(2))
        first.type("q")
        #expect(first.stop(with: 0) == 0)
        let before = first.lines
        // The rest of the cycle, from the track that was playing, then the end of the cycle.
        let rest = try play(["--once"])
        let after = rest.stdout.split(separator: "\n").map(String.init)
        #expect(after.first == before.last)
        #expect(
            (before.dropLast() + after).sorted() == manifest.playable.map(displayLine).sorted(),
            "before quit: \(before), after: \(after)")
    }

    @Test(.enabled(if: PacedSink.isAvailable, "needs pulseaudio for a device that keeps real time"))
    func seekKeysMoveWithinTheTrackAndTheResumePointFollows() async throws {
        defer { folder.remove() }
        try TestLibrary.generate(at: library, tracks: 2, formats: .same, broken: 0, extras: false, seconds: 30)
        let (sink, recording, arguments, env) = try pacedPlay(seed: 5)
        defer { try? sink.stop() }

        let first = try PlayerProcess(arguments, environment: env)
        #expect(try await first.waitForLines(1))
        #expect(try await Self.waitUntilHeard(recording, milliseconds: 1_000))
        first.type("..")  // 5 s forward, twice
        #expect(try await Self.waitUntilHeard(recording, milliseconds: 1_700))
        first.type(",")  // 5 s back
        #expect(try await Self.waitUntilHeard(recording, milliseconds: 2_400))
        #expect(first.stop(with: SIGTERM) == 0)
        try await Self.waitForTail(recording)
        #expect(first.lines.count == 1, "a seek within the track prints no second line: \(first.lines)")
        let heardMs = Int64(PacedSink.heardFrames(in: recording)) * 1000 / 44_100

        let second = try PlayerProcess(arguments, environment: env)
        #expect(try await second.waitForLines(1))
        #expect(second.lines.first == first.lines.first, "the same track")
        #expect(second.stop(with: SIGTERM) == 0)
        let resumed = try #require(Self.resumePosition(in: second.stderr), "\(second.stderr)")
        // Heard about 2.4 s of audio, but 5 s further on than that: +10 s, then -5 s. Each seek drops what
        // was still buffered, hence the margin.
        #expect(heardMs > 1_500, "heard \(heardMs) ms")
        #expect(abs(resumed - (heardMs + 5_000)) < 1_500, "resumed at \(resumed) ms, heard \(heardMs) ms")
    }

    /// The position in "resuming track N at M ms" from the info log.
    static func resumePosition(in stderr: String) -> Int64? {
        guard let range = stderr.range(of: #"resuming track \d+ at (\d+) ms"#, options: .regularExpression) else {
            return nil
        }
        let words = stderr[range].split(separator: " ")
        return words.count >= 5 ? Int64(words[4]) : nil
    }
}
