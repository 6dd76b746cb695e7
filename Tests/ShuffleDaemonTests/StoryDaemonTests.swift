import Foundation
import ShuffleTestSupport
import Testing

/// Stories end to end: the real daemon, a stick of real songs and three books (one by its genre tag, one in a
/// folder the stick's `shufflebox.txt` marks, an `.m4b` with chapters), switched by scripted button edges on the qemu board's map,
/// played through the paced sink; kill -9 in a book and in the songs.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canPlayForMPC && ExternalTool.find("ffmpeg") != nil,
        "needs root (mount), lame, pulseaudio, Debian's mpc and ffmpeg"))
struct StoryDaemonTests {
    /// A part's length: short, so that the test reaches a book's end quickly, long enough to seek in.
    static let partSeconds = 12

    /// A stick: 5 songs (20 s), `Stories/Zog/1.mp3`…`4.mp3` tagged Audiobook (album Zog, track N), and
    /// `Marked/Moon/1.mp3`, `2.mp3` without tags, in a folder `shufflebox.txt` marks as stories.
    static func stick(in daemon: DaemonHarness) throws -> (folder: URL, songs: Set<String>) {
        let folder = daemon.directory.appending("story-stick")
        try FileManager.default.copyItem(at: try DaemonHarness.library(tracks: 5, seconds: 20), to: folder)
        var songs: Set<String> = []
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".mp3") { songs.insert(relative) }
        }
        #expect(songs.count == 5)
        func part(_ path: String, frequency: Int, tags: [String]) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            var arguments = [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i",
                "sine=frequency=\(frequency):duration=\(partSeconds):sample_rate=44100", "-ac", "2",
                "-c:a", "libmp3lame", "-b:a", "64k",
            ]
            arguments += tags
            arguments.append(url.path)
            try DaemonHarness.shell("ffmpeg", arguments)
        }
        for number in 1...4 {
            try part(
                "Stories/Zog/\(number).mp3", frequency: 300 + 50 * number,
                tags: ["-metadata", "genre=Audiobook", "-metadata", "album=Zog", "-metadata", "track=\(number)"])
        }
        for number in 1...2 { try part("Marked/Moon/\(number).mp3", frequency: 700 + 50 * number, tags: []) }
        // A one-file book of three 6 s chapters (FFmpeg's chapter track and chpl).
        try StoryFixtures.m4bBook(
            at: folder.appendingPathComponent("Chaptered.m4b"), chapters: ["One", "Two", "Three"],
            secondsPerChapter: 6, title: "Chaptered")
        try "stories = Marked\n".write(
            to: folder.appendingPathComponent("shufflebox.txt"), atomically: true, encoding: .utf8)
        return (folder, songs)
    }

    /// The book `status --json` names, if a story plays.
    static func story(_ daemon: DaemonHarness) -> String? {
        ((try? daemon.status())?["story"] as? [String: Any])?["name"] as? String
    }

    static func position(_ daemon: DaemonHarness) -> Int { (try? daemon.status())?["positionMs"] as? Int ?? -1 }

    static let triple =
        "0 play press\n60 play release\n200 play press\n260 play release\n400 play press\n460 play release\n"
    static let nextBook = "0 volume-up press\n60 volume-up release\n200 volume-up press\n260 volume-up release\n"
    static let next = "0 next press\n60 next release\n"
    static let startOver = "0 previous press\n50 play press\n2300 play release\n2400 previous release\n"
    static let lock = "0 play press\n50 volume-down press\n3300 volume-down release\n3400 play release\n"

    @Test func songsAndBooksKeepTheirOwnPlacesThroughSwitchesKillsAndEnds() throws {
        let daemon = try DaemonHarness()
        let (folder, songs) = try Self.stick(in: daemon)
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        let fifo = daemon.directory.appending("buttons.fifo").path
        let arguments = ["--board", "qemu", "--resume-save", "2"]
        let environment = sink.environment.merging(["SHUFFLEBOX_BUTTON_FIFO": fifo]) { $1 }
        try daemon.start(device: "paced", arguments: arguments, environment: environment)
        try daemon.plug(folder)
        let press = { (lines: String) in try DaemonHarness.press(lines, fifo: fifo) }
        func playing(_ book: String?, track: (String) -> Bool, on box: DaemonHarness = daemon) -> Bool {
            DaemonHarness.wait(seconds: 15) {
                box.state() == "playing" && Self.story(box) == book && box.trackPath().map(track) == true
            }
        }

        // The songs play, and only the songs: no story is in their shuffle.
        #expect(playing(nil, track: songs.contains), "\(daemon.log)")
        let queue = try daemon.mpc(["-f", "%file%", "playlist"]).stdout.split(separator: "\n").map(String.init)
        #expect(Set(queue) == songs, "the music's queue: \(queue)")
        #expect(try daemon.mpc(["seek", "0:06"]).status == 0)
        #expect(daemon.waitForPosition(over: 6_500), "\(daemon.log)")
        let song = try #require(daemon.trackPath())
        let songPlace = Self.position(daemon)

        // Into the stories: no book played yet, so the first (Chaptered.m4b, by its path); the station gesture
        // goes to the next books, Moon, then Zog, from its first part.
        try press(Self.triple)
        #expect(playing("Chaptered", track: { $0 == "Chaptered.m4b" }), "\(daemon.log)")
        try press(Self.nextBook)
        #expect(playing("Moon", track: { $0 == "Marked/Moon/1.mp3" }), "\(daemon.log)")
        try press(Self.nextBook)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/1.mp3" }), "\(daemon.log)")
        let zogQueue = try daemon.mpc(["-f", "%file%", "playlist"]).stdout.split(separator: "\n").map(String.init)
        #expect(zogQueue == (1...4).map { "Stories/Zog/\($0).mp3" }, "the book's parts, in order")
        // Into its third part, and 3 s into it.
        try press(Self.next)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/2.mp3" }), "\(daemon.log)")
        try press(Self.next)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/3.mp3" }), "\(daemon.log)")
        #expect(daemon.waitForPosition(over: 3_000), "\(daemon.log)")

        // Back to the songs, at their place.
        try press(Self.triple)
        #expect(playing(nil, track: { $0 == song }), "the songs' place was \(song):\n\(daemon.log)")
        let songResumed = Self.position(daemon)
        #expect(abs(songResumed - songPlace) <= 3_000, "songs left at \(songPlace) ms, resumed at \(songResumed) ms")
        let bookLeft = try #require(
            try daemon.sqlite(
                "SELECT position_ms FROM station_playback WHERE station = 'book:Stories/Zog'"
            ).stdout.split(separator: "\n").first.flatMap { Int($0) })

        // Back to the book: where it was, to the second.
        try press(Self.triple)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/3.mp3" }), "\(daemon.log)")
        let bookResumed = Self.position(daemon)
        #expect(abs(bookResumed - bookLeft) <= 1_000, "the book left at \(bookLeft) ms, resumed at \(bookResumed) ms")

        // kill -9 in the book: it resumes in the book, within the save interval.
        #expect(daemon.waitForPosition(over: bookResumed + 2_500), "\(daemon.log)")
        let beforeKill = Self.position(daemon)
        #expect(daemon.stop(SIGKILL) == 128 + SIGKILL)
        let second = try daemon.sibling()
        try second.start(device: "paced", arguments: arguments, environment: environment)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/3.mp3" }, on: second), "\(second.log)")
        let afterKill = Self.position(second)
        #expect(abs(afterKill - beforeKill) <= 4_000, "killed at \(beforeKill) ms, resumed at \(afterKill) ms")

        // kill -9 in the songs: it resumes in the songs.
        try press(Self.triple)
        #expect(playing(nil, track: songs.contains, on: second), "\(second.log)")
        #expect(second.waitForPosition(over: 2_500), "\(second.log)")
        let songBeforeKill = try #require(second.trackPath())
        #expect(second.stop(SIGKILL) == 128 + SIGKILL)
        let third = try daemon.sibling()
        try third.start(device: "paced", arguments: arguments, environment: environment)
        #expect(playing(nil, track: { $0 == songBeforeKill }, on: third), "\(third.log)")

        // A finished book: its last part played to its end, it waits paused at its first part, and plays it.
        try press(Self.triple)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/3.mp3" }, on: third), "\(third.log)")
        try press(Self.next)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/4.mp3" }, on: third), "\(third.log)")
        #expect(try third.mpc(["seek", "0:\(Self.partSeconds - 2)"]).status == 0)
        let ended = DaemonHarness.wait(seconds: 10) {
            third.state() == "paused" && third.trackPath() == "Stories/Zog/1.mp3"
        }
        #expect(ended, "the book did not end at its first part, paused:\n\(third.log)")
        #expect(Self.position(third) < 1_000)
        let finished = try third.sqlite("SELECT finished FROM station_playback WHERE station = 'book:Stories/Zog'")
        #expect(finished.stdout == "1\n", "\(finished.stdout)\(finished.stderr)")
        try press("0 play press\n60 play release\n")
        #expect(playing("Zog", track: { $0 == "Stories/Zog/1.mp3" }, on: third), "\(third.log)")

        // Start over: from part 2 back to the first part's start; under the lock, refused.
        try press(Self.next)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/2.mp3" }, on: third), "\(third.log)")
        #expect(third.waitForPosition(over: 1_500), "\(third.log)")
        try press(Self.startOver)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/1.mp3" }, on: third), "start over:\n\(third.log)")
        try press(Self.next)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/2.mp3" }, on: third), "\(third.log)")

        // A one-file book: next moves by chapter inside it, and status names the chapter.
        #expect(try third.mpc(["load", "Chaptered"]).status == 0)
        #expect(playing("Chaptered", track: { $0 == "Chaptered.m4b" }, on: third), "\(third.log)")
        try press(Self.next)
        let chapterTwo = DaemonHarness.wait(seconds: 5) {
            let chapter = ((try? third.status())?["story"] as? [String: Any])?["chapter"] as? [String: Any]
            return chapter?["title"] as? String == "Two" && (6_000..<10_000).contains(Self.position(third))
        }
        #expect(chapterTwo, "next in chapter one: \(Self.position(third)) ms:\n\(third.log)")
        #expect(third.trackPath() == "Chaptered.m4b")
        #expect(try third.mpc(["load", "Zog"]).status == 0)
        #expect(playing("Zog", track: { $0 == "Stories/Zog/2.mp3" }, on: third), "\(third.log)")
        try press(Self.lock)
        #expect(DaemonHarness.wait(seconds: 8) { third.log.contains("buttons locked") }, "\(third.log)")
        try press(Self.startOver)
        usleep(3_500_000)
        #expect(third.trackPath() == "Stories/Zog/2.mp3", "start over under the lock:\n\(third.log)")
        #expect(third.stop() == 0)
    }
}
