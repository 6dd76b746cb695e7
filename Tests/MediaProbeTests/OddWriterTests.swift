import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Files other programs write oddly (`Tools/make-odd-files.py`: made by FFmpeg, then edited byte by byte as
/// their writers get them wrong), held to independent tools: the tags to what mutagen reads, playability and
/// length to what FFmpeg (for FLAC, the reference decoder) decodes.
@Suite(
    .enabled(
        if: Mutagen.isInstalled && ExternalTool.find("ffmpeg") != nil && ExternalTool.find("flac") != nil,
        "needs ffmpeg, flac and python3-mutagen"))
struct OddWriterTests {
    static let script = PackagePaths.root.appendingPathComponent("Tests/MediaProbeTests/Tools/make-odd-files.py").path
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory(prefix: "odd-writers") }

    /// Makes the file `name` in the test's folder and returns its path.
    func make(_ name: String) throws -> String {
        let made = try Run.program(Mutagen.python, [Self.script, folder.path, name])
        guard made.status == 0 else { throw TestSupportError("make-odd-files.py \(name): \(made.stderr)") }
        return folder.appending(name).path
    }

    /// What mutagen reads from the file at `path`.
    func mutagen(_ path: String) throws -> [String: Any] {
        let script = PackagePaths.root.appendingPathComponent("Tests/MediaProbeTests/Tools/mutagen-tags.py").path
        let name = URL(fileURLWithPath: path).lastPathComponent
        let result = try Run.program(Mutagen.python, [script, folder.path], stdin: Data(name.utf8))
        guard result.status == 0 else { throw TestSupportError("mutagen-tags.py: \(result.stderr)") }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any])
    }

    /// The frames (per channel) a reference decoder decodes from the file at `path`: 0 when it refuses it.
    /// FFmpeg's command line, except for FLAC: there the reference decoder, `flac -d -F` (libFLAC, the box's
    /// own decoder), since FFmpeg's count past a damaged first frame changed between FFmpeg 5.1 (Debian 12:
    /// 17,442, libFLAC's) and 7.1 (Debian 13: 12,834).
    static func referenceFrames(_ path: String) throws -> Int64 {
        if path.hasSuffix(".flac") {
            let flac = try #require(ExternalTool.find("flac"))
            // The generator's FLAC files are mono 16-bit: bytes / 2 are frames. -F decodes through errors (and
            // exits non-zero for the MD5 signature that then cannot match).
            let result = try Run.program(
                flac, ["-s", "-d", "-F", "-c", "--force-raw-format", "--endian=little", "--sign=signed", path])
            return Int64(result.stdoutData.count / 2)
        }
        let ffmpeg = try #require(ExternalTool.find("ffmpeg"))
        // Mixed down to one channel, so that bytes / 2 are frames.
        let result = try Run.program(ffmpeg, ["-v", "quiet", "-nostdin", "-i", path, "-f", "s16le", "-ac", "1", "-"])
        return Int64(result.stdoutData.count / 2)
    }

    @Test func anID3v24TagThatFlagsAMissingExtendedHeaderKeepsItsTagsAsMutagenReadsThem() throws {
        let path = try make("ext-header-missing.mp3")
        let theirs = try mutagen(path)
        guard case .audio(let tags, _) = MediaProbe.probe(path: PathBytes(path)) else {
            Issue.record("not audio")
            return
        }
        #expect(theirs["title"] != nil, "mutagen reads the tag")
        #expect(tags.title == theirs["title"] as? String)
        #expect(tags.artist == theirs["artist"] as? String)
        #expect(tags.album == theirs["album"] as? String)
        #expect(tags.year == theirs["year"] as? Int)
    }

    /// The ID3v1 tag only fills what the ID3v2 tag does not say, also when the ID3v2 header is odd.
    @Test(arguments: ["v1-disagrees.mp3", "v1-disagrees-ext.mp3"])
    func whereID3v2AndID3v1DisagreeTheID3v2ValueWinsAsInMutagen(_ name: String) throws {
        let path = try make(name)
        let theirs = try mutagen(path)
        guard case .audio(let tags, _) = MediaProbe.probe(path: PathBytes(path)) else {
            Issue.record("not audio")
            return
        }
        let year = try #require(theirs["year"] as? Int)
        #expect(year == 2001, "mutagen reads the ID3v2 year")
        #expect(tags.year == year)
        #expect(tags.title == theirs["title"] as? String)
        #expect(tags.artist == theirs["artist"] as? String)
    }

    /// Each file is playable for exactly what a reference decoder decodes from it (`referenceFrames`), or
    /// unplayable when it decodes nothing.
    @Test(arguments: [
        "mp3-in-wav.wav", "claims-47-hours.m4b", "bad-crc.ogg", "damaged-first-frame.flac", "cut-short.flac",
    ])
    func aFileIsPlayableForWhatAReferenceDecoderDecodesFromIt(_ name: String) throws {
        let path = try make(name)
        let decoded = try Self.referenceFrames(path)
        let outcome = MediaProbe.probe(path: PathBytes(path))
        if decoded == 0 {
            guard case .unplayable = outcome else {
                Issue.record("the reference decoder decodes nothing, the probe says \(outcome)")
                return
            }
            return
        }
        guard case .audio(_, let stream) = outcome else {
            Issue.record("the reference decoder decodes \(decoded) frames, the probe says \(outcome)")
            return
        }
        #expect(stream.frames == decoded, "\(name): the reference decoder decodes \(decoded) frames")
        #expect(!stream.isEstimate)
    }
}
