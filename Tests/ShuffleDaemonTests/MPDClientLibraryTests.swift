import Foundation
import ShuffleTestSupport
import Testing

extension DaemonHarness {
    /// Whether Debian's python3-mpd (python-mpd2) is installed for the system Python.
    static var hasPythonMPD: Bool { (try? Run.program("/usr/bin/python3", ["-c", "import mpd"]).status) == 0 }

    /// Whether indexing is over and the queue lists `tracks` songs (the listing is read).
    func queueIsComplete(tracks: Int) -> Bool {
        let answer = raw(Array("status\nplaylistinfo\nclose\n".utf8), seconds: 10)
        return !answer.contains("updating_db: 1") && answer.contains("playlistlength: \(tracks)\n")
            && answer.components(separatedBy: "\nId: ").count == tracks + 1
    }
}

/// A real client library, python-mpd2 (Debian's `python3-mpd`), and Debian's `mpc` replay what Cantata,
/// M.A.L.P. and ncmpcpp send at connect and on their main screens, against a real daemon playing a real
/// stick: every command answers as MPD would for a shuffle player whose queue is its cycle.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canMount && TestLibrary.isAvailable && PacedSink.isAvailable
            && FileManager.default.fileExists(atPath: "/usr/bin/mpc") && DaemonHarness.hasPythonMPD,
        "needs root (mount), lame, pulseaudio, mpc and python3-mpd"))
struct MPDClientLibraryTests {
    /// The client side: the connect sequences (Cantata's `connectToMPD`/`getStatus`/`playListChanges`,
    /// M.A.L.P.'s `MPDConnection`/`MPDInterface`), then the main screen's actions. Prints one JSON object.
    static let script = #"""
        import json, sys, time, mpd

        c = mpd.MPDClient()
        c.timeout = 10
        c.connect(sys.argv[1])
        out = {"version": c.mpd_version}

        def refused(call):
            try:
                call()
                return None
            except mpd.CommandError as error:
                return str(error)

        # Cantata and M.A.L.P. at connect.
        for name in ["commands", "notcommands", "tagtypes", "urlhandlers", "outputs", "listpartitions",
                     "replay_gain_status", "channels", "decoders", "listplaylists", "status", "stats"]:
            out[name] = getattr(c, name)()
        out["plchangesposid"] = c.plchangesposid(0)
        out["playlistinfo"] = c.playlistinfo()
        out["window"] = c.playlistinfo("0:2")
        out["currentsong"] = c.currentsong()
        out["plchanges_now"] = c.plchanges(out["status"]["playlist"])
        c.random(1); c.repeat(1); c.single(0); c.consume(0)
        out["random0"] = refused(lambda: c.random(0))
        out["single1"] = refused(lambda: c.single(1))
        out["clear"] = refused(lambda: c.clear())
        out["add"] = refused(lambda: c.add("x.mp3"))
        c.tagtypes("clear")
        out["tagtypes_cleared"] = c.tagtypes()
        out["bare_song"] = c.currentsong()
        c.tagtypes("all")

        # The main screen: play a place of the queue, by id, seek, reshuffle.
        c.play(2)
        for _ in range(200):
            if c.status().get("song") == "2": break
            time.sleep(0.05)
        out["after_play2"] = c.status()
        out["after_play2_song"] = c.currentsong()
        target = out["playlistinfo"][4]["id"]
        c.playid(target)
        for _ in range(200):
            if c.status().get("songid") == target: break
            time.sleep(0.05)
        out["after_playid"] = c.status()
        c.seekcur(3)
        time.sleep(0.3)
        out["after_seek"] = c.status()
        before = c.status()["playlist"]
        c.shuffle()
        for _ in range(200):
            now = c.status()
            if now["playlist"] != before and now.get("song") == "0": break
            time.sleep(0.05)
        out["after_shuffle"] = c.status()
        out["after_shuffle_queue"] = c.playlistinfo()
        out["plchanges_old"] = len(c.plchanges(before))

        # The library screens: folders, tag lists (M.A.L.P.'s albums by album artist), counts, filters.
        out["lsinfo"] = c.lsinfo()
        first_folder = [e["directory"] for e in out["lsinfo"] if "directory" in e][0]
        out["lsinfo_folder"] = c.lsinfo(first_folder)
        out["listall"] = c.listall()
        out["albums"] = c.list("album", "group", "albumartist")
        out["artists"] = c.list("artist")
        title = out["playlistinfo"][0]["title"]
        out["find_title"] = c.find("(title == \"%s\")" % title.replace("\\", "\\\\").replace('"', '\\"'))
        out["search_any"] = c.search("any", title[:3].lower())
        out["count_all"] = c.count("(base \"\")")
        out["stats_end"] = c.stats()
        # Update: an incremental index run, seen in status until it ends, heard by idle both ways.
        out["update"] = c.update()
        out["updating"] = c.status().get("updating_db")
        for _ in range(200):
            if "updating_db" not in c.status(): break
            time.sleep(0.05)
        out["updated"] = c.status().get("updating_db")
        print(json.dumps(out))
        """#

    @Test func pythonMPD2ReplaysTheConnectAndMainScreenSequences() throws {
        let (daemon, sink, _) = try DaemonHarness.playingOnPacedSink()
        defer { try? sink.stop() }
        let scriptFile = daemon.directory.appending("client.py")
        try Self.script.write(to: scriptFile, atomically: true, encoding: .utf8)
        // The queue's tags come from the listing, read in the background once the stick plays.
        // The stick plays from its first track found; wait until the index run is over and the queue whole.
        #expect(DaemonHarness.wait(seconds: 10) { daemon.queueIsComplete(tracks: 6) }, "\(daemon.log)")
        let result = try Run.program("/usr/bin/python3", [scriptFile.path, daemon.socket])
        #expect(result.status == 0, "\(result.stderr)\n\(daemon.log)")
        let object = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        let out = try #require(object)

        #expect(out["version"] as? String == "0.23.0")
        let commands = out["commands"] as? [String] ?? []
        for name in ["outputs", "plchanges", "playlistinfo", "channels", "binarylimit", "urlhandlers", "tagtypes"] {
            #expect(commands.contains(name), "\(name)")
        }
        #expect(
            out["tagtypes"] as? [String] == [
                "Title", "Artist", "Album", "AlbumArtist", "Track", "Disc", "Genre", "Date",
            ])
        #expect((out["urlhandlers"] as? [Any])?.isEmpty == true)
        let outputs = out["outputs"] as? [[String: String]] ?? []
        #expect(outputs.count == 1 && outputs.first?["outputenabled"] == "1" && outputs.first?["outputid"] == "0")
        #expect((out["listpartitions"] as? [[String: String]])?.first?["partition"] == "default")
        #expect((out["replay_gain_status"] as? String) == "track", "the default mode, normalised by track")
        #expect((out["decoders"] as? [[String: Any]])?.first?["plugin"] as? String == "mpg123")
        // A stick without a shufflebox.txt has one station, the whole stick, as a stored playlist.
        let playlists = (out["listplaylists"] as? [[String: String]])?.map { $0["playlist"] }
        #expect(playlists == ["All"], "\(String(describing: out["listplaylists"]))")

        // The queue is the cycle: six tracks, positions and ids agreeing with status and currentsong.
        let status = out["status"] as? [String: String] ?? [:]
        let queue = out["playlistinfo"] as? [[String: String]] ?? []
        #expect(queue.count == 6)
        #expect(status["playlistlength"] == "6")
        #expect(queue.map { $0["pos"] } == (0..<6).map { String($0) })
        let song = Int(status["song"] ?? "") ?? -1
        #expect(queue.indices.contains(song) && queue[song]["id"] == status["songid"])
        let current = out["currentsong"] as? [String: String] ?? [:]
        #expect(current["id"] == status["songid"] && current["pos"] == status["song"])
        #expect(current["title"] != nil && current["file"] != nil)
        if song + 1 < queue.count {
            #expect(status["nextsong"] == String(song + 1) && status["nextsongid"] == queue[song + 1]["id"])
        }
        let positions = out["plchangesposid"] as? [[String: String]] ?? []
        #expect(positions.map { $0["id"] } == queue.map { $0["id"] })
        #expect((out["window"] as? [Any])?.count == 2)
        #expect((out["plchanges_now"] as? [Any])?.isEmpty == true)
        let stats = out["stats"] as? [String: String] ?? [:]
        #expect(stats["songs"] == "6" && (Int(stats["db_playtime"] ?? "") ?? 0) >= 40)

        // Shuffle-only: the matching values are accepted, the rest is a clear ACK; the queue cannot be edited.
        #expect((out["random0"] as? String)?.contains("this is a shuffle player") == true)
        #expect((out["single1"] as? String)?.contains("this is a shuffle player") == true)
        #expect((out["clear"] as? String)?.contains("cannot be edited") == true)
        #expect((out["add"] as? String)?.contains("cannot be edited") == true)
        #expect((out["tagtypes_cleared"] as? [Any])?.isEmpty == true)
        let bare = out["bare_song"] as? [String: String] ?? [:]
        #expect(bare["title"] == nil && bare["file"] != nil)

        // Playing a place and an id, seeking, and a new cycle.
        let afterPlay = out["after_play2"] as? [String: String] ?? [:]
        #expect(
            afterPlay["song"] == "2" && afterPlay["songid"] == queue[2]["id"] && afterPlay["state"] == "play",
            "\(afterPlay)")
        #expect((out["after_play2_song"] as? [String: String])?["file"] == queue[2]["file"])
        #expect((out["after_playid"] as? [String: String])?["songid"] == queue[4]["id"])
        let elapsed = Double((out["after_seek"] as? [String: String])?["elapsed"] ?? "") ?? 0
        #expect(elapsed >= 3 && elapsed < 6, "elapsed \(elapsed) after seekcur 3")
        let shuffled = out["after_shuffle"] as? [String: String] ?? [:]
        let newQueue = out["after_shuffle_queue"] as? [[String: String]] ?? []
        #expect(shuffled["playlist"] != status["playlist"] && shuffled["song"] == "0", "\(shuffled)")
        #expect(shuffled["songid"] == newQueue.first?["id"])
        #expect(Set(newQueue.compactMap { $0["id"] }) == Set(queue.compactMap { $0["id"] }), "the same tracks")
        #expect(out["plchanges_old"] as? Int == 6)

        // The library: folders down to the songs, tag lists, a filter finding a title, counts.
        let top = out["lsinfo"] as? [[String: Any]] ?? []
        #expect(!top.isEmpty && top.allSatisfy { $0["directory"] != nil || $0["file"] != nil || $0["playlist"] != nil })
        // The root lists the stations as MPD lists stored playlists there (what `mpc lsplaylists` reads).
        #expect(top.compactMap { $0["playlist"] as? String } == ["All"])
        let inFolder = out["lsinfo_folder"] as? [[String: Any]] ?? []
        #expect(!inFolder.isEmpty)
        let files = (out["listall"] as? [[String: String]] ?? []).compactMap { $0["file"] }
        #expect(Set(files) == Set(queue.compactMap { $0["file"] }), "listall lists the stick's songs")
        let albums = out["albums"] as? [[String: Any]] ?? []
        #expect(!albums.isEmpty, "list album group albumartist")
        let artists = out["artists"] as? [[String: String]] ?? []
        #expect(Set(artists.compactMap { $0["artist"] }) == Set(queue.compactMap { $0["artist"] }))
        let found = out["find_title"] as? [[String: String]] ?? []
        #expect(found.contains { $0["file"] == queue[0]["file"] }, "find (title == ...)")
        #expect(!(out["search_any"] as? [Any] ?? []).isEmpty)
        #expect((out["count_all"] as? [String: String])?["songs"] == "6")
        #expect(out["update"] as? String == "1")
        #expect(out["updated"] is NSNull, "the run ended")
        let statsEnd = out["stats_end"] as? [String: String] ?? [:]
        #expect(statsEnd["artists"] == String(Set(queue.compactMap { $0["artist"] }).count))
        #expect(statsEnd["albums"] == String(Set(queue.compactMap { $0["album"] }).count))
        #expect(daemon.stop() == 0)
    }

    /// A queue of thousands (several MB of `playlistinfo`, which ncmpcpp asks for at connect as
    /// `plchanges 0`) is sent whole on a connection that stays open.
    @Test func aLargeQueueIsListedWholeAndTheConnectionStays() throws {
        let library = try DaemonHarness.library(tracks: 5_000, seconds: 1)
        let daemon = try DaemonHarness()
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        try daemon.start(device: "paced", environment: sink.environment)
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 30) { daemon.queueIsComplete(tracks: 5_000) }, "\(daemon.log.suffix(2000))")
        let client = try MPDConnection(socket: daemon.socket)
        let started = ContinuousClock.now
        let lines = try client.run("plchanges 0")
        let elapsed = ContinuousClock.now - started
        print("plchanges 0 for a 5,000-track queue: \(lines.count) lines in \(elapsed)")
        #expect(lines.filter { $0.hasPrefix("file: ") }.count == 5_000)
        #expect(Set(lines.filter { $0.hasPrefix("Id: ") }).count == 5_000)
        #expect(try client.dictionary("status")["playlistlength"] == "5000", "the same connection still answers")
        // A list this long is sent as the client reads it: a client that asks for it and reads nothing yet
        // holds up nobody, and what it sent after the list is answered after it, in order.
        let reader = try MPDConnection(socket: daemon.socket)
        try reader.send("playlistinfo\nstatus")
        let other = try MPDConnection(socket: daemon.socket)
        #expect(try other.dictionary("status")["playlistlength"] == "5000")
        #expect(try other.run("currentsong").contains { $0.hasPrefix("file: ") })
        let listed = try reader.readAnswer()
        #expect(listed.filter { $0.hasPrefix("Pos: ") } == (0..<5_000).map { "Pos: \($0)" })
        #expect(listed == lines, "the same list as plchanges 0 gave")
        #expect(try reader.readAnswer().contains("playlistlength: 5000"), "then the status sent after it")
        #expect(daemon.stop() == 0)
    }

    /// `mpc` as a user runs it: the queue, playing a place of it, the outputs, the options.
    @Test func mpcListsTheQueueAndPlaysAPlaceOfIt() throws {
        let (daemon, sink, _) = try DaemonHarness.playingOnPacedSink()
        defer { try? sink.stop() }
        #expect(DaemonHarness.wait(seconds: 10) { daemon.queueIsComplete(tracks: 6) }, "\(daemon.log)")
        let playlist = try daemon.mpc(["playlist", "-f", "%position% %file%"]).stdout.split(separator: "\n")
        #expect(playlist.count == 6)
        let third = try daemon.mpc(["play", "3"])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(DaemonHarness.wait(seconds: 5) { (try? daemon.mpc(["current", "-f", "%position%"]).stdout) == "3\n" })
        let status = try daemon.mpc(["status"]).stdout
        #expect(status.contains("[playing] #3/6"), "\(status)")
        #expect(status.contains("repeat: on") && status.contains("random: on") && status.contains("single: off"))
        let outputs = try daemon.mpc(["outputs"]).stdout
        #expect(outputs.contains("Output 1 (Shufflebox ALSA output) is enabled"), "\(outputs)")
        let refused = try daemon.mpc(["random", "off"])
        #expect(refused.status != 0 && refused.stderr.contains("shuffle player"), "\(refused.stderr)")
        #expect(try daemon.mpc(["random", "on"]).status == 0)
        // Browsing: folders, albums, a search by a tag the full-text index does not rank.
        let folders = try daemon.mpc(["ls"]).stdout.split(separator: "\n")
        #expect(!folders.isEmpty)
        let titles = try daemon.mpc(["playlist", "-f", "%title%"]).stdout.split(separator: "\n").map(String.init)
        let title = try #require(titles.first)
        let find = try daemon.mpc(["-f", "%title%", "find", "title", title])
        #expect(find.stdout.split(separator: "\n").contains(Substring(title)), "\(find.stdout) \(find.stderr)")
        let albums = try daemon.mpc(["list", "album"]).stdout
        #expect(!albums.isEmpty)
        let clear = try daemon.mpc(["clear"])
        #expect(clear.status != 0 && clear.stderr.contains("cannot be edited"))
        #expect(daemon.stop() == 0)
    }
}
