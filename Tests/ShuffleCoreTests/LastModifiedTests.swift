import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

/// `Last-Modified`, as MPD writes it (ISO 8601 in UTC), held to GNU `date -u` across the years a stick's
/// files can carry and the edges of the calendar; and carried by every song list, through the compact listing.
@Suite struct LastModifiedTests {
    @Test func everyTimestampIsWhatGNUDateSays() throws {
        var generator = SystemRandomNumberGenerator()
        var seconds: [Int64] = [0, -1, 59, 951_782_400, 951_868_799, 1_614_834_367, 4_102_444_800, 253_402_300_799]
        // FAT's range (1980 to 2107) and well beyond it on both sides.
        seconds += (0..<200).map { _ in Int64.random(in: -2_208_988_800...4_354_819_199, using: &generator) }
        let arguments = seconds.map { "@\($0)" }
        let script = "for s in \"$@\"; do date -u -d \"$s\" +%Y-%m-%dT%H:%M:%SZ; done"
        let result = try Run.program("/bin/sh", ["-c", script, "sh"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = result.stdout.split(separator: "\n").map(String.init)
        #expect(expected.count == seconds.count)
        for (value, date) in zip(seconds, expected) {
            #expect(MPDCommands.utcTimestamp(value) == date, "\(value)")
        }
    }

    @Test func songListsCarryTheFileTimeAndSongsWithoutOneLeaveItOut() {
        let songs = SongList([
            SongInfo(id: 1, path: "a.mp3", durationMs: 1_000, modified: 1_614_834_367),
            SongInfo(id: 2, path: "b.mp3", durationMs: 1_000),
        ])
        #expect(songs[0].modified == 1_614_834_367)
        #expect(songs[1].modified == nil)
        #expect(songs.sortedByPath()[0].modified == 1_614_834_367)
        let listed = MPDCommands.song(songs[0], position: nil)
        #expect(listed.hasPrefix("file: a.mp3\nLast-Modified: 2021-03-04T05:06:07Z\n"), "\(listed)")
        #expect(!MPDCommands.song(songs[1], position: nil).contains("Last-Modified"))
    }
}
