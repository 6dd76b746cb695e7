import ShuffleCore
import Testing

/// A long queue, listed by a backend that keeps a listing for streams, as the daemon's does.
private struct LongQueueBackend: MPDBackend {
    let list: SongList
    let order: [Int64]
    let places: [Int64: Int]

    init(tracks: Int) {
        var songs: [SongInfo] = []
        for n in 1...tracks {
            // One value at a time: Swift 6.0's type checker gives up on the whole initializer at once.
            let path: String = "Artist \(n % 17)/Album \(n % 5)/\(n) Song.mp3"
            let artist: String = "Artist \(n % 17)"
            let album: String? = n % 4 == 0 ? nil : "Album \(n % 5)"
            let durationMs = Int64(n) * 997
            let modified = Int64(n) * 86_000
            songs.append(
                SongInfo(
                    id: Int64(n) * 3, path: path, title: "Song \(n)", artist: artist, album: album,
                    durationMs: durationMs, track: n % 12, year: 1990 + n % 30, modified: modified))
        }
        list = SongList(songs)
        // A shuffled order, with one id that has no song (a track gone from the listing).
        var generator = SplitMix64(seed: 5)
        order = ((1...tracks).map { Int64($0 * 3) } + [1]).shuffled(using: &generator)
        let list = self.list
        places = Dictionary(uniqueKeysWithValues: list.indices.map { (list.id(at: $0), $0) })
    }

    func snapshot() -> PlayerSnapshot {
        PlayerSnapshot(
            state: .playing, track: nil, positionMs: 0, volume: 10, maxVolume: 20, volumeSteps: 20, libraryRoot: "/m",
            tracks: order.count, queuePosition: 0, sampleRate: 44100, channels: 2)
    }
    mutating func perform(_ action: PlayerAction) -> MPDError? { nil }
    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] { [] }
    func queue() -> MPDQueue? { MPDQueue(version: 9, ids: order, cursor: 0) }
    func song(id: Int64) -> SongInfo? { places[id].map { list[$0] } }
    func songWriter() -> MPDSongWriter? {
        let (list, places) = (list, places)
        return { ids, tags, out in
            for position in ids.indices {
                if let place = places[ids[position]] {
                    list.write(at: place, place: position, tags: tags, into: &out)
                }
            }
        }
    }
}

@Suite struct MPDSongStreamTests {
    /// Sends `line` and returns what a client reads: the reply's text, then its stream written in parts of
    /// `part` bytes as the server sends them, then `OK`.
    private func read(_ line: String, _ session: inout MPDSession, _ backend: inout LongQueueBackend, part: Int)
        -> (text: String, streamed: Bool)
    {
        let reply = session.receive(line: Array(line.utf8), backend: &backend)
        guard var stream = reply.stream else { return (reply.text, false) }
        var bytes = Array(reply.text.utf8)
        while !stream.isFinished {
            var out = MPDWriter()
            stream.write(into: &out, upTo: part)
            #expect(!out.bytes.isEmpty, "every part carries songs")
            bytes += out.bytes
        }
        return (String(decoding: bytes, as: UTF8.self) + "OK\n", true)
    }

    @Test func aLongListSentInPartsIsTheListAnsweredWhole() {
        var backend = LongQueueBackend(tracks: 2_500)
        var session = MPDSession()
        for command in ["playlistinfo", "playlistinfo 100:2000", "plchanges 0", "plchanges 3 1:", "playlistid"] {
            // Inside a command list the same command is answered whole, by `run`.
            var whole = MPDSession()
            let listed = ["command_list_begin", command, "command_list_end"].map {
                whole.receive(line: Array($0.utf8), backend: &backend)
            }
            for part in [1, 4096, 48 << 10] {
                let (text, streamed) = read(command, &session, &backend, part: part)
                #expect(streamed, "\(command)")
                #expect(text == listed[2].text, "\(command) in parts of \(part)")
            }
            #expect(listed[2].stream == nil)
        }
        let text = read("playlistinfo", &session, &backend, part: 4096).text
        #expect(text.components(separatedBy: "\nfile: ").count == 2_500, "the id without a song is left out")
        #expect(text.hasSuffix("Id: \(backend.order.last { $0 != 1 }!)\nOK\n"))
    }

    @Test func shortListsErrorsAndTheClientsTagsAreAsBefore() {
        var backend = LongQueueBackend(tracks: 2_500)
        var session = MPDSession()
        #expect(read("playlistinfo 5:900", &session, &backend, part: 4096).streamed == false)
        #expect(read("plchanges 9", &session, &backend, part: 4096) == ("OK\n", false), "the same version: nothing")
        #expect(read("playlistinfo x", &session, &backend, part: 4096).text.hasPrefix("ACK [2@0] {playlistinfo}"))
        _ = session.receive(line: Array("tagtypes clear".utf8), backend: &backend)
        _ = session.receive(line: Array("tagtypes enable Title".utf8), backend: &backend)
        let (text, streamed) = read("playlistinfo", &session, &backend, part: 4096)
        #expect(streamed)
        #expect(text.contains("\nTitle: ") && !text.contains("\nArtist: ") && !text.contains("\nDate: "))
    }
}
