import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Files other programs write oddly (`Tools/make-odd-files.py`: made by FFmpeg, then edited byte by byte as
/// their writers get them wrong), held to independent tools: the tags to what mutagen reads, playability and
/// length to what FFmpeg decodes.
@Suite(.enabled(if: Mutagen.isInstalled && ExternalTool.find("ffmpeg") != nil, "needs ffmpeg and python3-mutagen"))
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
}
