import Foundation
import MediaProbe
import ShuffleCore
import ShuffleTestSupport
import Testing

/// Stream shape and playability of hand-built MPEG streams; lengths are the ones libmpg123 1.31
/// decodes (gapless on), and the `mpg123`-backed test below checks that claim on the same bytes.
@Suite struct StreamShapeTests {
    /// The stream info, or nil (recording an issue) when the probe does not say audio.
    func stream(_ bytes: [UInt8], name: String = "s.mp3") -> StreamInfo? {
        guard case .audio(_, let info) = MediaProbe.probe(bytes: bytes, fileName: name) else {
            Issue.record("not audio: \(MediaProbe.probe(bytes: bytes, fileName: name))")
            return nil
        }
        return info
    }

    /// The reason for an unplayable outcome, or nil.
    func reason(_ bytes: [UInt8], name: String = "s.mp3") -> String? {
        if case .unplayable(let reason) = MediaProbe.probe(bytes: bytes, fileName: name) { return reason }
        return nil
    }

    /// Named streams with the frame count libmpg123 decodes from them.
    static let cases: [(String, [UInt8], Int64)] = [
        ("CBR without header: every frame", MP3Builder.frames(20), 20 * 1152),
        ("32 kHz CBR", MP3Builder.frames(35, rate: 32000), 35 * 1152),
        ("MPEG-2 mono", Array((0..<10).map { _ in MP3Builder.mpeg2Frame(mono: true) }.joined()), 10 * 576),
        (
            "Info without LAME: decoder delay only",
            MP3Builder.infoFrame(frames: 20, bytes: 21 * 417) + MP3Builder.frames(20), 20 * 1152 - 529
        ),
        (
            "LAME delay and padding",
            MP3Builder.infoFrame(frames: 20, bytes: 21 * 417, delay: 576, padding: 1200) + MP3Builder.frames(20),
            20 * 1152 - 576 - 1200
        ),
        (
            "LAME padding below 529",
            MP3Builder.infoFrame(frames: 20, bytes: 21 * 417, delay: 576, padding: 100) + MP3Builder.frames(20),
            20 * 1152 - 576 - 529
        ),
        (
            "Xing declaring fewer frames",
            MP3Builder.infoFrame(frames: 10, bytes: 11 * 417, delay: 576, padding: 1000, tag: "Xing")
                + MP3Builder.frames(20), 20 * 1152 - 576 - 1000
        ),
        (
            "VBRI: decoded as an ordinary frame",
            MP3Builder.vbriFrame(frames: 20, bytes: 21 * 417, delay: 1000) + MP3Builder.frames(20), 21 * 1152
        ),
        ("junk before the first frame", [UInt8](repeating: 0x20, count: 300) + MP3Builder.frames(6), 6 * 1152),
        ("junk in the middle", MP3Builder.frames(5) + Array("GARBAGE!".utf8) + MP3Builder.frames(5), 10 * 1152),
        // Cut short: libmpg123 plays every whole frame, and the gapless window ends at the last of them.
        (
            "Info stream cut at 5000 bytes: 10 whole frames",
            Array(
                (MP3Builder.infoFrame(frames: 20, bytes: 21 * 417, delay: 576, padding: 1200) + MP3Builder.frames(20))
                    .prefix(5000)), 10 * 1152 - 576 - 529
        ),
        ("last frame cut by 100 bytes", Array(MP3Builder.frames(10).prefix(10 * 417 - 100)), 9 * 1152),
        (
            "VBRI stream cut at 11 frames",
            Array(
                (MP3Builder.vbriFrame(frames: 20, bytes: 21 * 417, delay: 1000) + MP3Builder.frames(20)).prefix(
                    11 * 417)),
            11 * 1152
        ),
        (
            "tagged stream cut at 2000 bytes",
            MP3Builder.id3v2(major: 4, [("TIT2", MP3Builder.text("T"))]) + Array(MP3Builder.frames(10).prefix(2000)),
            4 * 1152
        ),
        // An over-claiming header: the frames that are there, never the claim.
        (
            "Info claiming 100 times its frames",
            MP3Builder.infoFrame(frames: 2000, bytes: 21 * 417, delay: 576, padding: 1200) + MP3Builder.frames(20),
            20 * 1152 - 576 - 529
        ),
        ("two frames: the second needs no header after it", MP3Builder.frames(2), 2 * 1152),
    ]

    @Test(arguments: 0..<cases.count)
    func measuresTheLengthLibmpg123Decodes(_ index: Int) {
        let (label, bytes, frames) = Self.cases[index]
        let info = stream(bytes)
        #expect(info?.frames == frames, "\(label)")
        #expect(info?.sampleRate == (label.contains("32 kHz") ? 32000 : label.contains("MPEG-2") ? 22050 : 44100))
        #expect(info?.channels == (label.contains("mono") ? 1 : 2))
        #expect(info?.codec == "mp3")
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123"), "needs mpg123"),
        arguments: 0..<cases.count)
    func mpg123DecodesExactlyThatLength(_ index: Int) throws {
        let (label, bytes, frames) = Self.cases[index]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).mp3")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let channels = label.contains("mono") ? 1 : 2
        let decoded = try Run.program("/usr/bin/mpg123", ["-q", "-s", file.path])
        #expect(Int64(decoded.stdoutData.count / (2 * channels)) == frames, "\(label)")
        guard case .audio(_, let info) = MediaProbe.probe(path: PathBytes(file.path)) else {
            Issue.record("not audio from disk: \(label)")
            return
        }
        #expect(info.frames == frames, "\(label)")
    }

    @Test func aFileWithoutExtensionHoldingMP3IsFoundByContent() {
        #expect(stream(MP3Builder.frames(4), name: "README")?.frames == 4608)
        #expect(stream(MP3Builder.frames(4), name: "song.bin")?.frames == 4608)
    }

    @Test func aLoneFrameIsNotAStream() {
        // libmpg123 starts a stream only at a frame followed by another header (`do_readahead`).
        #expect(reason(MP3Builder.frames(1)) == "not MPEG audio")
        #expect(reason([0x41] + MP3Builder.frames(1)) == "not MPEG audio")
        #expect(stream(MP3Builder.frames(2))?.frames == 2304)
    }

    @Test func emptyFilesAreUnplayableOrNotAudioByExtension() {
        #expect(reason([]) == "empty file (0 bytes)")
        #expect(reason([], name: "Loud.MP3") == "empty file (0 bytes)")
        #expect(MediaProbe.probe(bytes: [], fileName: "notes") == .notAudio)
    }

    @Test func textHTMLAndRandomBytesAreNotMPEGAudio() {
        var generator = SplitMix(seed: 42)
        let random = (0..<40_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let html = Array("<!DOCTYPE html><html><body>Not Found</body></html>\n".utf8)
        for bytes in [random, html, Array(String(repeating: "This is not an MP3.\n", count: 40).utf8)] {
            #expect(reason(bytes, name: "a.mp3") == "not MPEG audio")
            #expect(reason(bytes, name: "a.Mp3") == "not MPEG audio")
            #expect(MediaProbe.probe(bytes: bytes, fileName: "a.dat") == .notAudio)
            #expect(MediaProbe.probe(bytes: bytes, fileName: "noextension") == .notAudio)
        }
    }

    @Test func ignoredExtensionsAreNotAudioEvenWithMP3Inside() {
        #expect(MediaProbe.probe(bytes: MP3Builder.frames(5), fileName: "cover.JPG") == .notAudio)
        #expect(MediaProbe.probe(bytes: MP3Builder.frames(5), fileName: "list.m3u8") == .notAudio)
        #expect(MediaProbe.ignoredExtensions.isDisjoint(with: MediaProbe.audioExtensions))
    }

    @Test func aTagWithNothingOrJunkAfterItIsUnplayable() {
        let tag = MP3Builder.id3v2(major: 3, [("TIT2", MP3Builder.text("Only", encoding: 0))], padding: 64)
        #expect(reason(tag) == "ID3 tag but no audio after it")
        #expect(reason(tag + Array("<html></html>".utf8), name: "x.txt2") == "ID3 tag but no audio after it")
    }

    @Test func aTagCutShortIsUnplayable() {
        let tag = MP3Builder.id3v2(major: 3, [("TIT2", MP3Builder.text("Long", encoding: 0))], padding: 4096)
        #expect(reason(Array(tag.prefix(100))) == "ID3 tag is cut short")
        #expect(reason(Array(tag.prefix(7))) == "ID3 tag is cut short")
        // A tag claiming 256 MB in a small file.
        #expect(
            reason([0x49, 0x44, 0x33, 4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F] + MP3Builder.frames(3)) == "ID3 tag is cut short"
        )
    }

    @Test func framesThatHoldNoDecodableAudioAreUnplayable() {
        // A lone Xing/Info frame, whatever it claims: libmpg123 never decodes the header frame itself.
        let info = MP3Builder.infoFrame(frames: 20, bytes: 417, delay: 576, padding: 1200)
        #expect(reason(info + MP3Builder.id3v1(title: "Lone")) == "not MPEG audio")
        // Followed by one frame, but the LAME delay skips past all of it.
        let skipped = MP3Builder.infoFrame(frames: 1, bytes: 2 * 417, delay: 1200, padding: 600) + MP3Builder.frames(1)
        #expect(reason(skipped) == "the LAME header's delay and padding leave no audio")
        // Cut inside the first audio frame.
        let full = MP3Builder.infoFrame(frames: 20, bytes: 21 * 417, delay: 576, padding: 1200) + MP3Builder.frames(20)
        #expect(reason(Array(full.prefix(417 + 200))) == "no audio after the Xing/Info header")
        #expect(
            reason(Array(MP3Builder.frames(3).prefix(300)))
                == "audio is cut short: holds 300 of 417 bytes of its first frame")
    }

    @Test func committedFixturesProbeAsTheirReadmeSays() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        func probe(_ name: String) -> ProbeOutcome {
            MediaProbe.probe(path: PathBytes(folder.appendingPathComponent(name).path))
        }
        guard case .audio(let vbrTags, let vbr) = probe("lame-vbr-mono-v24.mp3") else {
            Issue.record("lame-vbr-mono-v24.mp3 is not audio")
            return
        }
        #expect(vbr == StreamInfo(codec: "mp3", sampleRate: 22050, channels: 1, frames: 6615))
        #expect(vbrTags == TagInfo(title: "Fixture été", artist: "Probe", track: 3, trackTotal: 9, genre: "Rock"))
        guard case .audio(let cbrTags, let cbr) = probe("cbr-nolame-ape-v1.mp3") else {
            Issue.record("cbr-nolame-ape-v1.mp3 is not audio")
            return
        }
        #expect(cbr == StreamInfo(codec: "mp3", sampleRate: 32000, channels: 2, frames: 4608))
        #expect(cbrTags.title == "APE Title")
        #expect(cbrTags.artist == "APE Artist")
        #expect(cbrTags.replayGainTrack == -3.2)
        #expect(cbrTags.track == 4)
        #expect(cbrTags.year == 2001)
        #expect(cbrTags.genre == "Pop")
        #expect(probe("tag-only.mp3") == .unplayable(reason: "ID3 tag but no audio after it"))
        #expect(probe("missing.mp3") == .unplayable(reason: "cannot read: No such file or directory"))
        #expect(probe(".") == .unplayable(reason: "not a regular file") || probe(".") == .notAudio)
    }
}

/// A tiny deterministic random generator for test data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
