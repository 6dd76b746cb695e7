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
