import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Audiobooks, podcasts and songs made by FFmpeg and flagged by mutagen (`StoryFixtures`): the story flags the
/// probe reads are what mutagen reads (`Tools/mutagen-stories.py`).
@Suite(
    .enabled(
        if: StoryFixtures.missingTool == nil, "needs ffmpeg and python3-mutagen"))
struct StoryAgreementTests {
    static let script = PackagePaths.root.appendingPathComponent("Tests/MediaProbeTests/Tools/mutagen-stories.py").path
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory(prefix: "stories") }

    /// What mutagen reads of the file at `url`.
    func mutagen(_ url: URL) throws -> [String: Any] {
        let result = try Run.program(StoryFixtures.python, [Self.script, url.path])
        guard result.status == 0 else { throw TestSupportError("mutagen-stories.py: \(result.stderr)") }
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The tags the probe reads from the file at `url` (fails the test when it is not audio).
    func probe(_ url: URL) throws -> TagInfo {
        guard case .audio(let tags, _) = MediaProbe.probe(path: PathBytes(url.path)) else {
            throw TestSupportError("\(url.lastPathComponent) is not audio to the probe")
        }
        return tags
    }

    // MARK: - Story flags

    @Test(
        arguments: [
            (2, nil, StoryKind.audiobook), (21, nil, .podcast), (nil, true, .podcast), (1, true, .podcast),
            (2, false, .audiobook), (1, nil, nil), (10, false, nil),
        ] as [(Int?, Bool?, StoryKind?)])
    func mp4FlagsSayWhatTheFileIsThePodcastFlagFirst(stik: Int?, podcast: Bool?, expected: StoryKind?) throws {
        let url = folder.appending("flagged.m4a")
        try StoryFixtures.song(at: url, format: .m4a, title: "Flagged")
        try StoryFixtures.setMP4Flags(at: url, stik: stik, podcast: podcast)
        let theirs = try mutagen(url)
        #expect(theirs["stik"] as? Int == stik)
        #expect(theirs["pcst"] as? Bool == podcast)
        #expect(try probe(url).story == expected)
    }

    @Test func thePodcastFixturesAreFlaggedAsMutagenReadsThem() throws {
        let m4a = try StoryFixtures.podcast(at: folder.appending("episode.m4a"), format: .m4a)
        let mp4Flags = try mutagen(m4a)
        #expect(mp4Flags["stik"] as? Int == 21 && mp4Flags["pcst"] as? Bool == true)
        #expect(try probe(m4a).story == .podcast)
        let mp3 = try StoryFixtures.podcast(at: folder.appending("episode.mp3"), format: .mp3)
        #expect(try mutagen(mp3)["pcst"] as? Int == 1)
        #expect(try probe(mp3).story == .podcast)
        #expect(try probe(mp3).title == "An Episode")
    }

    @Test(arguments: StoryFixtures.SongFormat.allCases)
    func aPlainSongIsNoStoryEvenWithAStoryGenreWhichTheLibraryJudges(format: StoryFixtures.SongFormat) throws {
        let url = try StoryFixtures.song(
            at: folder.appending("song.\(format.rawValue)"), format: format, title: "Song", artist: "Band",
            album: "Record", track: 3, disc: 2, genre: "Audiobook")
        let tags = try probe(url)
        #expect(tags.story == nil)
        #expect(tags.chapters.isEmpty)
        #expect(tags.genre == "Audiobook")
        #expect([tags.title, tags.artist, tags.album] == ["Song", "Band", "Record"])
        #expect(tags.track == 3 && tags.disc == 2)
        let theirs = try mutagen(url)
        #expect(theirs["pcst"] is NSNull && (theirs["stik"] == nil || theirs["stik"] is NSNull))
    }

    @Test func anM4BNamedAsM4AIsNoBookAndAFlagWinsOverTheExtension() throws {
        let book = try StoryFixtures.m4bBook(at: folder.appending("book.m4b"), chapters: ["One", "Two"])
        let renamed = folder.appending("book.M4A")
        try FileManager.default.copyItem(at: book, to: renamed)
        #expect(try probe(renamed).story == nil)
        let upper = folder.appending("BOOK2.M4B")
        try FileManager.default.copyItem(at: book, to: upper)
        #expect(try probe(upper).story == .audiobook, "the extension's case is ignored")
        try StoryFixtures.setMP4Flags(at: upper, podcast: true)
        #expect(try probe(upper).story == .podcast)
    }
}
