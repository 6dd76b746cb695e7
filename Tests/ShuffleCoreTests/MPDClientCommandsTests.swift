import ShuffleCore
import Testing

/// A playing backend with a three-track cycle, recording the actions it is asked for.
private struct QueueBackend: MPDBackend {
    var songs: [Int64: SongInfo] = [
        7: SongInfo(
            id: 7, path: "a/seven.mp3", title: "Seven", artist: "Ann", album: "Numbers", durationMs: 200_000,
            albumArtist: "Various", genre: "Pop", track: 3, disc: 1, year: 2001),
        3: SongInfo(id: 3, path: "b/three.mp3", title: "Three", artist: "Bob", album: "Numbers", durationMs: 90_000),
        5: SongInfo(id: 5, path: "c/five.mp3", title: "Five", artist: "Cat", durationMs: 60_000),
    ]
    var order: [Int64] = [3, 7, 5]
    var cursor = 1
    var version = 4
    var performed: [PlayerAction] = []

    func snapshot() -> PlayerSnapshot {
        var snapshot = PlayerSnapshot(
            state: .playing, track: songs[order[cursor]], positionMs: 1_000, volume: 10, maxVolume: 20,
            volumeSteps: 20, libraryRoot: "/media/A", tracks: order.count, queuePosition: cursor, sampleRate: 44100,
            channels: 2)
        snapshot.queueVersion = version
        if cursor + 1 < order.count { snapshot.nextSong = QueueEntry(position: cursor + 1, id: order[cursor + 1]) }
        return snapshot
    }

    mutating func perform(_ action: PlayerAction) -> MPDError? {
        performed.append(action)
        return nil
    }

    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] { [] }
    func queue() -> MPDQueue? { MPDQueue(version: version, ids: order, cursor: cursor) }
    func song(id: Int64) -> SongInfo? { songs[id] }
}

@Suite struct MPDClientCommandsTests {
    private func run(_ line: String, _ backend: inout QueueBackend, _ session: inout MPDSession) -> String {
        session.receive(line: Array(line.utf8), backend: &backend).text
    }

    /// What clients send right after connecting (ncmpcpp, Cantata, M.A.L.P., myMPD, ympd, python-mpd2):
    /// each answers as MPD does for a one-output, shuffle-only player.
    @Test(arguments: [
        ("outputs", "outputid: 0\noutputname: Shufflebox ALSA output\nplugin: alsa\noutputenabled: 1\nOK\n"),
        ("decoders", "plugin: mpg123\nsuffix: mp3\nmime_type: audio/mpeg\nOK\n"),
        ("urlhandlers", "OK\n"),
        ("channels", "OK\n"),
        ("listplaylists", "OK\n"),
        ("listpartitions", "partition: default\nOK\n"),
        ("binarylimit 1048576", "OK\n"),
        ("replay_gain_status", "replay_gain_mode: off\nOK\n"),
        ("getvol", "volume: 50\nOK\n"),
        ("clearerror", "OK\n"),
        ("random 1", "OK\n"),
        ("repeat 1", "OK\n"),
        ("single 0", "OK\n"),
        ("consume 0", "OK\n"),
        ("enableoutput 0", "OK\n"),
        ("partition default", "OK\n"),
        ("crossfade 0", "OK\n"),
        ("update", "updating_db: 1\nOK\n"),
        ("rescan music", "updating_db: 1\nOK\n"),
    ])
    func connectCommandsAnswerAsMPDWould(_ line: String, _ expected: String) {
        var backend = QueueBackend()
        var session = MPDSession()
        #expect(run(line, &backend, &session) == expected)
    }

    @Test(arguments: [
        ("random 0", "ACK [2@0] {random} this is a shuffle player"),
        ("repeat 0", "ACK [2@0] {repeat} this is a shuffle player"),
        ("single 1", "ACK [2@0] {single} this is a shuffle player"),
        ("single oneshot", "ACK [2@0] {single} this is a shuffle player"),
        ("consume 1", "ACK [2@0] {consume} this is a shuffle player"),
        ("random banana", "ACK [2@0] {random} Boolean (0/1) expected"),
        ("enableoutput 3", "ACK [50@0] {enableoutput} No such audio output"),
        ("listplaylist x", "ACK [50@0] {listplaylist} No such playlist"),
        ("binarylimit 10", "ACK [2@0] {binarylimit}"),
        ("add a/seven.mp3", "ACK [52@0] {add} this is a shuffle player"),
        ("clear", "ACK [52@0] {clear} this is a shuffle player"),
        ("delete 0", "ACK [52@0] {delete}"),
        ("move 0 1", "ACK [52@0] {move}"),
        ("play 9", "ACK [50@0] {play} Bad song index"),
        ("playid 99", "ACK [50@0] {playid} No such song"),
        ("seek 0 10", "ACK [50@0] {seek} only the current song"),
    ])
    func whatThisPlayerCannotDoIsAClearACK(_ line: String, _ prefix: String) {
        var backend = QueueBackend()
        var session = MPDSession()
        let answer = run(line, &backend, &session)
        #expect(answer.hasPrefix(prefix), "\(answer)")
        #expect(answer.hasSuffix("\n") && answer.split(separator: "\n").count == 1)
    }

    @Test func tagTypesCanBeClearedEnabledDisabledAndRestoredAndSongListsFollow() {
        var backend = QueueBackend()
        var session = MPDSession()
        let all = run("tagtypes", &backend, &session)
        #expect(
            all
                == "tagtype: Title\ntagtype: Artist\ntagtype: Album\ntagtype: AlbumArtist\ntagtype: Track\n"
                + "tagtype: Disc\ntagtype: Genre\ntagtype: Date\nOK\n")
        #expect(run("currentsong", &backend, &session).contains("AlbumArtist: Various\n"))
        #expect(run("tagtypes clear", &backend, &session) == "OK\n")
        #expect(run("tagtypes", &backend, &session) == "OK\n")
        #expect(
            run("currentsong", &backend, &session)
                == "file: a/seven.mp3\nTime: 200\nduration: 200.000\nPos: 1\nId: 7\nOK\n")
        #expect(run("tagtypes enable Artist title MUSICBRAINZ_TRACKID", &backend, &session) == "OK\n")
        #expect(run("tagtypes", &backend, &session) == "tagtype: Title\ntagtype: Artist\nOK\n")
        #expect(run("tagtypes disable Title", &backend, &session) == "OK\n")
        #expect(run("currentsong", &backend, &session).hasPrefix("file: a/seven.mp3\nArtist: Ann\nTime: 200\n"))
        #expect(run("tagtypes all", &backend, &session) == "OK\n")
        #expect(run("tagtypes", &backend, &session) == all)
        #expect(run("tagtypes enable", &backend, &session).hasPrefix("ACK [2@0] {tagtypes}"))
        // Each connection has its own choice.
        var other = MPDSession()
        _ = run("tagtypes clear", &backend, &session)
        #expect(run("tagtypes", &backend, &other) == all)
    }

    @Test func theQueueIsTheCycleWithPositionsAndIdsThatAgreeWithStatus() {
        var backend = QueueBackend()
        var session = MPDSession()
        let status = run("status", &backend, &session)
        for line in [
            "song: 1\n", "songid: 7\n", "nextsong: 2\n", "nextsongid: 5\n", "playlistlength: 3\n",
            "playlist: 4\n",
        ] {
            #expect(status.contains(line), "\(status)")
        }
        let info = run("playlistinfo", &backend, &session)
        #expect(info.components(separatedBy: "file: ").count == 4)
        #expect(info.contains("file: b/three.mp3\nTitle: Three\nArtist: Bob\nAlbum: Numbers\nTime: 90\n"))
        #expect(
            info.contains("Pos: 0\nId: 3\n") && info.contains("Pos: 1\nId: 7\n") && info.contains("Pos: 2\nId: 5\n"))
        #expect(run("playlistinfo 1", &backend, &session).hasPrefix("file: a/seven.mp3\n"))
        #expect(run("playlistinfo 1:", &backend, &session).components(separatedBy: "file: ").count == 3)
        #expect(run("playlistinfo 0:1", &backend, &session).components(separatedBy: "file: ").count == 2)
        #expect(run("playlistinfo 5", &backend, &session).hasPrefix("ACK [2@0] {playlistinfo} Bad song index"))
        #expect(run("playlistid 5", &backend, &session).contains("Pos: 2\nId: 5\n"))
        #expect(
            run("playlist", &backend, &session) == "0:file: b/three.mp3\n1:file: a/seven.mp3\n2:file: c/five.mp3\nOK\n")
        // plchanges: nothing since this version, everything since any other.
        #expect(run("plchanges 4", &backend, &session) == "OK\n")
        #expect(run("plchanges 0", &backend, &session) == info)
        #expect(run("plchangesposid 1", &backend, &session) == "cpos: 0\nId: 3\ncpos: 1\nId: 7\ncpos: 2\nId: 5\nOK\n")
        #expect(run("playlistfind artist Bob", &backend, &session).contains("Pos: 0\nId: 3\n"))
        #expect(run("playlistfind artist bob", &backend, &session) == "OK\n")
        let found = run("playlistsearch album numb", &backend, &session)
        #expect(found.contains("Id: 3\n") && found.contains("Id: 7\n") && !found.contains("Id: 5\n"))
        #expect(run("playlistsearch any five", &backend, &session).contains("Id: 5\n"))
    }

    @Test func playAPlaceOrAnIdSeekAndShuffleBecomeActions() {
        var backend = QueueBackend()
        var session = MPDSession()
        for line in [
            "play 2", "playid 3", "play 1", "playid 7", "play -1", "seekcur 30", "seekcur +5", "seekcur -2.5",
            "seek 1 12.25", "seekid 7 4", "shuffle", "disableoutput 0", "enableoutput 0", "toggleoutput 0",
        ] {
            #expect(run(line, &backend, &session) == "OK\n", "\(line)")
        }
        #expect(
            backend.performed == [
                .playPosition(2), .playPosition(0), .play, .play, .play, .seekTo(ms: 30_000), .seek(byMs: 5_000),
                .seek(byMs: -2_500), .seekTo(ms: 12_250), .seekTo(ms: 4_000), .reshuffle,
                .setOutput(enabled: false), .setOutput(enabled: true), .setOutput(enabled: false),
            ])
    }

    @Test func commandsListsWhatClientsAskAtConnectAndNoEditingCommand() {
        var backend = QueueBackend()
        var session = MPDSession()
        let out = run("commands", &backend, &session)
        for name in [
            "outputs", "decoders", "tagtypes", "plchanges", "playlistinfo", "listpartitions", "binarylimit",
            "channels", "urlhandlers", "getvol", "seekcur", "playlistid", "shuffle",
        ] {
            #expect(out.contains("command: \(name)\n"), "\(name)")
        }
        #expect(!out.contains("command: add\n"))
    }
}
