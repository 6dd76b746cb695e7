import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Every format of a library made by `tools/make-testlib --formats all` (FLAC, Ogg Vorbis, Opus, AAC and
/// ALAC in MP4, WAV, AIFF next to MP3, with broken files of each and fake WMA/APE/Musepack/DSD/WavPack
/// files), probed and compared with the manifest: the format, exact length, rate, channels, bit depth and
/// every tag field the generator wrote; broken files unplayable for the reason the manifest names (a FLAC
/// cut short plays what FFmpeg decodes from it).
@Suite(
    .enabled(if: TestLibrary.isAvailable && ExternalTool.allFormatTools, "needs flac, vorbis-tools, opus-tools, ffmpeg")
)
struct FormatLibraryTests {
    static let formats = ["mp3", "flac", "vorbis", "opus", "aac", "alac", "wav", "aiff"]

    @Test func everyFileOfAnAllFormatsLibraryProbesAsItsManifestSays() throws {
        let folder = try TemporaryDirectory(prefix: "all-formats")
        let manifest = try TestLibrary.generate(at: folder.url, tracks: 200, seed: 5, formats: .all, seconds: 0.4)
        let root = PathBytes(folder.path)
        var perFormat: [String: Int] = [:]
        var brokenPerFormat: [String: Int] = [:]
        for row in manifest.rows {
            let (outcome, reads, _) = MediaProbe.measuredProbe(path: root.appending(row.path))
            let place = "\(row.path.display) [\(row.codec ?? "-") \(row.note ?? "")]"
            #expect(reads.largest <= ByteSource.maxRead, "\(place): one read of \(reads.largest) bytes")
            #expect(reads.total <= 2 * ByteSource.maxRead, "\(place): \(reads.total) bytes read")
            switch row.kind {
            case .track, .hidden:
                guard case .audio(let tags, let stream) = outcome else {
                    Issue.record("expected audio, got \(outcome): \(place)")
                    continue
                }
                if row.kind == .track { perFormat[stream.codec, default: 0] += 1 }
                #expect(stream == row.stream, "\(place)")
                Self.expectTags(tags, row, place)
            case .broken where row.codec == "flac" && row.notes.contains("truncated-audio"):
                // Cut mid-stream: the decoders play the whole frames before the cut, so FFmpeg is the judge.
                let decoded = try ExternalTool.ffmpegDecodedFrames(of: root.appending(row.path))
                if decoded > 0 {
                    guard case .audio(_, let stream) = outcome else {
                        Issue.record("FFmpeg decodes \(decoded) frames, the probe says \(outcome): \(place)")
                        continue
                    }
                    #expect(stream.frames == decoded, "\(place)")
                } else if case .audio = outcome {
                    Issue.record("FFmpeg decodes nothing, the probe says \(outcome): \(place)")
                }
            case .broken:
                guard case .unplayable(let reason) = outcome else {
                    Issue.record("expected unplayable, got \(outcome): \(place)")
                    continue
                }
                if let expected = row.reason { #expect(reason.contains(expected), "\(place): \(reason)") }
                if let codec = row.codec { brokenPerFormat[codec, default: 0] += 1 }
            case .nonaudio, .playlist:
                #expect(outcome == .notAudio, "\(place)")
            case .appledouble:
                if case .audio = outcome { Issue.record("AppleDouble file probed as audio: \(place)") }
            }
        }
        for format in Self.formats { #expect(perFormat[format, default: 0] >= 8, "\(format): \(perFormat)") }
        #expect(brokenPerFormat.keys.count >= 3, "broken files of several formats: \(brokenPerFormat)")
        let unsupported = manifest.rows.filter { $0.notes.contains("unsupported") }.compactMap(\.reason)
        #expect(
            Set(unsupported)
                == Set(["WMA", "APE", "Musepack", "DSD", "WavPack"].map { "format not supported: \($0)" }))
    }

    /// Compares every field the manifest gives with what the probe read.
    static func expectTags(_ tags: TagInfo, _ row: ManifestRow, _ place: String) {
        let expected = row.tags
        #expect(tags.title == (expected.title ?? GeneratedLibrary.stem(of: row.path)), "title of \(place)")
        #expect(tags.artist == expected.artist, "artist of \(place)")
        #expect(tags.album == expected.album, "album of \(place)")
        #expect(tags.albumArtist == expected.albumArtist, "album artist of \(place)")
        #expect(tags.track == expected.track, "track of \(place)")
        #expect(tags.trackTotal == expected.trackTotal, "track total of \(place)")
        #expect(tags.disc == expected.disc, "disc of \(place)")
        #expect(tags.discTotal == expected.discTotal, "disc total of \(place)")
        #expect(tags.year == expected.year, "year of \(place)")
        #expect(tags.genre == expected.genre, "genre of \(place)")
        let gains: [(String, Double?, Double?)] = [
            ("track gain", tags.replayGainTrack, expected.replayGainTrack),
            ("album gain", tags.replayGainAlbum, expected.replayGainAlbum),
            ("track peak", tags.replayGainTrackPeak, expected.replayGainTrackPeak),
            ("album peak", tags.replayGainAlbumPeak, expected.replayGainAlbumPeak),
            ("header gain", tags.headerGain, expected.headerGain),
        ]
        for (name, got, want) in gains {
            if let want, let got {
                #expect(abs(got - want) < 0.0001, "\(name) of \(place): \(got) vs \(want)")
            } else {
                #expect(got == want, "\(name) of \(place)")
            }
        }
        if let second = row.artist2 { #expect(tags.moreValues.artists == [second], "second artist of \(place)") }
    }

    @Test func theContentDecidesTheFormatNotTheName() throws {
        let folder = try TemporaryDirectory(prefix: "content-not-name")
        let manifest = try TestLibrary.generate(
            at: folder.url, tracks: 60, seed: 8, formats: .all, extras: false, seconds: 0.4)
        let root = PathBytes(folder.path)
        for format in Self.formats.dropFirst() {
            let row = try #require(manifest.playable.first { $0.codec == format }, "a \(format) track")
            let bytes = try LibraryFiles.contents(of: root.appending(row.path))
            for name in ["renamed.mp3", "no-extension", "renamed.wav", "renamed.flac"] {
                guard case .audio(_, let stream) = MediaProbe.probe(bytes: [UInt8](bytes), fileName: name) else {
                    Issue.record("\(format) named \(name) is not audio")
                    continue
                }
                #expect(stream == row.stream, "\(format) named \(name)")
            }
        }
        let text = [UInt8]("just some text, not audio\n".utf8)
        #expect(MediaProbe.probe(bytes: text, fileName: "a.flac") == .unplayable(reason: "not FLAC audio"))
        #expect(MediaProbe.probe(bytes: text, fileName: "a.m4a") == .unplayable(reason: "not MP4 audio"))
        #expect(MediaProbe.probe(bytes: text, fileName: "a.wma") == .unplayable(reason: "format not supported: WMA"))
        #expect(MediaProbe.probe(bytes: text, fileName: "a.bin") == .notAudio)
        let ape = [UInt8]("MAC ".utf8) + [UInt8](repeating: 7, count: 500)
        #expect(MediaProbe.probe(bytes: ape, fileName: "a") == .unplayable(reason: "format not supported: APE"))
    }

    @Test func opusR128GainsAreReplayGainAtMinus18LUFS() {
        #expect(RawTags.r128ToReplayGain("0") == 5)
        #expect(RawTags.r128ToReplayGain("-2560") == -5)
        #expect(RawTags.r128ToReplayGain("+384") == 6.5)
        #expect(RawTags.r128ToReplayGain("40000") == nil)
        #expect(RawTags.r128ToReplayGain("-3.5 dB") == nil)
    }
}
