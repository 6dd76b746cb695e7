import Foundation
import MediaProbe
import ShuffleCore
import ShuffleTestSupport
import Testing

/// Probes every file of a library written by the shared `make-library` tool and compares the result
/// with its manifest (which records what `mpg123` 1.31 really decodes from each clip); for the files it
/// calls broken, with what libmpg123 decodes from them.
@Suite(.enabled(if: PackagePaths.shared != nil, "needs ../shared/tools/make-library"))
struct ManifestLibraryTests {
    @Test(arguments: [(300, 3), (300, 11)])
    func everyFileOfAGeneratedLibraryProbesAsItsManifestSays(tracks: Int, seed: Int) throws {
        try expectManifest(tracks: tracks, seed: seed)
    }

    /// The yardstick writes FLAC files of its own (STREAMINFO, Vorbis comments, padding) with `--flac-share`.
    @Test func everyFileOfAYardstickLibraryWithFLACProbesAsItsManifestSays() throws {
        try expectManifest(tracks: 200, seed: 6, extra: ["--flac-share", "0.4"], formats: ["mp3", "flac"])
    }

    func expectManifest(tracks: Int, seed: Int, extra: [String] = [], formats: Set<String> = ["mp3"]) throws {
        let library = try GeneratedLibrary(tracks: tracks, seed: seed, extra: extra)
        defer { library.remove() }
        let codecs = Set(library.rows.filter { $0["kind"] == "track" }.map { $0["codec"] })
        #expect(codecs == formats)
        #expect(library.rows.count > tracks)
        var checked = 0
        for row in library.rows {
            let outcome = MediaProbe.probe(path: library.root.appending(row.path))
            let where_ = "\(row.path.display) [\(row["note"])]"
            switch row["kind"] {
            case "track", "hidden":
                guard case .audio(let tags, let stream) = outcome else {
                    Issue.record("expected audio, got \(outcome): \(where_)")
                    continue
                }
                #expect(stream.frames == Int64(row["samples"]), "\(where_)")
                #expect(stream.sampleRate == Int(row["rate"]), "\(where_)")
                #expect(stream.channels == Int(row["channels"]), "\(where_)")
                #expect(stream.codec == row["codec"], "\(where_)")
                let expectedTitle = row["title"].isEmpty ? GeneratedLibrary.stem(of: row.path) : row["title"]
                #expect(tags.title == expectedTitle, "\(where_)")
                #expect(tags.artist == row.text("artist"), "\(where_)")
                #expect(tags.album == row.text("album"), "\(where_)")
                #expect(tags.albumArtist == row.text("albumartist"), "\(where_)")
                #expect(tags.track == row.number("track"), "\(where_)")
                #expect(tags.trackTotal == row.number("tracktotal"), "\(where_)")
                #expect(tags.disc == row.number("disc"), "\(where_)")
                #expect(tags.discTotal == row.number("disctotal"), "\(where_)")
                #expect(tags.year == row.number("year"), "\(where_)")
                #expect(tags.genre == row.text("genre"), "\(where_)")
                #expect(tags.replayGainTrack == row.gain("rg_track_gain"), "\(where_)")
            case "broken":
                // The yardstick cuts its "truncated-audio" files in the middle of the stream, where libmpg123
                // still plays every whole frame before the cut: the decoder is right, so ask it.
                let decoded = try DecoderOracle.decode(path: library.root.appending(row.path).bytes)
                if decoded.isPlayable {
                    guard case .audio(_, let stream) = outcome else {
                        Issue.record("the decoder plays \(decoded), the probe says \(outcome): \(where_)")
                        continue
                    }
                    #expect(stream.frames == decoded.frames, "\(where_)")
                } else {
                    guard case .unplayable = outcome else {
                        Issue.record("expected unplayable, got \(outcome): \(where_)")
                        continue
                    }
                }
            case "nonaudio", "playlist":
                #expect(outcome == .notAudio, "\(where_)")
            case "appledouble":
                // Broken by content (the library scanner skips `._*` by name): never audio.
                if case .audio = outcome { Issue.record("AppleDouble file probed as audio: \(where_)") }
            default:
                Issue.record("unknown kind \(row["kind"]): \(where_)")
            }
            checked += 1
        }
        #expect(checked == library.rows.count)
    }
}
