/// What a client can ask the player to do.
public enum PlayerAction: Equatable, Sendable {
    /// Play (resume when paused).
    case play
    /// Pause.
    case pause
    /// Play when paused, pause when playing.
    case toggle
    /// Next track.
    case next
    /// Previous track (or restart, after the first seconds).
    case previous
    /// Set the volume to a step (the cap holds).
    case setVolume(Int)
    /// Change the volume by steps (the cap holds).
    case changeVolume(Int)
    /// Move within the current track by this much (negative: back); play or pause stays as it is.
    case seek(byMs: Int64)
    /// Move to this position in the current track; play or pause stays as it is.
    case seekTo(ms: Int64)
    /// Play the track at this position of the queue (the current cycle).
    case playPosition(Int)
    /// Begin a new shuffle cycle now.
    case reshuffle
    /// Index the playing stick again (incrementally), unless a run is under way.
    case rescan
    /// Enable (unmute) or disable (mute) the one output.
    case setOutput(enabled: Bool)
    /// Start the sleep timer: in this many seconds the music fades out and pauses (0: cancel it).
    case sleep(seconds: Int)
}

/// The queue as clients see it: the current cycle of the shuffle order.
public struct MPDQueue: Sendable, Equatable {
    /// MPD's playlist version: changes whenever the order changes.
    public var version: Int
    /// Track ids in play order.
    public var ids: [Int64]
    /// The place of the current track.
    public var cursor: Int

    /// Creates a queue.
    public init(version: Int, ids: [Int64], cursor: Int) {
        self.version = version
        self.ids = ids
        self.cursor = cursor
    }
}

/// A field a search may name.
public enum SearchField: String, Equatable, Sendable, CaseIterable {
    /// Title, artist, album or path.
    case any
    /// Title.
    case title
    /// Artist.
    case artist
    /// Album.
    case album
}

/// One `FIELD VALUE` pair of `search`/`find`.
public struct SearchConstraint: Equatable, Sendable {
    /// The field.
    public var field: SearchField
    /// The value.
    public var value: String

    /// Creates a constraint.
    public init(_ field: SearchField, _ value: String) {
        self.field = field
        self.value = value
    }
}

/// The daemon as the MPD protocol sees it: a snapshot to report, actions, and the index to search.
///
/// The daemon implements it on its control-loop thread; every call returns at once.
public protocol MPDBackend {
    /// The state right now.
    func snapshot() -> PlayerSnapshot
    /// Performs `action`; returns an error for the client when it cannot (nothing to play).
    mutating func perform(_ action: PlayerAction) -> MPDError?
    /// Tracks matching every constraint: `exact` is `find` (whole, case-sensitive values), otherwise
    /// `search` (case-insensitive substrings, answered from the FTS index).
    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo]
    /// Whether `search` is started with `searchInBackground` and answered when the index has answered, while
    /// the caller goes on (the daemon: its loop must not wait on a query), rather than waited for.
    var searchesInBackground: Bool { get }
    /// `search`, started: `done` is called once, on any thread.
    func searchInBackground(
        _ constraints: [SearchConstraint], exact: Bool,
        done: @escaping @Sendable (Result<[SongInfo], MPDError>) -> Void)
    /// Reads the picture `request` asks for from the stick; `done` is called once, on any thread, with the
    /// chunk, nil when there is no picture, or the error.
    func picture(_ request: PendingPicture, done: @escaping @Sendable (Result<PictureChunk?, MPDError>) -> Void)
    /// The queue, from memory (never a database query): nil when nothing plays.
    func queue() -> MPDQueue?
    /// A track of the playing library, from memory; nil when it is not (yet) known.
    func song(id: Int64) -> SongInfo?
    /// Calls `body` with each place of `ids` and its track, in order, skipping ids that are not (yet) known:
    /// one look-up of the listing for a whole queue, where `song(id:)` looks it up each time.
    func forEachSong(in ids: ArraySlice<Int64>, _ body: (_ position: Int, _ song: SongInfo) -> Void)
    /// Writes the song-list lines of each place of `ids` that has a track (`Pos` is its place), with `tags`.
    func writeSongs(_ ids: ArraySlice<Int64>, tags: [MPDTag], into out: inout MPDWriter)
    /// `writeSongs` over the listing as it is now, kept for a list sent a part at a time (`MPDSongStream`);
    /// nil where song lists are answered whole.
    func songWriter() -> MPDSongWriter?
    /// Every playable track of the playing library, from memory, by path (empty until it is read).
    func librarySongs() -> SongList
    /// The playing stick's stations, the whole stick first (empty with no stick).
    func stations() -> [StationListing]
    /// Plays a station of the playing stick; returns an error for the client when there is no such station.
    mutating func chooseStation(_ choice: StationChoice) -> MPDError?
    /// Carries out a story gesture (`stories`, `next-story`, `start-over`) for a client.
    mutating func storyAction(_ action: ButtonAction) -> MPDError?
}

extension MPDBackend {
    /// Searches are waited for.
    public var searchesInBackground: Bool { false }
    /// Searches at once, on the calling thread.
    public func searchInBackground(
        _ constraints: [SearchConstraint], exact: Bool,
        done: @escaping @Sendable (Result<[SongInfo], MPDError>) -> Void
    ) {
        do throws(MPDError) {
            done(.success(try search(constraints, exact: exact)))
        } catch {
            done(.failure(error))
        }
    }
    /// No pictures.
    public func picture(
        _ request: PendingPicture, done: @escaping @Sendable (Result<PictureChunk?, MPDError>) -> Void
    ) { done(.success(nil)) }
    /// No queue.
    public func queue() -> MPDQueue? { nil }
    /// No songs.
    public func song(id: Int64) -> SongInfo? { nil }
    /// `song(id:)` for each.
    public func forEachSong(in ids: ArraySlice<Int64>, _ body: (_ position: Int, _ song: SongInfo) -> Void) {
        for position in ids.indices {
            if let song = song(id: ids[position]) { body(position, song) }
        }
    }
    /// `forEachSong` and `MPDCommands.append`.
    public func writeSongs(_ ids: ArraySlice<Int64>, tags: [MPDTag], into out: inout MPDWriter) {
        forEachSong(in: ids) { position, song in MPDCommands.append(song, position: position, tags: tags, to: &out) }
    }
    /// Song lists are answered whole.
    public func songWriter() -> MPDSongWriter? { nil }
    /// No library.
    public func librarySongs() -> SongList { SongList() }
    /// No stations.
    public func stations() -> [StationListing] { [] }
    /// No stations.
    public func chooseStation(_ choice: StationChoice) -> MPDError? { MPDError(.noExist, "No such playlist") }
    /// No stories.
    public func storyAction(_ action: ButtonAction) -> MPDError? { MPDError(.noExist, "no stories") }
}

/// MPD speaks volume as 0–100; the box has `steps` steps. Percent is the share of full scale,
/// rounded to the nearest step (and to the nearest percent going back).
public enum MPDVolume {
    /// The percent reported for `step`.
    public static func percent(step: Int, steps: Int) -> Int {
        guard steps > 0 else { return 0 }
        return (step * 100 + steps / 2) / steps
    }

    /// The step asked for by `percent` (0–100).
    public static func step(percent: Int, steps: Int) -> Int {
        (max(0, min(100, percent)) * steps + 50) / 100
    }

    /// The step change for a relative `volume ±N` percent: at least one step when N is not 0.
    public static func stepChange(percent: Int, steps: Int) -> Int {
        guard percent != 0 else { return 0 }
        let change = (abs(percent) * steps + 50) / 100
        return percent > 0 ? max(1, change) : -max(1, change)
    }
}

/// A `search` answered later: the server starts it with `MPDBackend.searchInBackground` and sends `answer`
/// of its result, holding the client's next requests until then (answers keep the order of requests).
public struct PendingSearch: Equatable, Sendable {
    /// What to look for.
    public let constraints: [SearchConstraint]
    /// `find` (whole values) rather than `search`.
    public let exact: Bool
    /// The tags the client asked for (`tagtypes`).
    let tags: Set<MPDTag>
    /// The command's name, for an ACK.
    let command: String
    /// Inside a command list: what follows the search in the list (`MPDSession.continueList` runs it once the
    /// answer is sent); nil for a search on its own.
    public internal(set) var list: ListRest?

    /// The rest of a command list after a search in it.
    public struct ListRest: Equatable, Sendable {
        /// The search's place in the list (for an ACK).
        let index: Int
        /// Whether each command's answer ends in `list_OK`.
        let ok: Bool
        /// The requests after the search.
        let lines: [[UInt8]]
    }

    /// The reply to the request: the songs found and `OK` (in a command list: `list_OK` or nothing, the list
    /// going on), or the error.
    public func answer(_ result: Result<[SongInfo], MPDError>) -> String {
        switch result {
        case .success(let songs):
            let end = list.map { $0.ok ? "list_OK\n" : "" } ?? "OK\n"
            return songs.map { MPDCommands.song($0, position: nil, tags: tags) }.joined() + end
        case .failure(let error):
            return error.ackLine(listIndex: list?.index ?? 0, command: command)
        }
    }
}
