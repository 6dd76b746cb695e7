import Foundation
import ShuffleCore
import Testing

@testable import MediaProbe

/// The small committed files of every format (`Fixtures/formats`, made by `tools/make-testlib --formats all
/// --seconds 0.05`; also the fuzzer's seeds): each probes as its format with its exact length, its first
/// half is cut short, and the fake files of formats we do not play say so.
@Suite struct FormatFixtureTests {
    /// name, format, frames, rate, channels, bits, title
    static let tracks: [(String, String, Int64, Int, Int, Int?, String)] = [
        ("opus-48000-vorbiscomment.opus", "opus", 2400, 48000, 2, nil, "Naïve Summer"),
        ("aac-48000-ilst.m4a", "aac", 2400, 48000, 2, nil, "Für Elise (Remix)"),
        ("aac-44100-ilst.mp4", "aac", 2205, 44100, 2, nil, "Distant Café"),
        ("alac-48000-ilst.m4a", "alac", 2400, 48000, 2, 24, "The Heart of Engine"),
        ("wav-22050-riffinfo.wav", "wav", 1102, 22050, 1, 8, "夜明け"),
        ("wav-44100-id3chunk.wav", "wav", 2205, 44100, 2, 16, "Crimson Horizon"),
        ("wav-22050-id3chunk.wav", "wav", 1102, 22050, 1, 8, "Éternel Straße"),
        ("aiff-48000-id3chunk.aiff", "aiff", 2400, 48000, 2, 24, "Electric Shadow"),
        ("aiff-44100-aiffname.aif", "aiff", 2205, 44100, 2, 16, "Lunar Window"),
        ("flac-44100-vorbiscomment.flac", "flac", 2205, 44100, 1, 16, "Lunar Summer"),
        ("vorbis-44100-vorbiscomment.ogg", "vorbis", 2205, 44100, 2, nil, "Back\\Slash"),
        ("vorbis-22050-vorbiscomment.ogg", "vorbis", 1102, 22050, 1, nil, "Northern Machine"),
    ]

    static let unsupported = [
        ("unsupported.ape", "APE"), ("unsupported.dsf", "DSD"), ("unsupported.mpc", "Musepack"),
        ("unsupported.wma", "WMA"), ("unsupported.wv", "WavPack"),
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/formats/\(name)")
        return [UInt8](try Data(contentsOf: url))
    }

    @Test(arguments: tracks)
    func aFixtureProbesAsItsFormat(_ fixture: (String, String, Int64, Int, Int, Int?, String)) throws {
        let (name, format, frames, rate, channels, bits, title) = fixture
        let outcome = MediaProbe.probe(bytes: try Self.bytes(name), fileName: name)
        let expected = StreamInfo(
            codec: format, sampleRate: rate, channels: channels, frames: frames, bitsPerSample: bits)
        guard case .audio(let tags, let stream) = outcome else {
            Issue.record("\(name): \(outcome)")
            return
        }
        #expect(stream == expected)
        #expect(tags.title == title)
    }

    @Test(arguments: [
        "opus-48000-vorbiscomment.opus", "aac-48000-ilst.m4a", "alac-48000-ilst.m4a",
        "wav-22050-riffinfo.wav", "aiff-48000-id3chunk.aiff", "flac-44100-vorbiscomment.flac",
        "vorbis-44100-vorbiscomment.ogg",
    ])
    func theFirstHalfOfAFixtureIsCutShort(_ name: String) throws {
        let outcome = MediaProbe.probe(bytes: try Self.bytes("cut-" + name), fileName: name)
        guard case .unplayable(let reason) = outcome else {
            Issue.record("cut \(name): \(outcome)")
            return
        }
        #expect(reason.contains("cut short"), "cut \(name): \(reason)")
    }

    @Test(arguments: unsupported)
    func aFormatWeDoNotPlayIsNamed(_ fixture: (String, String)) throws {
        let outcome = MediaProbe.probe(bytes: try Self.bytes(fixture.0), fileName: fixture.0)
        #expect(outcome == .unplayable(reason: "format not supported: \(fixture.1)"))
        // By its magic, whatever it is called.
        let renamed = MediaProbe.probe(bytes: try Self.bytes(fixture.0), fileName: "renamed.mp3")
        #expect(renamed == .unplayable(reason: "format not supported: \(fixture.1)"))
    }
}
