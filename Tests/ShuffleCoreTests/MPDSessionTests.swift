import ShuffleCore
import Testing

/// A backend over a real `DaemonMachine` and a song table.
private struct TableBackend: MPDBackend {
    var machine = DaemonMachine(
        settings: .init(startVolume: 10, maxVolume: 15, volumeSteps: 20, resumePaused: false))
    var songs = [
        SongInfo(id: 1, path: "a/one.mp3", title: "One Love", artist: "Bob", album: "Exodus", durationMs: 180_500),
        SongInfo(id: 2, path: "b/two.mp3", title: "Two", artist: "Björk", album: "Post", durationMs: 60_000),
    ]
    var effects: [DaemonMachine.Effect] = []
    /// Whether searches are answered in the background (as the daemon's are), not waited for.
    var background = false
    var searchesInBackground: Bool { background }

    init(withStick: Bool = true) {
        if withStick {
            _ = machine.handle(
                .started(present: [.init(id: "uuid:A", mountPoint: "/media/A", known: true)], lastPlayed: nil))
        }
    }

    func snapshot() -> PlayerSnapshot {
        let hasTrack = machine.state == .playing || machine.state == .paused
        return PlayerSnapshot(
            state: machine.state, track: hasTrack ? songs[0] : nil, positionMs: 12_345, volume: machine.volume,
            maxVolume: 15, volumeSteps: 20, libraryRoot: "/media/A", tracks: songs.count, queuePosition: 0,
            sampleRate: 44100, channels: 2)
    }

    mutating func perform(_ action: PlayerAction) -> MPDError? {
        let out = machine.handle(.action(action))
        effects += out
        if machine.state == .noLibrary { return MPDError(.noExist, "no library: plug in a stick") }
        return nil
    }

    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] {
        songs.filter { song in
            constraints.allSatisfy { c in
                let fields: [String?] =
                    switch c.field {
                    case .any: [song.title, song.artist, song.album, song.path]
                    case .title: [song.title]
                    case .artist: [song.artist]
                    case .album: [song.album]
                    }
                return fields.contains { field in
                    guard let field else { return false }
                    return exact ? field == c.value : field.lowercased().contains(c.value.lowercased())
                }
            }
        }
    }
}

@Suite struct MPDSessionTests {
    private func run(_ lines: [String], backend: inout TableBackend, session: inout MPDSession) -> String {
        lines.map { session.receive(line: Array($0.utf8), backend: &backend).text }.joined()
    }

    @Test func statusReportsStateVolumeAndTime() {
        var backend = TableBackend()
        var session = MPDSession()
        let out = run(["status"], backend: &backend, session: &session)
        #expect(out.contains("volume: 50\n"))
        #expect(out.contains("state: play\n"))
        #expect(out.contains("songid: 1\n"))
        #expect(out.contains("elapsed: 12.345\n"))
        #expect(out.contains("duration: 180.500\n"))
        #expect(out.contains("time: 12:181\n"))
        #expect(out.hasSuffix("OK\n"))
    }

    @Test func noLibraryIsStopAndPlayIsRefused() {
        var backend = TableBackend(withStick: false)
        var session = MPDSession()
        #expect(run(["status"], backend: &backend, session: &session).contains("state: stop\n"))
        #expect(run(["currentsong"], backend: &backend, session: &session) == "OK\n")
        #expect(
            run(["play"], backend: &backend, session: &session) == "ACK [50@0] {play} no library: plug in a stick\n")
    }

    @Test func pauseTogglesAndSetvolRespectsTheCap() {
        var backend = TableBackend()
        var session = MPDSession()
        #expect(run(["pause"], backend: &backend, session: &session) == "OK\n")
        #expect(backend.machine.state == .paused)
        #expect(run(["pause 0"], backend: &backend, session: &session) == "OK\n")
        #expect(backend.machine.state == .playing)
        #expect(run(["pause 2"], backend: &backend, session: &session).hasPrefix("ACK [2@0] {pause}"))
        #expect(run(["setvol 100"], backend: &backend, session: &session) == "OK\n")
        #expect(backend.machine.volume == 15)  // the cap: 75 %
        #expect(run(["status"], backend: &backend, session: &session).contains("volume: 75\n"))
        #expect(run(["volume -10"], backend: &backend, session: &session) == "OK\n")
        #expect(backend.machine.volume == 13)
        #expect(run(["setvol 101"], backend: &backend, session: &session).hasPrefix("ACK [2@0] {setvol}"))
    }

    @Test func searchAndFind() {
        var backend = TableBackend()
        var session = MPDSession()
        let found = run([#"search artist "björk""#], backend: &backend, session: &session)
        #expect(
            found == "file: b/two.mp3\nTitle: Two\nArtist: Björk\nAlbum: Post\nTime: 60\nduration: 60.000\nId: 2\nOK\n")
        #expect(run(["find title one"], backend: &backend, session: &session) == "OK\n")
        #expect(run([#"find title "One Love""#], backend: &backend, session: &session).contains("Id: 1\n"))
        #expect(run(["search any o title one"], backend: &backend, session: &session).contains("Id: 1\n"))
        #expect(
            run(["search bogus x"], backend: &backend, session: &session).hasPrefix(
                "ACK [2@0] {search} Unknown tag type"))
        #expect(run(["search title"], backend: &backend, session: &session).hasPrefix("ACK [2@0] {search}"))
        // Filter expressions are answered from the listing (none in this backend), not refused.
        #expect(run(["search \"(title == 'x')\""], backend: &backend, session: &session) == "OK\n")
    }

    @Test func commandListsAnswerPerCommandAndStopAtTheFirstError() {
        var backend = TableBackend()
        var session = MPDSession()
        let ok = run(
            ["command_list_ok_begin", "ping", "status", "command_list_end"], backend: &backend, session: &session)
        #expect(ok.hasPrefix("list_OK\nvolume: 50\n"))
        #expect(ok.hasSuffix("list_OK\nOK\n"))
        let plain = run(
            ["command_list_begin", "ping", "ping", "command_list_end"], backend: &backend, session: &session)
        #expect(plain == "OK\n")
        let failing = run(
            ["command_list_ok_begin", "ping", "bogus", "ping", "command_list_end"], backend: &backend, session: &session
        )
        #expect(failing == "list_OK\nACK [5@1] {bogus} unknown command \"bogus\"\n")
        #expect(run(["command_list_end"], backend: &backend, session: &session).hasPrefix("ACK [1@0]"))
        #expect(run(["ping"], backend: &backend, session: &session) == "OK\n")
    }

    /// A search inside a command list is answered in the background like one on its own: the list stops at
    /// it, its answer is sent when the index has answered, and the rest of the list runs after it, its ACKs
    /// numbered by their place in the whole list.
    @Test func aSearchInACommandListIsAnsweredInTheBackgroundAndTheListGoesOn() throws {
        var backend = TableBackend()
        backend.background = true
        var session = MPDSession()
        let lines = ["command_list_ok_begin", "ping", "search title two", "bogus", "command_list_end"]
        let replies = lines.map { session.receive(line: Array($0.utf8), backend: &backend) }
        let last = try #require(replies.last)
        #expect(replies.dropLast().allSatisfy { $0.text.isEmpty && $0.search == nil })
        #expect(last.text == "list_OK\n", "what comes before the search is answered at once")
        let search = try #require(last.search)
        let found = search.answer(.success(try backend.search(search.constraints, exact: search.exact)))
        #expect(
            found
                == "file: b/two.mp3\nTitle: Two\nArtist: Björk\nAlbum: Post\nTime: 60\nduration: 60.000\nId: 2\nlist_OK\n"
        )
        let rest = session.continueList(after: search, succeeded: true, backend: &backend)
        #expect(rest.text == "ACK [5@2] {bogus} unknown command \"bogus\"\n")
        // A list that goes through ends in OK; a failed search ends the list with its own ACK.
        let plain = ["command_list_begin", "search any one", "ping", "command_list_end"].map {
            session.receive(line: Array($0.utf8), backend: &backend)
        }
        let pending = try #require(plain.last?.search)
        #expect(pending.answer(.success([])) == "")
        #expect(session.continueList(after: pending, succeeded: true, backend: &backend).text == "OK\n")
        #expect(pending.answer(.failure(MPDError(.system, "gone"))) == "ACK [52@0] {search} gone\n")
        #expect(session.continueList(after: pending, succeeded: false, backend: &backend).text == "")
        #expect(run(["ping"], backend: &backend, session: &session) == "OK\n", "the session is back to normal")
    }

    @Test func idleWaitsAndNoidleEndsIt() {
        var backend = TableBackend()
        var session = MPDSession()
        #expect(run(["idle player mixer"], backend: &backend, session: &session) == "")
        #expect(session.isIdle)
        #expect(session.notify([.database]) == nil)
        #expect(session.notify([.mixer]) == MPDSession.Reply("changed: mixer\nOK\n"))
        #expect(!session.isIdle)
        // Changes while not idle are kept for the next idle, which answers at once.
        #expect(session.notify([.player]) == nil)
        #expect(run(["idle"], backend: &backend, session: &session) == "changed: player\nOK\n")
        #expect(run(["idle player"], backend: &backend, session: &session) == "")
        #expect(run(["noidle"], backend: &backend, session: &session) == "OK\n")
        #expect(run(["idle bogus"], backend: &backend, session: &session).hasPrefix("ACK [2@0] {idle} Unrecognized"))
    }

    @Test func anythingButNoidleWhileIdleCloses() {
        var backend = TableBackend()
        var session = MPDSession()
        _ = run(["idle"], backend: &backend, session: &session)
        #expect(session.receive(line: Array("status".utf8), backend: &backend).close)
    }

    @Test func oversizedAndCloseEndTheConnection() {
        var backend = TableBackend()
        var session = MPDSession()
        let reply = session.receive(.oversized, backend: &backend)
        #expect(reply.close && reply.text.hasPrefix("ACK [2@0] {} line too long"))
        #expect(session.receive(line: Array("close".utf8), backend: &backend).close)
    }

    @Test func malformedLinesAreAnsweredNotFatal() {
        var backend = TableBackend()
        var session = MPDSession()
        #expect(run(["\"unterminated"], backend: &backend, session: &session).hasPrefix("ACK [5@0] {}"))
        #expect(run(["play \"x"], backend: &backend, session: &session).hasPrefix("ACK [2@0] {}"))
        #expect(run(["ping"], backend: &backend, session: &session) == "OK\n")
    }

    @Test func commandsListsTheSupportedCommands() {
        var backend = TableBackend()
        var session = MPDSession()
        let out = run(["commands"], backend: &backend, session: &session)
        for name in ["status", "currentsong", "stats", "idle", "noidle", "search", "find", "setvol"] {
            #expect(out.contains("command: \(name)\n"))
        }
    }
}
