import Foundation
import MediaProbe
import ShuffleCore
import Testing

/// The small committed story files (`Fixtures/chapters`, made by FFmpeg and flagged by mutagen; also seeds of
/// `make fuzz`), read without any tool installed.
@Suite struct ChapterFixtureTests {
    static let chapters = [
        Chapter(startMs: 0, title: "Eins"), Chapter(startMs: 300, title: "Zwei – ü"), Chapter(startMs: 600, title: "三"),
    ]

    /// The tags of the committed file `name`.
    func tags(_ name: String) -> TagInfo? {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/chapters/\(name)").path
        guard case .audio(let tags, _) = MediaProbe.probe(path: PathBytes(path)) else {
            Issue.record("\(name) is not audio")
            return nil
        }
        return tags
    }

    @Test(arguments: ["book-both.m4b", "book-v23.mp3", "book-v24.mp3"])
    func everyBookHasItsThreeChapters(_ name: String) {
        let tags = tags(name)
        #expect(tags?.chapters == Self.chapters)
        #expect(tags?.title == "Tiny Book")
        #expect(tags?.story == (name.hasSuffix(".m4b") ? .audiobook : nil))
    }

    @Test(arguments: ["podcast-pcst.m4a", "podcast-pcst.mp3"])
    func everyFlaggedEpisodeIsAPodcast(_ name: String) {
        #expect(tags(name)?.story == .podcast)
        #expect(tags(name)?.chapters == [])
    }
}
