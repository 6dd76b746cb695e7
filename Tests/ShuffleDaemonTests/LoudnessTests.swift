import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

/// Even loudness end to end: real FLAC files, the real binary (`index --measure-loudness`, then `play` into
/// ALSA's file PCM), and FFmpeg's `ebur128` filter as the independent yardstick of what was played.
@Suite(
    .serialized,
    .enabled(if: ExternalTool.find("flac") != nil && ExternalTool.find("ffmpeg") != nil, "needs flac and ffmpeg"))
struct LoudnessTests {
    let folder: TemporaryDirectory
    let library: URL
    let database: String
    let capture: URL
    static let rate = 44_100
    static let seconds = 8

    init() throws {
        folder = try TemporaryDirectory(prefix: "shufflebox-loudness")
        library = folder.appending("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        database = folder.appending("library.db").path
        capture = folder.appending("capture.raw")
    }

    /// A FLAC of the house tone (`AudioFixtures.tone`, about −7 dBFS peaks) scaled by `decibels`, with `tags`
    /// (`NAME=VALUE` Vorbis comments).
    func track(_ name: String, decibels: Double, tags: [String] = []) throws -> URL {
        let frames = Self.rate * Self.seconds
        let factor = pow(10, decibels / 20)
        let tone = AudioFixtures.tone(frames: frames, channels: 2, bits: 16, rate: Self.rate)
            .map { Int32((Double($0) * factor).rounded()) }
        let wav = folder.appending("\(name).wav")
        try AudioFixtures.writeWAV(tone, rate: Self.rate, channels: 2, bits: 16, to: wav)
        let flac = library.appendingPathComponent("\(name).flac")
        let result = try Run.program(
            ExternalTool.find("flac")!, ["-s", "-f"] + tags.map { "-T" + $0 } + ["-o", flac.path, wav.path])
        #expect(result.status == 0, "\(result.stderr)")
        return flac
    }

    func play(_ extra: [String] = []) throws -> Run.Result {
        try? FileManager.default.removeItem(at: capture)
        return try Run.shufflebox(
            ["play", library.path, "--db", database, "--device", "capture", "--once", "--seed", "3", "--volume", "20"]
                + extra,
            environment: ALSATestDevices.captureEnvironment(file: capture).merging(["SHUFFLEBOX_LOG": "trace"]) { $1 })
    }

    /// The integrated loudness (LUFS) FFmpeg's `ebur128` filter finds in `file` (raw 16-bit stereo at 44.1 kHz
    /// when `raw`, else any file FFmpeg reads).
    static func ffmpegLoudness(_ file: URL, raw: Bool) throws -> Double {
        let input = raw ? ["-f", "s16le", "-ar", "\(rate)", "-ac", "2", "-i", file.path] : ["-i", file.path]
        let result = try Run.program(
            ExternalTool.find("ffmpeg")!, ["-nostats", "-hide_banner"] + input + ["-af", "ebur128", "-f", "null", "-"])
        // The summary's "I:         -18.0 LUFS" line comes last.
        guard let line = result.stderr.split(separator: "\n").last(where: { $0.contains("I:") && $0.contains("LUFS") }),
            let value = line.split(separator: " ").compactMap({ Double($0) }).first
        else { throw TestSupportError("no loudness in ffmpeg's output: \(result.stderr.suffix(400))") }
        return value
    }

    /// The played capture cut into its tracks (each `seconds` long, in play order), each measured by FFmpeg.
    func playedLoudness(tracks: Int) throws -> [Double] {
        let data = try Data(contentsOf: capture)
        let bytesPerTrack = Self.rate * Self.seconds * 4
        #expect(data.count == bytesPerTrack * tracks, "every frame of every track, nothing else")
        return try (0..<tracks).map { index in
            let part = folder.appending("part\(index).raw")
            try data.subdata(in: (index * bytesPerTrack)..<min(data.count, (index + 1) * bytesPerTrack)).write(to: part)
            return try Self.ffmpegLoudness(part, raw: true)
        }
    }

    @Test func twoTracksMastered12DecibelsApartPlayWithin1DecibelOnceMeasured() throws {
        defer { folder.remove() }
        _ = try track("loud", decibels: 0)
        _ = try track("quiet", decibels: -12)
        // Not measured yet: both play as mastered, 12 dB apart. With gain on, 'play' would measure while it
        // plays (at idle priority, so a track or none by the time it ends), and the count below would race it.
        let index = try Run.shufflebox(["index", library.path, "--db", database])
        #expect(index.status == 0, "\(index.stderr)")
        let before = try play(["--replay-gain", "off"])
        #expect(before.status == 0, "\(before.stderr)")
        let asMastered = try playedLoudness(tracks: 2)
        #expect(abs(abs(asMastered[0] - asMastered[1]) - 12) < 0.5, "\(asMastered)")

        let measured = try Run.shufflebox(["index", library.path, "--db", database, "--measure-loudness"])
        #expect(measured.status == 0, "\(measured.stderr)")
        #expect(measured.stderr.contains("measured the loudness of 2 tracks"), "\(measured.stderr)")
        let after = try play()
        #expect(after.status == 0, "\(after.stderr)")
        let normalised = try playedLoudness(tracks: 2)
        #expect(abs(normalised[0] - normalised[1]) < 1, "\(normalised)")
        for level in normalised { #expect(abs(level - LoudnessSettings.defaultTarget) < 1, "\(normalised)") }

        // Kept across a rescan of the unchanged files: nothing left to measure.
        let again = try Run.shufflebox(["index", library.path, "--db", database, "--measure-loudness"])
        #expect(again.stderr.contains("measured the loudness of 0 tracks"), "\(again.stderr)")

        // The cap holds in loudness terms: at the cap (step 14, −12 dB) the boosted quiet track is no louder
        // than the target plus the cap's level, just as the loud one.
        let capped = try play(["--max-volume", "14"])
        #expect(capped.status == 0, "\(capped.stderr)")
        for level in try playedLoudness(tracks: 2) {
            #expect(level < LoudnessSettings.defaultTarget - 12 + 1, "\(level)")
        }

        // Off: as mastered again.
        let off = try play(["--replay-gain", "off"])
        #expect(off.status == 0, "\(off.stderr)")
        let unchanged = try playedLoudness(tracks: 2)
        #expect(abs(abs(unchanged[0] - unchanged[1]) - 12) < 0.5, "\(unchanged)")
    }

    @Test func aTrackTaggedWithReplayGainPlaysAtItsTaggedLevel() throws {
        defer { folder.remove() }
        let file = try track(
            "tagged", decibels: 0, tags: ["REPLAYGAIN_TRACK_GAIN=-4.00 dB", "REPLAYGAIN_TRACK_PEAK=0.500000"])
        let mastered = try Self.ffmpegLoudness(file, raw: false)
        let index = try Run.shufflebox(["index", library.path, "--db", database, "--measure-loudness"])
        #expect(
            index.stderr.contains("measured the loudness of 0 tracks"),
            "a tagged track is not measured: \(index.stderr)")
        let result = try play()
        #expect(result.status == 0, "\(result.stderr)")
        let played = try playedLoudness(tracks: 1)[0]
        #expect(abs(played - (mastered - 4)) < 0.3, "mastered \(mastered) LUFS, played \(played) LUFS")
        // The pre-amp adds to it.
        let preamp = try play(["--replay-gain-preamp", "-3"])
        #expect(preamp.status == 0, "\(preamp.stderr)")
        let lowered = try playedLoudness(tracks: 1)[0]
        #expect(abs(lowered - (mastered - 7)) < 0.3, "mastered \(mastered) LUFS, played \(lowered) LUFS")
    }

    /// The daemon measures a new stick's untagged tracks in the background after its index run, while it
    /// plays, and stores them; a stick plugged again finds nothing left to measure.
    @Test(.enabled(if: DaemonHarness.canMount, "needs root to mount a stick"))
    func theDaemonMeasuresAStickInTheBackgroundAfterIndexingIt() throws {
        defer { folder.remove() }
        _ = try track("loud", decibels: 0)
        _ = try track("quiet", decibels: -12)
        _ = try track("tagged", decibels: 0, tags: ["REPLAYGAIN_TRACK_GAIN=-4.00 dB"])
        let daemon = try DaemonHarness()
        try daemon.start()
        defer { daemon.stop() }
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 20) { Self.measured(daemon) == 2 }, "\(daemon.log)")
        #expect(daemon.state() == "playing")
        let query = "SELECT loudness_state, round(loudness_lufs) FROM tracks ORDER BY loudness_lufs"
        let rows = try daemon.sqlite(query).stdout
        #expect(rows == "0|\n1|-22.0\n1|-10.0\n", "the tagged track is not measured: \(rows)")
        try daemon.unplug()
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() != "playing" })
        // Marked: a second measurement would write the tracks' own levels over the mark.
        let marked = try daemon.sqlite("UPDATE tracks SET loudness_lufs = -18 WHERE loudness_state = 1")
        #expect(marked.status == 0, "\(marked.stderr)")
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(
            DaemonHarness.wait(seconds: 10) {
                ((try? daemon.status())?["library"] as? [String: Any])?["indexing"] as? Bool == false
            }, "\(daemon.log)")
        // The pass starts after the index run: half a second after it, a second pass would have measured the
        // two 8 s tracks (seen with the marked tracks set back to unmeasured: both were measured again by then).
        // That nothing is measured can only be waited out.
        usleep(500_000)
        let after = try daemon.sqlite(query).stdout
        #expect(after == "0|\n1|-18.0\n1|-18.0\n", "measured once: \(after)")
    }

    /// How many tracks of the daemon's database have a measured loudness stored.
    static func measured(_ daemon: DaemonHarness) -> Int {
        let count = (try? daemon.sqlite("SELECT count(*) FROM tracks WHERE loudness_state = 1"))?.stdout ?? ""
        return Int(count.dropLast()) ?? 0
    }

    /// The appliance at real time (the paced sink): once its stick is measured, each track is started by its
    /// queue position, heard for a while and paused, and each stretch of the recording is measured by FFmpeg.
    /// The two untagged tracks, mastered 12 dB apart, are heard within 1 dB of each other (at −18 LUFS), and
    /// the tagged one at its mastered level plus its tag.
    @Test(.enabled(if: DaemonHarness.canMount && PacedSink.isAvailable, "needs root and pulseaudio"))
    func onThePacedSinkTheApplianceMakesMeasuredTracksEvenAndTaggedOnesAsTagged() throws {
        defer { folder.remove() }
        let loud = try track("loud", decibels: 0)
        _ = try track("quiet", decibels: -12)
        _ = try track("tagged", decibels: 0, tags: ["REPLAYGAIN_TRACK_GAIN=-4.00 dB", "REPLAYGAIN_TRACK_PEAK=0.5"])
        let mastered = try Self.ffmpegLoudness(loud, raw: false)
        let daemon = try DaemonHarness()
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        let recording = daemon.directory.appending("heard.raw")
        try sink.record(to: recording)
        try daemon.start(device: "paced", arguments: ["--volume", "20"], environment: sink.environment)
        defer { daemon.stop() }
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 20) { Self.measured(daemon) == 2 }, "\(daemon.log)")
        let heard = HeardAudio(file: recording)
        // The track playing when the measurement landed keeps its level until it starts again (a resume is no
        // start): move on, so every track below either starts anew or was started after the measurement.
        #expect(try daemon.mpc(["next"]).status == 0)
        _ = heard.waitForSound()
        #expect(try daemon.mpc(["pause"]).status == 0)
        _ = heard.waitForSilence()
        let order = try daemon.mpc(["playlist", "-f", "%file%"]).stdout.split(separator: "\n").map(String.init)
        var levels: [String: Double] = [:]
        for (index, path) in order.enumerated() {
            let start = Self.size(recording)
            #expect(try daemon.mpc(["play", "\(index + 1)"]).status == 0)
            #expect(heard.waitForSound(milliseconds: 3000, seconds: 10), "\(path) is heard")
            #expect(try daemon.mpc(["pause"]).status == 0)
            _ = heard.waitForSilence()
            let stretch = folder.appending("stretch\(index).raw")
            let data = try Data(contentsOf: recording)
            try data.subdata(in: start..<(data.count / 4 * 4)).write(to: stretch)
            levels[(path as NSString).lastPathComponent] = try Self.ffmpegLoudness(stretch, raw: true)
        }
        let loudLevel = try #require(levels["loud.flac"])
        let quietLevel = try #require(levels["quiet.flac"])
        let taggedLevel = try #require(levels["tagged.flac"])
        #expect(abs(loudLevel - quietLevel) < 1, "\(levels)")
        #expect(abs(loudLevel - LoudnessSettings.defaultTarget) < 1, "\(levels)")
        #expect(abs(taggedLevel - (mastered - 4)) < 1, "mastered \(mastered): \(levels)")
    }

    /// Bytes in `file` so far, rounded down to whole frames.
    static func size(_ file: URL) -> Int {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        return bytes / 4 * 4
    }
}
