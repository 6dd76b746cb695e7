import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Where Debian's `python3-mutagen` is installed (for `/usr/bin/python3`: the `python3` on PATH may be
/// another interpreter), every tag field and stream fact it reads from a generated library of every format
/// must be what the probe reads. Mutagen reads no RIFF INFO, AIFF NAME/AUTH or APE tags; where it finds
/// nothing, the probe's value is not compared.
@Suite(.enabled(if: Mutagen.isInstalled && ExternalTool.allFormatTools, "needs /usr/bin/python3 with mutagen"))
struct MutagenAgreementTests {
    static let python = Mutagen.python
    static let script = PackagePaths.root.appendingPathComponent("Tests/MediaProbeTests/Tools/mutagen-tags.py").path

    @Test func everyTagFieldMutagenReadsIsWhatTheProbeReads() throws {
        let folder = try TemporaryDirectory(prefix: "mutagen")
        let manifest = try TestLibrary.generate(at: folder.url, tracks: 160, seed: 11, formats: .all, seconds: 0.4)
        let rows = manifest.rows.filter { $0.kind == .track }
        let input = rows.map { ManifestEscapes.encode($0.path) }.joined(separator: "\n")
        let result = try Run.program(Self.python, [Self.script, folder.path], stdin: Data(input.utf8))
        #expect(result.status == 0, "mutagen-tags.py: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == rows.count)
        var compared = 0
        var formats = Set<String>()
        for (row, line) in zip(rows, lines) {
            let theirs = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let place = "\(row.path.display) [\(row.codec ?? "-") \(row.tag ?? "-")]"
            if theirs["unknown"] != nil {
                // Only a file with no extension may be one mutagen cannot place.
                #expect(row.notes.contains("no-extension"), "mutagen does not know \(place)")
                continue
            }
            guard case .audio(let tags, let stream) = MediaProbe.probe(path: PathBytes(folder.path).appending(row.path))
            else {
                Issue.record("not audio: \(place)")
                continue
            }
            formats.insert(stream.codec)
            let texts: [(String, String?)] = [
                ("title", tags.title), ("artist", tags.artist), ("album", tags.album),
                ("albumArtist", tags.albumArtist), ("genre", tags.genre),
            ]
            for (key, ours) in texts {
                guard let value = theirs[key] as? String else { continue }
                // mutagen strips ID3v1's fixed-width fields on both sides; the probe keeps leading spaces.
                let shown = row.tag == "id3v1" ? ours.map { String($0.drop { $0 == " " }) } : ours
                #expect(shown == value, "\(key) of \(place)")
                compared += 1
            }
            let numbers: [(String, Int?)] = [
                ("track", tags.track), ("trackTotal", tags.trackTotal), ("disc", tags.disc),
                ("discTotal", tags.discTotal), ("year", tags.year), ("sampleRate", stream.sampleRate),
                ("channels", stream.channels), ("bitsPerSample", stream.bitsPerSample),
            ]
            for (key, ours) in numbers {
                guard let value = theirs[key] as? Int else { continue }
                // mutagen says 16 bits for AAC in MP4 (the sample entry's field), which decoders ignore.
                if key == "bitsPerSample" && stream.bitsPerSample == nil { continue }
                #expect(ours == value, "\(key) of \(place)")
                compared += 1
            }
            let gains: [(String, Double?)] = [
                ("rgTrackGain", tags.replayGainTrack), ("rgAlbumGain", tags.replayGainAlbum),
                ("rgTrackPeak", tags.replayGainTrackPeak), ("rgAlbumPeak", tags.replayGainAlbumPeak),
            ]
            for (key, ours) in gains {
                guard let value = theirs[key] as? Double else { continue }
                #expect(
                    ours.map { abs($0 - value) < 0.0001 } == true, "\(key) of \(place): \(String(describing: ours))")
                compared += 1
            }
            if let artists = theirs["artists"] as? [String], artists.count > 1 {
                #expect(tags.moreValues.artists == Array(artists.dropFirst()), "artists of \(place)")
                compared += 1
            }
        }
        #expect(formats == Set(FormatLibraryTests.formats), "formats compared: \(formats.sorted())")
        #expect(compared > rows.count * 5, "\(compared) fields compared")
    }
}

/// Debian's mutagen, for `/usr/bin/python3`.
enum Mutagen {
    static let python = "/usr/bin/python3"
    /// Whether `/usr/bin/python3` imports mutagen.
    static let isInstalled: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? Run.program(python, ["-c", "import mutagen"]).status) == 0
    }()
}
