import Foundation
import Playback
import ShuffleCore
import ShuffleTestSupport
import Testing

/// Every format through the real engine, the real decoder libraries and ALSA's `file` PCM, held to the
/// reference command-line decoders' own output (`AudioFixtures`).
@Suite(
    .serialized,
    .enabled(
        if: AudioFixtures.missingTools.isEmpty,
        "needs flac, vorbis-tools, opus-tools and ffmpeg (scripts/install-deps test installs them)"))
struct FormatPlaybackTests {
    let quiet = Log(label: "test", minimum: .error) { _ in }

    /// One file per format and shape: 16 and 24 bits, 44.1 and 48 kHz, mono and stereo.
    static let shapes: [AudioFixtures.Spec] = [
        .init(.flac), .init(.flac, rate: 48_000, channels: 1, bits: 24), .init(.vorbis), .init(.opus),
        .init(.aac), .init(.alac), .init(.alac, rate: 48_000, bits: 24), .init(.wav),
        .init(.wav, rate: 48_000, channels: 1, bits: 24), .init(.aiff, channels: 1), .init(.aiff, bits: 24),
    ]

    @Test(arguments: shapes)
    func eachFormatPlaysExactlyTheReferenceDecodersFrames(_ spec: AudioFixtures.Spec) async throws {
        let folder = try TemporaryDirectory()
        let file = try AudioFixtures.make(spec, in: folder.url, name: "tone")
        let reference = try AudioFixtures.reference(file, spec)
        let played = try await play([file], specs: [spec])
        #expect(played.frames == reference.frames, "\(spec): played \(played.frames), reference \(reference.frames)")
        if spec.format == .aac {
            // The edit list's length: the encoder's input, priming and padding cut.
            #expect(played.frames == spec.frames)
        }
        if spec.format == .opus {
            #expect(played.frames == spec.frames * 48_000 / spec.sampleRate)
        }
        expectSame(played.samples, reference.samples, spec)
    }

    /// A WAV or AIFF coding other programs write, made by FFmpeg from a 16-bit tone.
    struct PCMVariant: Sendable, CustomStringConvertible {
        var name: String
        var fileExtension: String
        var ffmpegArguments: [String]
        /// Whether the player hands it out as 32-bit words (and FFmpeg is asked for `s32le`).
        var wide: Bool
        var description: String { name }
    }

    static let pcmVariants: [PCMVariant] = [
        .init(name: "WAV float", fileExtension: "wav", ffmpegArguments: ["-c:a", "pcm_f32le"], wide: false),
        .init(name: "WAV double", fileExtension: "wav", ffmpegArguments: ["-c:a", "pcm_f64le"], wide: false),
        .init(name: "WAV 8-bit", fileExtension: "wav", ffmpegArguments: ["-c:a", "pcm_u8"], wide: false),
        .init(name: "WAV 32-bit", fileExtension: "wav", ffmpegArguments: ["-c:a", "pcm_s32le"], wide: true),
        .init(name: "RF64", fileExtension: "wav", ffmpegArguments: ["-rf64", "always"], wide: false),
        .init(name: "AIFC sowt", fileExtension: "aiff", ffmpegArguments: ["-c:a", "pcm_s16le"], wide: false),
        .init(name: "AIFF 32-bit", fileExtension: "aiff", ffmpegArguments: ["-c:a", "pcm_s32be"], wide: true),
    ]

    /// libsndfile plays the WAV and AIFF codings FFmpeg writes (floating point, 8 and 32 bits, RF64, AIFC)
    /// sample for sample as FFmpeg's own command line decodes them.
    @Test(arguments: pcmVariants)
    func wavAndAIFFCodingsPlayAsFFmpegDecodesThem(_ variant: PCMVariant) async throws {
        let folder = try TemporaryDirectory()
        let source = try AudioFixtures.make(.init(.wav, seconds: 0.4), in: folder.url, name: "source")
        let file = folder.appending("variant.\(variant.fileExtension)")
        let convert = ["-v", "error", "-y", "-i", source.path] + variant.ffmpegArguments
        try AudioFixtures.tool("ffmpeg", convert + [file.path])
        let decoded = try AudioFixtures.tool(
            "ffmpeg", ["-v", "error", "-i", file.path, "-f", variant.wide ? "s32le" : "s16le", "-"])
        let reference = AudioFixtures.samples(decoded, bytes: variant.wide ? 4 : 2, wide: variant.wide)
        // The spec only tells the player's catalog the shape, and the capture its width.
        let spec = AudioFixtures.Spec(
            variant.fileExtension == "wav" ? .wav : .aiff, bits: variant.wide ? 24 : 16, seconds: 0.4)
        let played = try await play([file], specs: [spec])
        #expect(played.frames == spec.frames, "\(variant): played \(played.frames) of \(spec.frames) frames")
        let firstDifference = zip(played.samples, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        let same = played.samples.count == reference.count && firstDifference == nil
        #expect(same, "\(variant): differs from FFmpeg's decoding from sample \(firstDifference ?? -1)")
    }

    /// Files other programs write oddly (`Tests/MediaProbeTests/Tools/make-odd-files.py`), each a mono tone at
    /// this rate: MP3 in WAV (format tag 0x55, libsndfile decodes it through libmpg123), an audiobook whose
    /// headers claim 47 hours but whose samples last a second, FLAC with a damaged first frame and FLAC cut
    /// short (libFLAC resyncs past the damage and stops at the last whole frame).
    static let oddFiles: [(String, Int)] = [
        ("mp3-in-wav.wav", 44_100), ("claims-47-hours.m4b", 22_050), ("damaged-first-frame.flac", 44_100),
        ("cut-short.flac", 44_100),
    ]

    /// Each plays as many frames as FFmpeg's own command line decodes from it; FLAC as many as the reference
    /// decoder, `flac -d -F`, does (FFmpeg's count past a damaged first frame changed between 5.1 and 7.1).
    @Test(arguments: oddFiles)
    func anOddlyWrittenFilePlaysAsManyFramesAsAReferenceDecoderDecodes(_ name: String, _ rate: Int) async throws {
        let folder = try TemporaryDirectory()
        let script = PackagePaths.root.appendingPathComponent("Tests/MediaProbeTests/Tools/make-odd-files.py")
        let made = try Run.program("/usr/bin/python3", [script.path, folder.path, name])
        #expect(made.status == 0, "\(made.stderr)")
        let file = folder.appending(name)
        // Mono 16-bit out of both: bytes / 2 are frames. flac -F exits non-zero (the MD5 cannot match).
        let decoded =
            name.hasSuffix(".flac")
            ? try Run.program(
                try #require(ExternalTool.find("flac")),
                ["-s", "-d", "-F", "-c", "--force-raw-format", "--endian=little", "--sign=signed", file.path]
            ).stdoutData
            : try AudioFixtures.tool("ffmpeg", ["-v", "quiet", "-i", file.path, "-f", "s16le", "-ac", "1", "-"])
        // The spec only tells the player's catalog the shape.
        let format: AudioFixtures.Format = name.hasSuffix(".wav") ? .wav : name.hasSuffix(".flac") ? .flac : .aac
        let spec = AudioFixtures.Spec(format, rate: rate, channels: 1, seconds: 1)
        let played = try await play([file], specs: [spec])
        #expect(played.frames > 0)
        #expect(
            played.frames == decoded.count / 2,
            "\(name): played \(played.frames), the reference decoder decodes \(decoded.count / 2)")
    }

    /// Older iTunes and many encoders give AAC's gapless trim only as the `iTunSMPB` tag, with no edit list:
    /// FFmpeg cuts the priming it names but would play the padding, a few ms of silence at every join.
    @Test func anAACFileWhoseOnlyTrimIsITunSMPBEndsOnItsLastRealSample() async throws {
        let folder = try TemporaryDirectory()
        let spec = AudioFixtures.Spec(.aac, seconds: 0.9)
        let encoded = try AudioFixtures.make(spec, in: folder.url, name: "tone")
        let file = folder.appending("itunes.m4a")
        let made = try Run.program(
            PackagePaths.root.appendingPathComponent("tools/make-testlib").path,
            ["itunsmpb", encoded.path, file.path, String(spec.frames)])
        #expect(made.status == 0, "\(made.stderr)")
        let played = try await play([file], specs: [spec])
        #expect(played.frames == spec.frames, "played \(played.frames), the tag names \(spec.frames)")
        // FFmpeg's own command line keeps the padding: the file really holds more than the tag's samples.
        #expect(try AudioFixtures.reference(file, spec).frames > spec.frames)
    }

    @Test func tracksOfDifferentFormatsFollowEachOtherGaplesslyFrameForFrame() async throws {
        let specs: [AudioFixtures.Spec] = [
            .init(.flac, seconds: 1.3), .init(.wav, seconds: 0.7), .init(.vorbis, seconds: 1.1),
            .init(.aac, seconds: 0.9), .init(.alac, seconds: 0.5), .init(.aiff, seconds: 0.6),
        ]
        let folder = try TemporaryDirectory()
        var files: [URL] = []
        var expected: [Int32] = []
        for (index, spec) in specs.enumerated() {
            let file = try AudioFixtures.make(spec, in: folder.url, name: "part\(index)")
            files.append(file)
            expected += try AudioFixtures.reference(file, spec).samples
        }
        let played = try await play(files, specs: specs)
        #expect(played.frames == expected.count / 2, "the sum of the reference counts, nothing lost or added")
        expectSame(played.samples, expected, .init(.aac))
    }

    /// Resume (the stored position) lands on the sample asked for in every format.
    @Test(arguments: shapes)
    func resumeLandsOnTheAskedSample(_ spec: AudioFixtures.Spec) async throws {
        let folder = try TemporaryDirectory()
        let file = try AudioFixtures.make(spec, in: folder.url, name: "tone")
        let reference = try AudioFixtures.reference(file, spec)
        let positionMs: Int64 = 1_250
        let played = try await play([file], specs: [spec], positionMs: positionMs)
        let skipped = Int(positionMs) * spec.decodedRate / 1000
        #expect(played.frames == reference.frames - skipped, "\(spec)")
        expectSame(played.samples, Array(reference.samples.dropFirst(skipped * spec.channels)), spec, seeked: true)
    }

    @Test func a24BitFileReachesAnS32DeviceWithAllItsBitsAndSoftwareVolumeKeepsThem() async throws {
        let specs: [AudioFixtures.Spec] = [
            .init(.flac, bits: 24, seconds: 0.5), .init(.wav, bits: 24, seconds: 0.5),
            .init(.alac, bits: 24, seconds: 0.5), .init(.aiff, bits: 24, seconds: 0.5),
        ]
        let folder = try TemporaryDirectory()
        for spec in specs {
            let file = try AudioFixtures.make(spec, in: folder.url, name: "deep-\(spec.format)")
            let reference = try AudioFixtures.reference(file, spec)
            let full = try await play([file], specs: [spec])
            #expect(full.samples == reference.samples, "\(spec): bit for bit at full volume")
            #expect(full.samples.contains { $0 & 0xFF00 != 0 }, "\(spec): bits below the top 16 arrive")
            // Volume step 14 (-12 dB): the product keeps 32 bits.
            let scale = VolumeScale()
            let gain = Int64((scale.gain(14) * Double(1 << 24)).rounded())
            let quieter = try await play([file], specs: [spec], volume: 14)
            let expected = reference.samples.map { Int32(truncatingIfNeeded: (Int64($0) * gain) >> 24) }
            #expect(quieter.samples == expected, "\(spec): volume applied in 32 bits")
            #expect(quieter.samples.contains { $0 & 0xFF != 0 }, "\(spec): nothing rounded away to 24 bits")
        }
    }

    @Test func aDeviceOfOnly16BitsGetsADeepFileRoundedToTheNearestValue() async throws {
        let spec = AudioFixtures.Spec(.flac, bits: 24, seconds: 0.5)
        let folder = try TemporaryDirectory()
        let file = try AudioFixtures.make(spec, in: folder.url, name: "deep")
        let reference = try AudioFixtures.reference(file, spec)
        let played = try await play([file], specs: [spec], formats: [.s16])
        let rounded = reference.samples.map { Int32(min((Int64($0) + 0x8000) >> 16, Int64(Int16.max))) }
        #expect(played.samples == rounded)
        let truncated = reference.samples.map { $0 >> 16 }
        #expect(played.samples != truncated, "rounded, not truncated")
    }

    @Test func anS24DeviceGetsTheLow24BitsOfEachWordExactly() async throws {
        let spec = AudioFixtures.Spec(.wav, rate: 48_000, bits: 24, seconds: 0.5)
        let folder = try TemporaryDirectory()
        let file = try AudioFixtures.make(spec, in: folder.url, name: "deep")
        let reference = try AudioFixtures.reference(file, spec)
        let played = try await play([file], specs: [spec], formats: [.s24])
        #expect(played.samples == reference.samples.map { $0 >> 8 }, "S24_LE: the 24 bits, right-justified")
    }

    /// A change of rate, channels and depth between tracks drains the device and sets it up again (the file
    /// PCM starts a new file when opened again, so the capture holds the second track alone): every frame of
    /// the second track arrives, in its own format.
    @Test func aChangeOfRateChannelsAndDepthBetweenTracksSetsTheDeviceUpAgainAndLosesNothing() async throws {
        let first = AudioFixtures.Spec(.flac, rate: 48_000, channels: 1, bits: 24, seconds: 0.6)
        let second = AudioFixtures.Spec(.wav, seconds: 0.8)
        let folder = try TemporaryDirectory()
        let one = try AudioFixtures.make(first, in: folder.url, name: "one")
        let two = try AudioFixtures.make(second, in: folder.url, name: "two")
        let reference = try AudioFixtures.reference(two, second)
        let tracks = catalogTracks([one, two], [first, second])
        let catalog = InMemoryCatalog(
            tracks: tracks, state: PlaybackState(order: tracks.map(\.id), cursor: 0, positionMs: 0, volume: 20, paused: false))
        let capture = CaptureFile()
        defer { capture.remove() }
        let heard = Announcements()
        let engine = PlaybackEngine(
            catalog: catalog, configuration: PlaybackConfiguration(device: capture.device, volume: 20, once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: heard.append)
        _ = try await engine.run()
        #expect(heard.ids == tracks.map(\.id))
        #expect(AudioFixtures.samples(capture.bytes(), bytes: 2, wide: false) == reference.samples)
    }

    @Test func brokenFilesOfEveryFormatFailWithTheirPathAndTheRestPlays() async throws {
        let good = AudioFixtures.Spec(.flac, seconds: 0.3)
        let formats: [AudioFixtures.Format] = [.flac, .vorbis, .opus, .aac, .alac, .wav, .aiff]
        let folder = try TemporaryDirectory()
        var files: [URL] = []
        var specs: [AudioFixtures.Spec] = []
        for format in formats {
            let whole = try AudioFixtures.make(.init(format, seconds: 0.5), in: folder.url, name: "whole-\(format)")
            let bytes = try Data(contentsOf: whole)
            // Cut inside the header: the magic is there, the stream is not.
            let cut = folder.url.appendingPathComponent("cut-\(format).\(format.fileExtension)")
            try bytes.prefix(format == .aac || format == .alac ? 40 : 30).write(to: cut)
            files.append(cut)
            specs.append(.init(format))
            // The right magic followed by noise.
            var noise = Data(bytes.prefix(12))
            var seed: UInt32 = 99
            for _ in 0..<20_000 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                noise.append(UInt8(truncatingIfNeeded: seed >> 24))
            }
            let garbage = folder.url.appendingPathComponent("garbage-\(format).\(format.fileExtension)")
            try noise.write(to: garbage)
            files.append(garbage)
            specs.append(.init(format))
        }
        let goodFile = try AudioFixtures.make(good, in: folder.url, name: "good")
        files.append(goodFile)
        specs.append(good)
        let tracks = catalogTracks(files, specs)
        let catalog = InMemoryCatalog(tracks: tracks)
        let capture = CaptureFile()
        defer { capture.remove() }
        let engine = PlaybackEngine(
            catalog: catalog, configuration: PlaybackConfiguration(device: capture.device, seed: 1, once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: { _, _ in })
        _ = try await engine.run()
        let marked = await catalog.unplayable
        let goodID = tracks.last!.id
        #expect(!marked.contains { $0.0 == goodID }, "the good file played")
        for (id, reason) in marked {
            let path = tracks.first { $0.id == id }!.path.display
            #expect(reason.contains(path), "the reason names the file: \(reason)")
        }
        // Every cut file is marked (nothing decodable in it); noise after a magic may decode a little in a
        // lossy format's resync, but never crashes and never plays long.
        let cutIDs = tracks.filter { $0.relativePath.display.hasPrefix("cut-") }.map(\.id)
        #expect(Set(cutIDs).isSubset(of: Set(marked.map(\.0))), "\(marked.map(\.1))")
    }

    // MARK: - Helpers

    struct Played {
        var samples: [Int32]
        var channels: Int
        var frames: Int { samples.count / channels }
    }

    private func catalogTracks(_ files: [URL], _ specs: [AudioFixtures.Spec]) -> [CatalogTrack] {
        files.enumerated().map { index, file in
            let spec = specs[index]
            return CatalogTrack(
                id: TrackID(Int64(index + 1)), path: PathBytes(file.path),
                relativePath: PathBytes(file.lastPathComponent), tags: TagInfo(title: nil, artist: nil),
                stream: StreamInfo(
                    codec: spec.format.rawValue, sampleRate: spec.decodedRate, channels: spec.channels,
                    frames: Int64(spec.frames)))
        }
    }

    /// Plays `files` in this order (from `positionMs` into the first) into a capture file and reads it back.
    private func play(
        _ files: [URL], specs: [AudioFixtures.Spec], positionMs: Int64 = 0, volume: Int = 20,
        formats: [OutputSampleFormat] = []
    ) async throws -> Played {
        let tracks = catalogTracks(files, specs)
        let state = PlaybackState(order: tracks.map(\.id), cursor: 0, positionMs: positionMs, volume: volume, paused: false)
        let catalog = InMemoryCatalog(tracks: tracks, state: state)
        let capture = CaptureFile()
        defer { capture.remove() }
        var configuration = PlaybackConfiguration(device: capture.device, volume: volume, once: true)
        configuration.sampleFormats = formats
        let engine = PlaybackEngine(
            catalog: catalog, configuration: configuration, sleeper: RecordingSleeper(), log: quiet,
            announce: { _, _ in })
        _ = try await engine.run()
        let marked = await catalog.unplayable
        #expect(marked.isEmpty, "\(marked)")
        let wide = specs.contains { $0.isWide && $0.format.isLossless } && formats != [.s16]
        let samples = AudioFixtures.samples(capture.bytes(), bytes: wide ? 4 : 2, wide: wide)
        return Played(samples: samples, channels: specs[0].channels)
    }

    /// Lossless formats and Vorbis (libvorbisfile is what `oggdec` uses) match sample for sample; AAC from its
    /// start within one step (the same float decoder, rounded the same way). Opus (`opusdec` and libopusfile
    /// dither differently) and AAC after a seek (its noise substitution draws from a generator that a seek
    /// restarts) are held to the same audio at the same place: no shift of up to 2,048 frames fits better, and
    /// the difference is under 3 % of the signal.
    private func expectSame(_ played: [Int32], _ reference: [Int32], _ spec: AudioFixtures.Spec, seeked: Bool = false) {
        guard played.count == reference.count else {
            Issue.record("\(spec): \(played.count) samples played, \(reference.count) in the reference")
            return
        }
        switch spec.format {
        case .opus:
            expectAligned(played, reference, spec)
        case .aac where seeked:
            expectAligned(played, reference, spec)
        case .aac:
            let worst = zip(played, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(spec): largest difference \(worst)")
        default:
            if played != reference {
                let first = played.indices.first { played[$0] != reference[$0] } ?? 0
                Issue.record("\(spec): differs first at sample \(first): \(played[first]) vs \(reference[first])")
            }
        }
    }

    private func expectAligned(_ played: [Int32], _ reference: [Int32], _ spec: AudioFixtures.Spec) {
        let channels = spec.channels
        let window = stride(from: 4_096 * channels, to: min(played.count, 4_096 * channels + 8_000), by: 3)
        func error(lag: Int) -> Int {
            window.reduce(0) { sum, index in
                let other = index + lag * channels
                guard other >= 0 && other < reference.count else { return sum + 40_000 }
                return sum + abs(Int(played[index]) - Int(reference[other]))
            }
        }
        let atZero = error(lag: 0)
        let signal = window.reduce(0) { $0 + abs(Int(reference[$1])) }
        #expect(atZero * 100 < signal * 3, "\(spec): difference \(atZero) against signal \(signal)")
        let better = stride(from: -2_048, through: 2_048, by: 1).first { $0 != 0 && error(lag: $0) < atZero }
        #expect(better == nil, "\(spec): shifted by \(better ?? 0) frames fits better")
    }
}
