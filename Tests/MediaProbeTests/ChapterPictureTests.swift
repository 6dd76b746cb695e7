import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Audiobooks from iTunes and the tools that feed it carry a picture per chapter as a video track that the
/// sound track names in its `tref/chap`: such a file is still audio. A video track nothing names as chapters
/// makes a file a video, as before. FFmpeg writes no picture track; its chapter text track, made a video track
/// by its handler (`hdlr` `text` → `vide`), stands in for one.
@Suite(.enabled(if: StoryFixtures.missingTool == nil, "needs ffmpeg and python3-mutagen"))
struct ChapterPictureTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory(prefix: "chapter-pictures") }

    /// An `.m4b` of two chapters whose chapter track's handler says `vide`; `named` false also takes the
    /// sound track's `tref` away, so that nothing names the video track.
    func book(named: Bool) throws -> PathBytes {
        let url = folder.url.appendingPathComponent(named ? "named.m4b" : "unnamed.m4b")
        try StoryFixtures.m4bBook(at: url, chapters: ["One", "Two"], style: .chapterTrackOnly)
        var bytes = try Data(contentsOf: url)
        func replace(_ old: String, _ new: String, after marker: String, at offset: Int) throws {
            var place: Int?
            var from = bytes.startIndex
            while place == nil, let found = bytes.range(of: Data(marker.utf8), in: from..<bytes.endIndex) {
                let at = found.lowerBound + offset
                if at + 4 <= bytes.endIndex, bytes[at..<at + 4] == Data(old.utf8) { place = at }
                from = found.upperBound
            }
            let start = try #require(place, "no \(marker) \(old)")
            bytes.replaceSubrange(start..<start + 4, with: Data(new.utf8))
        }
        try replace("text", "vide", after: "hdlr", at: 12)
        if !named { try replace("tref", "free", after: "tref", at: 0) }
        try bytes.write(to: url)
        return PathBytes(url.path)
    }

    @Test func aVideoTrackTheSoundNamesAsItsChaptersLeavesTheBookAudio() throws {
        guard case .audio(let tags, let stream) = MediaProbe.probe(path: try book(named: true)) else {
            Issue.record("an audiobook with a chapter picture track is not audio")
            return
        }
        #expect(tags.story == .audiobook)
        #expect(stream.codec == "aac")
    }

    @Test func aVideoTrackNothingNamesMakesTheFileAVideo() throws {
        #expect(MediaProbe.probe(path: try book(named: false)) == .notAudio)
    }
}
