import Foundation
import ShuffleTestSupport
import Testing

/// The files behind the songs, as MPD clients fetch them. Covers: `albumart` (the picture file in the song's folder) and `readpicture`
/// (the picture in the song's tags), through Debian's `mpc` and python-mpd2 against a real daemon and stick,
/// every byte as it was put on the stick, in chunks of the client's `binarylimit`.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canMount && FileManager.default.fileExists(atPath: "/usr/bin/mpc")
            && DaemonHarness.hasPythonMPD && ExternalTool.find("lame") != nil && ExternalTool.find("flac") != nil
            && ExternalTool.find("ffmpeg") != nil,
        "needs root (mount), mpc, python3-mpd, lame, flac and ffmpeg"))
struct MPDPictureTests {
    let stick: TemporaryDirectory
    let daemon: DaemonHarness

    init() throws {
        stick = try TemporaryDirectory(prefix: "pictures-stick")
        daemon = try DaemonHarness()
        let work = daemon.directory
        let ffmpeg = ExternalTool.find("ffmpeg")!
        for (name, size) in [("front.jpg", "320x240"), ("folder.png", "200x200")] {
            let made = try Run.program(
                ffmpeg,
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(size)", "-frames:v", "1",
                    work.appending(name).path,
                ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let tone = work.appending("tone.wav").path
        _ = try Run.program(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=duration=20", "-ac", "2", tone])
        for folder in ["Album A", "Album B", "Album C"] {
            try FileManager.default.createDirectory(at: stick.appending(folder), withIntermediateDirectories: true)
        }
        func run(_ tool: String, _ arguments: [String]) throws {
            let result = try Run.program(ExternalTool.find(tool) ?? "/usr/bin/" + tool, arguments)
            #expect(result.status == 0, "\(tool): \(result.stderr)")
        }
        // A: an embedded front cover and, beside it, a folder picture named as Windows names it.
        try run(
            "lame",
            [
                "--quiet", "--tt", "With both", "--ti", work.appending("front.jpg").path, tone,
                stick.appending("Album A/song.mp3").path,
            ])
        try FileManager.default.copyItem(at: work.appending("folder.png"), to: stick.appending("Album A/Folder.PNG"))
        // B: no picture anywhere.
        try run("lame", ["--quiet", "--tt", "Bare", tone, stick.appending("Album B/plain.mp3").path])
        try run("touch", ["-d", "@1614834367", stick.appending("Album B/plain.mp3").path])
        // C: a FLAC with its picture block, no folder picture.
        try run(
            "flac",
            [
                "--silent", "--picture=\(work.appending("front.jpg").path)", "-T", "TITLE=Lossless", "-o",
                stick.appending("Album C/art.flac").path, tone,
            ])
    }

    var front: Data { (try? Data(contentsOf: daemon.directory.appending("front.jpg"))) ?? Data() }
    var folder: Data { (try? Data(contentsOf: daemon.directory.appending("folder.png"))) ?? Data() }

    func startPlaying() throws {
        try daemon.start()
        try daemon.plug(stick.url)
        #expect(
            DaemonHarness.wait(seconds: 20) { daemon.queueIsComplete(tracks: 3) }, "\(daemon.log.suffix(2000))")
        _ = try daemon.mpc(["pause"])
    }

    @Test func mpcFetchesTheFolderPictureAndTheEmbeddedOne() throws {
        defer { stick.remove() }
        try startPlaying()
        let albumArt = try daemon.mpc(["albumart", "Album A/song.mp3"])
        #expect(albumArt.status == 0, "\(albumArt.stderr)")
        #expect(albumArt.stdoutData == folder, "Folder.PNG, byte for byte (\(albumArt.stdoutData.count) bytes)")
        let embedded = try daemon.mpc(["readpicture", "Album A/song.mp3"])
        #expect(embedded.status == 0, "\(embedded.stderr)")
        #expect(embedded.stdoutData == front, "the APIC frame's picture (\(embedded.stdoutData.count) bytes)")
        let flac = try daemon.mpc(["readpicture", "Album C/art.flac"])
        #expect(flac.stdoutData == front, "the FLAC PICTURE block")
        // No folder picture: MPD's own answer; no embedded picture: an empty success.
        let none = try daemon.mpc(["albumart", "Album C/art.flac"])
        #expect(none.status != 0 && none.stderr.contains("No file exists"), "\(none.stderr)")
        // mpc prints "No data" for the empty success; the protocol's answer is OK alone.
        let bare = daemon.raw(Array("readpicture \"Album B/plain.mp3\" 0\nclose\n".utf8))
        #expect(bare.hasPrefix("OK MPD ") && bare.hasSuffix("\nOK\n") && !bare.contains("binary:"), "\(bare)")
        #expect(daemon.stop() == 0)
    }

    /// Every song list carries the file's time as MPD writes it; so does the song playing.
    @Test func songsCarryTheirFilesLastModifiedTime() throws {
        defer { stick.remove() }
        try startPlaying()
        let listed = daemon.raw(Array("lsinfo \"Album B\"\nplaylistinfo\ncurrentsong\nclose\n".utf8))
        #expect(listed.contains("file: Album B/plain.mp3\nLast-Modified: 2021-03-04T05:06:07Z\n"), "\(listed)")
        let stamps = listed.split(separator: "\n").filter { $0.hasPrefix("Last-Modified: ") }
        #expect(stamps.count == 1 + 3 + 1, "lsinfo, the queue's three, the current song: \(listed)")
        #expect(daemon.stop() == 0)
    }

    /// python-mpd2 at the smallest `binarylimit` (64 bytes: hundreds of chunks), a folder as the URI, the
    /// picture's MIME type; and what is not a song of the stick is refused, whatever the path says.
    @Test func pythonMPD2ReadsInSmallChunksAndPathsOutsideTheStickAreRefused() throws {
        defer { stick.remove() }
        try startPlaying()
        let script = #"""
            import base64, json, sys, mpd
            # python-mpd2 3.0 (Debian 12) has no binarylimit of its own: taught it, as a command without an answer.
            if not hasattr(mpd.MPDClient, "binarylimit"):
                mpd.MPDClient.add_command("binarylimit", mpd.MPDClient._parse_nothing)
            c = mpd.MPDClient()
            c.timeout = 20
            c.connect(sys.argv[1])
            c.binarylimit(64)
            out = {}
            art = c.albumart("Album A/song.mp3")
            out["albumart"] = base64.b64encode(art["binary"]).decode()
            out["folder"] = base64.b64encode(c.albumart("Album A")["binary"]).decode()
            pic = c.readpicture("Album A/song.mp3")
            out["readpicture"] = base64.b64encode(pic["binary"]).decode()
            out["type"] = pic.get("type")
            def refused(call):
                try:
                    call()
                    return None
                except mpd.CommandError as error:
                    return str(error)
            out["escape"] = refused(lambda: c.albumart("../../../etc/passwd"))
            out["absolute"] = refused(lambda: c.readpicture("/etc/passwd"))
            out["folder_readpicture"] = refused(lambda: c.readpicture("Album A"))
            out["status"] = c.status()["state"]
            print(json.dumps(out))
            """#
        let file = daemon.directory.appending("client.py")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let result = try Run.program("/usr/bin/python3", [file.path, daemon.socket])
        #expect(result.status == 0, "\(result.stderr)\n\(daemon.log.suffix(2000))")
        let out = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        func decoded(_ key: String) -> Data { Data(base64Encoded: out[key] as? String ?? "") ?? Data() }
        #expect(decoded("albumart") == folder)
        // The first chunk as MPD sends it: the whole size, then this chunk's length (the default 8 KiB).
        let head = daemon.raw(Array("albumart \"Album A/song.mp3\" 0\nclose\n".utf8))
        #expect(head.contains("\nsize: \(folder.count)\nbinary: \(min(8192, folder.count))\n"), "\(head.prefix(80))")
        #expect(decoded("folder") == folder, "a folder of the stick as the URI")
        #expect(decoded("readpicture") == front)
        #expect(out["type"] as? String == "image/jpeg")
        #expect((out["escape"] as? String)?.contains("No such song or folder") == true, "\(out)")
        #expect((out["absolute"] as? String)?.contains("No such song") == true, "\(out)")
        #expect((out["folder_readpicture"] as? String)?.contains("No such song") == true, "\(out)")
        let pastEnd = daemon.raw(Array("albumart \"Album A/song.mp3\" 1000000000\nclose\n".utf8))
        #expect(pastEnd.contains("ACK [2@0] {albumart} Offset too large"), "\(pastEnd)")
        #expect(out["status"] as? String == "pause", "the connection answers on")
        #expect(daemon.stop() == 0)
    }
}
