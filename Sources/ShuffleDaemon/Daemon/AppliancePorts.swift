import Playback
import ShuffleCore

/// What the indexer reports about one stick (posted to the event loop).
enum IndexReport: Sendable, Equatable {
    /// The first playable track is in the index: music can start.
    case firstPlayable
    /// More tracks arrived (the shuffle grows).
    case progress(playable: Int)
    /// Indexing ended with this many playable tracks; `changed`: the run wrote to the index (a stick plugged
    /// back unchanged did not, and its listing, read as music started, is current).
    case finished(playable: Int, changed: Bool)
    /// Indexing failed; the reason is for a person.
    case failed(String)
    /// After a finished run, this many estimated lengths were walked in full and stored.
    case lengthsRefined(Int)
    /// After a finished run, this many tracks indexed before the library knew stories were read for their
    /// story flags and chapters (once, after an upgrade): the books and the music may have changed.
    case storiesRead(Int)
}

/// What the player reports (posted to the event loop).
enum PlayerReport: Sendable, Equatable {
    /// A new track began: its first samples were handed to ALSA `at` that instant (or, begun paused, it was
    /// opened then and is held).
    case trackStarted(at: ContinuousClock.Instant)
    /// The sound device failed.
    case deviceFailed(String)
    /// The output's device `device` failed (`gone`: it went away); the player waits for another (`useDevice`).
    case outputFailed(device: String, reason: String, gone: Bool)
    /// The sound device works again.
    case deviceRecovered
    /// Reading the stick fails: it vanished without an unmount.
    case libraryVanished(mountPoint: String)
    /// A damaged file was skipped.
    case trackSkipped
    /// The station asked for finds no playable song.
    case stationEmpty(String)
    /// None of the tracks the player of this stick was given plays (each was missing or failed to decode):
    /// it stopped.
    case nothingPlayable(volumeID: String)
    /// The book playing reached its end; the player holds its first part, paused at the start.
    case bookFinished
}

/// What the player plays of a stick.
enum PlaySelection: Equatable, Sendable {
    /// Its music: the whole stick without its stories, or a station (`nil`: the whole stick), in `mode`
    /// (nil: the box's).
    case music(station: Station?, mode: ShuffleMode?, rules: StoryRules)
    /// A book, in order, from its bookmark (`fromStart`: from its first part).
    case book(Book, fromStart: Bool)
}

/// Where a book was left.
struct BookmarkInfo: Sendable, Equatable {
    /// The part playing (a track id), if any.
    var trackID: Int64?
    /// The position in it.
    var positionMs: Int64 = 0
    /// Whether the book was played to its end (it starts over next time).
    var finished = false
    /// When the bookmark was stored (on the database's never-decreasing scale).
    var updatedAt: Int64 = 0
}

/// A stick's books, as its index holds them, with their bookmarks (by `Book.bookmarkKey`).
struct StoryShelf: Sendable, Equatable {
    /// The books, in the order they are chosen.
    var books: [Book] = []
    /// Their bookmarks.
    var bookmarks: [String: BookmarkInfo] = [:]
}

/// What is playing, for `status`.
struct NowPlaying: Sendable, Equatable {
    /// The track.
    var song: SongInfo
    /// Position within it.
    var positionMs: Int64
    /// Its place in the shuffle order.
    var queuePosition: Int
    /// Tracks in the shuffle order.
    var queueLength: Int
    /// Sample rate.
    var sampleRate: Int
    /// Channels.
    var channels: Int
    /// Whether the player's own machine holds it paused.
    var playerPaused: Bool
    /// Whether the audio thread holds its output paused (nil: not known yet).
    var outputPaused: Bool?
    /// The chapters inside the track (empty: none).
    var chapters: [Chapter] = []
}

/// What the database knows of a stick.
struct StoredVolume: Sendable, Equatable {
    /// Whether its index holds playable tracks.
    var known = false
    /// The volume level stored with its resume point.
    var volume: Int?
    /// The station that played last (nil: the whole stick).
    var station: String?
    /// The book that played last (its bookmark key; nil: the music).
    var book: String?
}

/// What `stats` counts in a library.
struct LibraryCounts: Sendable, Equatable {
    /// Playable tracks.
    var tracks = 0
    /// Distinct artists.
    var artists = 0
    /// Distinct albums.
    var albums = 0
    /// Total play time in milliseconds.
    var playtimeMs: Int64 = 0
    /// When what the stick shows clients last changed (MPD's `db_update`): it was plugged in as the one playing,
    /// or indexing changed it (`LibraryDatabase.updateStamp`).
    var updatedAt: Int64 = 0
}

/// The library side the appliance drives: identities, indexing, search. Calls come from the loop thread
/// and return quickly; indexing runs elsewhere and reports through `report`.
protocol ApplianceLibrary: AnyObject {
    /// What the database knows of a stick: whether it has playable tracks, its stored volume and station.
    func describe(volumeID: String, mountPoint: String) -> StoredVolume
    /// Records which station of the stick plays (nil: the whole stick), in the background.
    func storeStation(_ name: String?, volumeID: String)
    /// Records which book of the stick plays (its bookmark key; nil: the music), in the background.
    func storeBook(_ key: String?, volumeID: String)
    /// Marks a book finished (played to its end) or not, in the background.
    func setBookFinished(_ key: String, _ finished: Bool, volumeID: String)
    /// The stick's books and bookmarks, waited for (at most 2 s; nil when the index did not answer).
    func books(volumeID: String, rules: StoryRules, stations: [Station]) -> StoryShelf?
    /// The stick's books and bookmarks, read on another thread; `done` is called there, once.
    func books(
        volumeID: String, rules: StoryRules, stations: [Station], done: @escaping @Sendable (StoryShelf?) -> Void)
    /// The stick that played last, if any.
    func lastPlayedVolume() -> String?
    /// Starts indexing in the background.
    func startIndexing(_ stick: DaemonMachine.Stick, report: @escaping @Sendable (IndexReport) -> Void)
    /// Stops indexing a stick that went away.
    func stopIndexing(volumeID: String)
    /// Lets go of the listing of a stick that went away (and of any read of it under way): it is read again
    /// when the stick is back, so that it is never held twice.
    func forgetListing(volumeID: String)
    /// Counts for `stats`, from memory (never a query on the loop's thread).
    func counts(volumeID: String) -> LibraryCounts
    /// One playable track of the stick, from memory (nil until the listing is loaded).
    func song(volumeID: String, id: Int64) -> SongInfo?
    /// The stick's listing as it is now, to look up many tracks at once (nil until it is loaded).
    func listing(volumeID: String) -> LibraryListing?
    /// Every playable track of the stick, from memory, by path.
    func songs(volumeID: String) -> SongList
    /// Reads the stick's listing again in the background (after an index run added to it); `done` is
    /// called on some thread once the new listing is in memory (or could not be read: that is logged).
    func refreshListing(volumeID: String, done: @escaping @Sendable () -> Void)
    /// `search`/`find` over a stick's index, waited for (at most a few seconds: inside a command list).
    func search(volumeID: String, _ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo]
    /// `search`/`find` over a stick's index on another thread; `done` is called there, once.
    func search(
        volumeID: String, _ constraints: [SearchConstraint], exact: Bool,
        done: @escaping @Sendable (Result<[SongInfo], MPDError>) -> Void)
    /// Closes the database (after the player stopped).
    func close()
    /// What went wrong with the library that a person should know (a damaged database was replaced).
    var warning: String? { get }
    /// Sets what runs (on any thread) after a damaged database was replaced by an empty one at run time.
    func onDatabaseReplaced(_ handler: @escaping @Sendable () -> Void)
}

/// The player side: the audio thread and its shuffle. Calls come from the loop thread.
protocol AppliancePlayer: AnyObject {
    /// Opens the stick's library and plays `selection` of it (its music or a station, or a book) from its own
    /// resume point.
    func start(
        _ stick: DaemonMachine.Stick, selection: PlaySelection, paused: Bool, level: Int, rampIn: Bool,
        report: @escaping @Sendable (PlayerReport) -> Void)
    /// New playable tracks joined the stick's index: add them to the unplayed part of the shuffle.
    func tracksAdded()
    /// Plays through the ALSA PCM `pcm` from now on (another output was chosen), from the place heard.
    func useDevice(_ pcm: String)
    /// Saves the resume point and stops.
    func stop()
    /// Pauses output.
    func pause()
    /// Resumes output.
    func resume()
    /// Next track.
    func next()
    /// Previous track or restart.
    func previous()
    /// Seeks within the current track by `milliseconds` (negative: back).
    func seek(by milliseconds: Int64)
    /// Seeks to `milliseconds` into the current track.
    func seek(to milliseconds: Int64)
    /// Plays the track at `position` of the cycle.
    func play(position: Int)
    /// Begins a new shuffle cycle.
    func reshuffle()
    /// The queue (the cycle), from memory.
    func queue() -> MPDQueue?
    /// Mutes or unmutes the output (the level stays).
    func setMuted(_ muted: Bool)
    /// Sets the level in steps.
    func setLevel(_ level: Int)
    /// The cap in force (the box's, or the playing stick's lower one). The levels set are within it already:
    /// the daemon's machine owns level and cap, and the player plays what it is told. The voice, which may be
    /// louder than a low level, is never louder than the cap.
    func setCap(_ cap: Int)
    /// What is playing.
    func now() -> NowPlaying?
    /// The track heard now, as the voice names it (from memory: never waits).
    func speakable() -> Announcer.NowPlaying?
    /// Says `clip` over the music, or straight to the device when nothing plays; `started` is called (on
    /// any thread) when its first samples were handed to ALSA, `ended` once it has been said to its end.
    func speak(
        _ clip: SpeechClip, started: @escaping @Sendable (ContinuousClock.Instant) -> Void,
        ended: @escaping @Sendable () -> Void)
    /// Stops the phrase under way.
    func stopSpeaking()
}
