import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Chapters built byte by byte, as a careless or hostile writer leaves them: every claimed length and count is
/// bounded by what the probe chooses to read, and what is broken gives fewer chapters (or none), never a crash.
@Suite struct ChapterHostileTests {
    /// The raw tags of an ID3v2 tag `tag` (version from its header).
    func raw(_ tag: [UInt8]) -> RawTags {
        let source = ByteSource(bytes: tag)
        return ID3v2Tag.read(source, at: 0, header: ID3v2Tag.header(in: source, at: 0))
    }

    /// The tags the probe reads from `tag` followed by `frames` silent MPEG frames (26 ms each).
    func probe(_ tag: [UInt8], frames: Int = 200) -> TagInfo? {
        guard case .audio(let tags, _) = MediaProbe.probe(bytes: tag + MP3Builder.frames(frames), fileName: "x.mp3")
        else {
            Issue.record("not audio")
            return nil
        }
        return tags
    }

    /// A `CHAP` frame titled `title`, starting at `start` ms.
    func chapter(_ id: String, _ start: UInt32, _ title: String, major: UInt8 = 3) -> (String, [UInt8]) {
        ("CHAP", MP3Builder.chap(id, start: start, frames: [("TIT2", MP3Builder.text(title))], major: major))
    }

    // MARK: - ID3v2

    @Test func chaptersFollowTheTopLevelTableOfContentsAndTheTablesItLists() {
        let tag = MP3Builder.id3v2(
            major: 3,
            [
                chapter("c", 2000, "Three"), chapter("a", 0, "One"), chapter("b", 1000, "Two"),
                chapter("z", 500, "Unlisted"), ("CTOC", MP3Builder.ctoc("sub", flags: 2, entries: ["b", "c"])),
                ("CTOC", MP3Builder.ctoc("toc", entries: ["a", "sub"])),
            ])
        #expect(raw(tag).chapters.map(\.title) == ["One", "Two", "Three", "Unlisted"])
        #expect(probe(tag)?.chapters.map(\.title) == ["One", "Unlisted", "Two", "Three"], "then cleaned: by start")
    }

    @Test func tablesOfContentsThatListThemselvesOrEachOtherEndTheirWalk() {
        let tag = MP3Builder.id3v2(
            major: 4,
            [
                ("CTOC", MP3Builder.ctoc("toc", entries: ["toc", "x", "a"])),
                ("CTOC", MP3Builder.ctoc("x", flags: 0, entries: ["toc", "x", "b"])),
                chapter("a", 0, "One", major: 4), chapter("b", 1000, "Two", major: 4),
                ("CTOC", MP3Builder.ctoc("short", flags: 0, count: 255, entries: ["a"])),
            ])
        #expect(raw(tag).chapters.map(\.title) == ["Two", "One"])
    }

    @Test func aCHAPClaimingMoreThanTheTagHoldsEndsTheWalkAndKeepsWhatCameBefore() {
        var tag = MP3Builder.id3v2(major: 3, [("TIT2", MP3Builder.text("Song")), chapter("a", 0, "One")])
        // The second frame's size field (after the 10-byte tag header and the TIT2 frame) now claims 2 GiB.
        let sizeField = 10 + 10 + MP3Builder.text("Song").count + 4
        tag.replaceSubrange(sizeField..<sizeField + 4, with: MP3Builder.be32(0x7FFF_FFFF))
        let tags = probe(tag)
        #expect(tags?.title == "Song")
        #expect(tags?.chapters == [])
    }

    @Test func aTitleFrameClaimingMoreThanItsCHAPHoldsLeavesTheChapterUntitled() {
        let huge = MP3Builder.chap("a", start: 0, frames: [("TIT2", MP3Builder.text("One"))], claimedSize: 0x7FFF_FFFF)
        let tag = MP3Builder.id3v2(major: 3, [("CHAP", huge), chapter("b", 1000, "Two")])
        #expect(probe(tag)?.chapters == [Chapter(startMs: 0, title: nil), Chapter(startMs: 1000, title: "Two")])
    }

    @Test(arguments: [0, 1, 2, 3] as [UInt8])
    func aTitleOfTenKilobytesIsCutAtTheTitleLimitInEveryEncoding(encoding: UInt8) {
        let long = String(repeating: "ab", count: 5000)
        let tag = MP3Builder.id3v2(
            major: 4,
            [
                (
                    "CHAP",
                    MP3Builder.chap(
                        "a", start: 0, frames: [("TIT2", MP3Builder.text(long, encoding: encoding))], major: 4)
                ),
                chapter("b", 1000, "Two", major: 4),
            ])
        let title = raw(tag).chapters.first?.title
        #expect(title == String(long.prefix(Chapter.maxTitleBytes)))
    }

    @Test func fiveThousandCHAPFramesKeepAtMostTheMostChaptersAndReadLittle() throws {
        let frames = (0..<5000).map { chapter("c\($0)", UInt32($0), "Chapter \($0)") }
        let tag = MP3Builder.id3v2(major: 3, frames)
        let folder = try TemporaryDirectory(prefix: "chapters")
        let url = folder.appending("many.mp3")
        try Data(tag + MP3Builder.frames(200)).write(to: url)
        let (outcome, reads, _) = MediaProbe.measuredProbe(path: PathBytes(url.path))
        guard case .audio(let tags, _) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(tags.chapters.count == Chapter.maxCount)
        #expect(tags.chapters.last == Chapter(startMs: Int64(Chapter.maxCount - 1), title: "Chapter 1999"))
        #expect(reads.largest <= ByteSource.maxRead)
        #expect(reads.total <= 4 * ByteSource.maxRead, "\(reads.total) bytes read in all")
    }

    @Test func unsynchronisedCHAPFramesAreUndoneBeforeTheyAreRead() {
        // 0xFFE0 ms holds FF E0, which unsynchronisation must break up; "ÿ" is C3 BF (no FF) in UTF-8.
        let first = MP3Builder.unsynchronise(
            MP3Builder.chap("a", start: 0xFFE0, frames: [("TIT2", MP3Builder.text("ÿ One"))], major: 4))
        let second = MP3Builder.unsynchronise(
            MP3Builder.chap("b", start: 0, frames: [("TIT2", MP3Builder.text("Two"))], major: 4))
        let tag = MP3Builder.id3v2(major: 4, [("CHAP", first), ("CHAP", second)], frameFlags: [0, 0x02])
        #expect(raw(tag).chapters == [Chapter(startMs: 0xFFE0, title: "ÿ One"), Chapter(startMs: 0, title: "Two")])
    }

    // MARK: - MP4 boxes

    /// A box of `type` holding `payload`, and the source that holds only it.
    func box(_ type: String, _ payload: [UInt8]) -> (MP4Box, ByteSource) {
        let bytes = MP3Builder.be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
        let source = ByteSource(bytes: bytes)
        return (MP4Box.children(of: source, in: 0..<bytes.count)[0], source)
    }

    @Test func aChplClaiming255EntriesInAShortBoxGivesTheEntriesItHolds() {
        let entry = { (start: UInt64, title: String) -> [UInt8] in
            MP3Builder.be32(UInt32(start >> 32)) + MP3Builder.be32(UInt32(start & 0xFFFF_FFFF)) + [
                UInt8(title.utf8.count)
            ]
                + Array(title.utf8)
        }
        var version1: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 255]
        version1 += entry(0, "One")
        version1 += entry(10_000_000, "Two")
        version1 += [0, 0, 0]
        let (chpl, source) = box("chpl", version1)
        #expect(
            MP4Chapters.neroChapters(chpl, source) == [
                Chapter(startMs: 0, title: "One"), Chapter(startMs: 1000, title: "Two"),
            ])
        var version0: [UInt8] = [0, 0, 0, 0, 2]
        version0 += entry(20_000_000, "Three")
        version0 += entry(.max, "Beyond")
        let (old, oldSource) = box("chpl", version0)
        #expect(
            MP4Chapters.neroChapters(old, oldSource) == [
                Chapter(startMs: 2000, title: "Three"), Chapter(startMs: Int64(UInt64.max / 10_000), title: "Beyond"),
            ])
        // A title longer than the box ends the list.
        let (cut, cutSource) = box("chpl", [1, 0, 0, 0, 0, 0, 0, 0, 1] + Array(entry(0, "One").dropLast(2)))
        #expect(MP4Chapters.neroChapters(cut, cutSource) == [])
    }

    @Test func aTimeToSampleTableClaiming2To32SamplesGivesAtMostTheMostStarts() {
        let (stts, source) = box(
            "stts", [0, 0, 0, 0] + MP3Builder.be32(2) + MP3Builder.be32(.max) + MP3Builder.be32(.max))
        let starts = MP4Chapters.startTimes(stts, timescale: 1, source)
        #expect(starts.count == Chapter.maxCount)
        #expect(starts.last == Int64(Chapter.maxCount - 1) * Int64(UInt32.max) * 1000)
        let (lying, lyingSource) = box(
            "stts", [0, 0, 0, 0] + MP3Builder.be32(.max) + MP3Builder.be32(3) + MP3Builder.be32(1000))
        #expect(MP4Chapters.startTimes(lying, timescale: 1000, lyingSource) == [0, 1000, 2000])
    }

    @Test func textSamplesGiveTheirTitleOnlyWhenItsLengthFitsTheSample() {
        let utf16 = [0, 8, 0xFE, 0xFF, 0, 0x4F, 0, 0x6E, 0, 0x65] as [UInt8]
        #expect(MP4Chapters.title(utf16[...], sampleSize: 10) == "One")
        let little = [0, 6, 0xFF, 0xFE, 0x54, 0, 0x77, 0] as [UInt8]
        #expect(MP4Chapters.title(little[...], sampleSize: 20) == "Tw")
        #expect(MP4Chapters.title([0, 3, 0x4F, 0x6E, 0x65, 0, 0, 0, 12][...], sampleSize: 9) == "One")
        #expect(MP4Chapters.title([0, 9, 0x4F, 0x6E, 0x65][...], sampleSize: 5) == nil)
        #expect(MP4Chapters.title([0xFF, 0xFF][...], sampleSize: 0) == nil)
        #expect(MP4Chapters.title([0, 0][...], sampleSize: 2) == nil)
    }

    // MARK: - Titles

    @Test func titlesAreCutAtACharacterBoundaryWithinTheLimit() {
        let limit = Chapter.maxTitleBytes
        #expect(TagText.chapterTitle(String(repeating: "é", count: 300)) == String(repeating: "é", count: limit / 2))
        let flags = TagText.chapterTitle(String(repeating: "🇩🇪", count: 40))
        #expect(flags == String(repeating: "🇩🇪", count: limit / 8), "a flag is two 4-byte scalars")
        let zalgo = "e" + String(repeating: "\u{301}", count: 1000)
        let cut = TagText.chapterTitle(zalgo)
        #expect(
            cut.map { $0.utf8.count <= limit && $0.unicodeScalars.first == "e" } == true,
            "one huge character: cut by scalar")
        #expect(TagText.chapterTitle(" \t\0") == nil)
        #expect(TagText.chapterTitle("Kapitel 1\0\0") == "Kapitel 1")
    }
}

/// Real FFmpeg books with their chapter boxes then damaged in memory.
@Suite(.enabled(if: ExternalTool.find("ffmpeg") != nil, "needs ffmpeg"))
struct ChapterTrackHostileTests {
    static let titles = ["One", "Two", "Three", "Four"]
    static let expected = titles.enumerated().map { Chapter(startMs: Int64($0.offset) * 1000, title: $0.element) }

    /// An FFmpeg book's bytes, and where the payload of the first box of `type` in the chapter (text) track lies.
    func book(_ style: StoryFixtures.MP4ChapterStyle, box type: String) throws -> (bytes: [UInt8], at: Int) {
        let folder = try TemporaryDirectory(prefix: "chapter-track")
        let url = try StoryFixtures.m4bBook(at: folder.appending("book.m4b"), chapters: Self.titles, style: style)
        let bytes = [UInt8](try Data(contentsOf: url))
        let source = ByteSource(bytes: bytes)
        let moov = try #require(MP4Box.children(of: source, in: 0..<bytes.count).first { $0.type == "moov" })
        if type == "chpl" {
            return (bytes, try #require(moov.child("udta", in: source)?.child("chpl", in: source)).payload)
        }
        let text = try #require(
            moov.children(in: source).first {
                $0.type == "trak" && $0.child("mdia", in: source).flatMap { MP4Probe.handlerType($0, source) } == "text"
            })
        let stbl = try #require(text.child("mdia", in: source)?.child("minf", in: source)?.child("stbl", in: source))
        return (bytes, try #require(stbl.child(type, in: source)).payload)
    }

    /// The chapters the probe reads from `bytes`.
    func chapters(_ bytes: [UInt8]) -> [Chapter]? {
        guard case .audio(let tags, _) = MediaProbe.probe(bytes: bytes, fileName: "book.m4b") else {
            Issue.record("not audio")
            return nil
        }
        return tags.chapters
    }

    @Test func sampleOffsetsPastTheEndOfTheFileKeepTheStartsWithoutTitles() throws {
        let (original, stco) = try book(.chapterTrackOnly, box: "stco")
        var bytes = original
        #expect(chapters(bytes) == Self.expected)
        bytes.replaceSubrange(stco + 8..<stco + 12, with: MP3Builder.be32(0xFFFF_FF00))
        #expect(chapters(bytes) == Self.expected.map { Chapter(startMs: $0.startMs, title: nil) })
    }

    @Test func aTimeToSampleTableClaiming2To32SamplesGivesTheChaptersWithinTheAudio() throws {
        let (original, stts) = try book(.chapterTrackOnly, box: "stts")
        var bytes = original
        bytes.replaceSubrange(stts + 8..<stts + 12, with: MP3Builder.be32(.max))
        #expect(chapters(bytes) == Self.expected)
    }

    @Test func hugeSampleSizesAndChunksReadNoMoreThanTheTitleLimit() throws {
        let (original, stsz) = try book(.chapterTrackOnly, box: "stsz")
        var bytes = original
        bytes.replaceSubrange(stsz + 4..<stsz + 8, with: MP3Builder.be32(.max))
        let starts = chapters(bytes)?.map(\.startMs)
        #expect(starts == Self.expected.map(\.startMs))
        let (unchunked, stsc) = try book(.chapterTrackOnly, box: "stsc")
        var chunked = unchunked
        chunked.replaceSubrange(stsc + 12..<stsc + 16, with: MP3Builder.be32(.max))
        #expect(chapters(chunked)?.map(\.startMs) == Self.expected.map(\.startMs))
    }

    @Test func anUnusableChapterTrackFallsBackToNeroChapters() throws {
        let (original, stts) = try book(.both, box: "stts")
        var bytes = original
        // Every sample at time 0: one start, no skip point.
        bytes.replaceSubrange(stts + 12..<stts + 16, with: MP3Builder.be32(0))
        #expect(chapters(bytes) == Self.expected)
    }

    @Test func aChplClaiming255EntriesInAShortBoxGivesTheEntriesItHolds() throws {
        let (original, chpl) = try book(.neroOnly, box: "chpl")
        var bytes = original
        #expect(chapters(bytes) == Self.expected)
        bytes[chpl + 8] = 255
        #expect(chapters(bytes) == Self.expected)
    }
}
