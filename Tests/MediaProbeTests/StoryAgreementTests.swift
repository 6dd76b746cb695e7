import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Audiobooks, podcasts and songs made by FFmpeg and flagged by mutagen (`StoryFixtures`): the chapters and
/// story flags the probe reads are what mutagen reads (`Tools/mutagen-stories.py`), and, for MP4 chapter
/// tracks, which mutagen does not read, what `ffprobe -show_chapters` reads.
@Suite(
    .enabled(
        if: StoryFixtures.missingTool == nil && ExternalTool.find("ffprobe") != nil,
        "needs ffmpeg, ffprobe and python3-mutagen"))
struct StoryAgreementTests {
    static let script = PackagePaths.root.appendingPathComponent("Tests/MediaProbeTests/Tools/mutagen-stories.py").path
    /// Titles with what a writer or reader may get wrong: non-Latin-1, ffmetadata's escapes, an emoji.
    static let titles = ["Opening", "Zwei: Straße = Weg; #2", "三章", "Four 🎧"]
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory(prefix: "stories") }

    /// What mutagen reads of the file at `url`.
    func mutagen(_ url: URL) throws -> [String: Any] {
        let result = try Run.program(StoryFixtures.python, [Self.script, url.path])
        guard result.status == 0 else { throw TestSupportError("mutagen-stories.py: \(result.stderr)") }
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The chapters `ffprobe -show_chapters` reads from the file at `url` (start rounded to milliseconds).
    func ffprobeChapters(_ url: URL) throws -> [Chapter] {
        let ffprobe = try #require(ExternalTool.find("ffprobe"))
        let result = try Run.program(ffprobe, ["-v", "error", "-show_chapters", "-of", "json", url.path])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let chapters = try #require(object?["chapters"] as? [[String: Any]])
        return try chapters.map { chapter in
            let start = try #require((chapter["start_time"] as? String).flatMap(Double.init))
            let title = (chapter["tags"] as? [String: String])?["title"]
            return Chapter(startMs: Int64((start * 1000).rounded()), title: title)
        }
    }

    /// The tags the probe reads from the file at `url` (fails the test when it is not audio).
    func probe(_ url: URL) throws -> TagInfo {
        guard case .audio(let tags, _) = MediaProbe.probe(path: PathBytes(url.path)) else {
            throw TestSupportError("\(url.lastPathComponent) is not audio to the probe")
        }
        return tags
    }

    /// The chapters a `chapters` list of mutagen's MP4 reading holds.
    static func chapters(_ list: Any?) -> [Chapter] {
        (list as? [[Any]] ?? []).compactMap { pair in
            guard pair.count == 2, let start = pair[0] as? Int else { return nil }
            return Chapter(startMs: Int64(start), title: pair[1] as? String)
        }
    }

    // MARK: - MP4 chapters

    @Test func anM4BFromFFmpegHasBothAChapterTrackAndNeroChaptersAndTheProbeReadsTheTrack() throws {
        let url = try StoryFixtures.m4bBook(at: folder.appending("book.m4b"), chapters: Self.titles)
        let expected = Self.titles.enumerated().map { Chapter(startMs: Int64($0.offset) * 1000, title: $0.element) }
        let theirs = try mutagen(url)
        #expect(Self.chapters(theirs["chapters"]) == expected, "mutagen reads FFmpeg's chpl")
        #expect(try ffprobeChapters(url) == expected, "ffprobe reads the chapter track")
        let tags = try probe(url)
        #expect(tags.chapters == expected)
        let boxes = try movieBoxes(url)
        #expect(MP4Chapters.trackChapters(boxes.traks, sound: boxes.sound, try source(url)) == expected)
        #expect(tags.story == .audiobook, "an .m4b with no flag is a book")
    }

    @Test func aChapterTrackAloneGivesTheChaptersFFprobeReads() throws {
        let url = try StoryFixtures.m4bBook(
            at: folder.appending("track.m4b"), chapters: Self.titles, style: .chapterTrackOnly)
        #expect(Self.chapters(try mutagen(url)["chapters"]).isEmpty, "no chpl for mutagen")
        let expected = try ffprobeChapters(url)
        #expect(expected.count == Self.titles.count)
        #expect(try probe(url).chapters == expected)
    }

    @Test func neroChaptersAloneGiveTheChaptersMutagenReads() throws {
        let url = try StoryFixtures.m4bBook(at: folder.appending("nero.m4b"), chapters: Self.titles, style: .neroOnly)
        let expected = Self.chapters(try mutagen(url)["chapters"])
        #expect(expected.map(\.title) == Self.titles)
        #expect(try ffprobeChapters(url) == expected)
        let boxes = try movieBoxes(url)
        #expect(MP4Chapters.trackChapters(boxes.traks, sound: boxes.sound, try source(url)).isEmpty)
        #expect(try probe(url).chapters == expected)
    }

    // MARK: - ID3 chapters

    @Test(arguments: [3, 4])
    func anMP3FromFFmpegHasCHAPAndCTOCFramesReadAsMutagenReadsThem(version: Int) throws {
        let url = try StoryFixtures.mp3WithChapters(
            at: folder.appending("book-v\(version).mp3"), chapters: Self.titles, id3v2Version: version)
        let theirs = try mutagen(url)
        let chaps = try #require(theirs["chap"] as? [[String: Any]])
        let tocs = try #require(theirs["ctoc"] as? [[String: Any]])
        #expect(chaps.count == Self.titles.count)
        #expect(tocs.count == 1 && (tocs.first?["flags"] as? Int) == 3, "one top-level, ordered table")
        // In the order the table of contents lists them.
        let order = tocs.first?["children"] as? [String] ?? []
        let byID = Dictionary(chaps.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let expected = order.compactMap { byID[$0] }.map {
            Chapter(startMs: Int64($0["start"] as? Int ?? -1), title: $0["title"] as? String)
        }
        #expect(expected.map(\.title) == Self.titles)
        let tags = try probe(url)
        #expect(tags.chapters == expected)
        #expect(tags.story == nil, "chapters alone do not make a story: the library decides by genre")
        #expect(tags.title == "A Book")
    }

    // MARK: - Titles

    @Test func titlesOfTenKilobytesAreCutAtTheTitleLimitInEveryPlaceTheyAreKept() throws {
        let long = String(repeating: "Kapitel ", count: 1280)
        let titles = [long, "Short", long + "!"]
        let cut = String(long.prefix(Chapter.maxTitleBytes))
        let expected = [cut, "Short", cut]
        let track = try StoryFixtures.m4bBook(
            at: folder.appending("long-track.m4b"), chapters: titles, style: .chapterTrackOnly)
        #expect(try probe(track).chapters.map(\.title) == expected, "the chapter track holds every byte")
        let nero = try StoryFixtures.m4bBook(at: folder.appending("long-nero.m4b"), chapters: titles, style: .neroOnly)
        // chpl's lengths are one byte: FFmpeg cuts the title at 255 bytes, and so mutagen reads it.
        let theirs = Self.chapters(try mutagen(nero)["chapters"]).map(\.title)
        #expect(try probe(nero).chapters.map(\.title) == theirs)
        let mp3 = try StoryFixtures.mp3WithChapters(at: folder.appending("long.mp3"), chapters: titles)
        #expect(try probe(mp3).chapters.map(\.title) == expected)
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

    // MARK: - Helpers

    /// A file's bytes as the probe reads them.
    func source(_ url: URL) throws -> ByteSource { ByteSource(bytes: [UInt8](try Data(contentsOf: url))) }

    /// The `trak` boxes of the MP4 file at `url` and its sound track.
    func movieBoxes(_ url: URL) throws -> (traks: [MP4Box], sound: MP4Box) {
        let bytes = try source(url)
        let moov = try #require(MP4Box.children(of: bytes, in: 0..<bytes.count).first { $0.type == "moov" })
        let traks = moov.children(in: bytes).filter { $0.type == "trak" }
        let sound = try #require(
            traks.first { trak in
                trak.child("mdia", in: bytes).flatMap { MP4Probe.handlerType($0, bytes) } == "soun"
            })
        return (traks, sound)
    }
}
