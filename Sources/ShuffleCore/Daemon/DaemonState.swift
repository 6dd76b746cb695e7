/// What the box is doing, in the terms a person can tell apart.
public enum DaemonState: Equatable, Sendable {
    /// No stick with music is mounted under the library roots.
    case noLibrary
    /// A stick is being indexed and nothing playable has been found yet.
    case indexing
    /// Music is playing.
    case playing
    /// Music is paused.
    case paused
    /// Something is broken (the sound device); the reason says what and what to do.
    case error(String)

    /// The name used by `status --json`: `no-library`, `indexing`, `playing`, `paused`, `error`.
    public var name: String {
        switch self {
        case .noLibrary: "no-library"
        case .indexing: "indexing"
        case .playing: "playing"
        case .paused: "paused"
        case .error: "error"
        }
    }

    /// The reason when in error.
    public var errorReason: String? {
        if case .error(let reason) = self { return reason }
        return nil
    }
}

/// One track as clients see it.
public struct SongInfo: Equatable, Sendable {
    /// The track id (MPD's `Id`).
    public var id: Int64
    /// The path relative to the library root, for display.
    public var path: String
    /// Title tag, if any.
    public var title: String?
    /// Artist tag, if any.
    public var artist: String?
    /// Album tag, if any.
    public var album: String?
    /// Duration in milliseconds.
    public var durationMs: Int64
    /// Album artist, genre, track and disc number and year, when tagged.
    public var albumArtist: String?
    /// Genre tag.
    public var genre: String?
    /// Track number.
    public var track: Int? {
        get { Self.unpack(numbers.track) }
        set { numbers.track = Self.pack(newValue) }
    }
    /// Disc number.
    public var disc: Int? {
        get { Self.unpack(numbers.disc) }
        set { numbers.disc = Self.pack(newValue) }
    }
    /// Year (MPD's `Date`).
    public var year: Int? {
        get { Self.unpack(numbers.year) }
        set { numbers.year = Self.pack(newValue) }
    }
    /// The stream's shape as MPD's `Format` gives it: `rate:bits:channels` (`44100:16:2`, `48000:f:2`).
    public var format: String?
    /// When the file was last changed, in seconds since 1970 (MPD's `Last-Modified`), when known.
    public var modified: Int64?
    /// Track, disc and year in 12 bytes rather than three `Int?` of 16 (`Int32.min`: not tagged): the daemon
    /// holds one `SongInfo` per track of the stick, 144 bytes instead of 176.
    private var numbers = TagNumbers()

    /// Track, disc and year as stored (`Int32.min`: not tagged), for `SongList`'s records.
    var packedNumbers: (track: Int32, disc: Int32, year: Int32) {
        get { (numbers.track, numbers.disc, numbers.year) }
        set { numbers = TagNumbers(track: newValue.track, disc: newValue.disc, year: newValue.year) }
    }

    /// Track, disc and year as stored.
    private struct TagNumbers: Equatable, Sendable {
        var track = Int32.min
        var disc = Int32.min
        var year = Int32.min
    }

    /// Creates a song.
    public init(
        id: Int64, path: String, title: String? = nil, artist: String? = nil, album: String? = nil,
        durationMs: Int64 = 0, albumArtist: String? = nil, genre: String? = nil, track: Int? = nil,
        disc: Int? = nil, year: Int? = nil, format: String? = nil, modified: Int64? = nil
    ) {
        self.id = id
        self.path = path
        self.title = title
        self.artist = artist
        self.album = album
        self.durationMs = durationMs
        self.albumArtist = albumArtist
        self.genre = genre
        self.format = format
        self.track = track
        self.disc = disc
        self.year = year
        self.modified = modified
    }

    /// A tag number as stored (a value past 32 bits, from a hostile tag, is clamped).
    private static func pack(_ value: Int?) -> Int32 {
        guard let value else { return .min }
        return Int32(clamping: max(value, Int(Int32.min) + 1))
    }

    private static func unpack(_ value: Int32) -> Int? { value == .min ? nil : Int(value) }

    /// The value of an MPD tag (`Artist`, `Album`, `AlbumArtist`, `Title`, `Track`, `Disc`, `Genre`, `Date`).
    public func tag(_ tag: MPDTag) -> String? {
        switch tag {
        case .artist: artist
        case .album: album
        case .albumArtist: albumArtist
        case .title: title
        case .track: track.map(String.init)
        case .disc: disc.map(String.init)
        case .genre: genre
        case .date: year.map(String.init)
        }
    }
}

/// Everything `status`, `currentsong` and `stats` report, taken at one moment.
public struct PlayerSnapshot: Equatable, Sendable {
    /// The state.
    public var state: DaemonState
    /// The current track.
    public var track: SongInfo?
    /// Position in the current track.
    public var positionMs: Int64
    /// The volume in steps.
    public var volume: Int
    /// The cap in steps.
    public var maxVolume: Int
    /// Steps that make full scale.
    public var volumeSteps: Int
    /// The mount point of the library playing, if any.
    public var libraryRoot: String?
    /// Playable tracks known in that library.
    public var tracks: Int
    /// Whether that library is being indexed.
    public var indexing: Bool
    /// Where the current track sits in the shuffle order.
    public var queuePosition: Int?
    /// Sample rate and channels of the current track, when known.
    public var sampleRate: Int
    /// Channels of the current track.
    public var channels: Int
    /// Seconds since the daemon started.
    public var uptimeSeconds: Int64
    /// Distinct artists and albums in the library (0 when unknown).
    public var artists: Int
    /// Distinct albums.
    public var albums: Int
    /// Something a person should know although the daemon plays on (a damaged database was replaced).
    public var warning: String?
    /// Whether the player's machine holds it paused, and whether the audio thread holds its output paused
    /// (nil when not playing or not known): both must agree with `state` (tests check they do).
    public var playerPaused: Bool?
    /// See `playerPaused`.
    public var outputPaused: Bool?
    /// MPD's playlist version (changes when the shuffle order does).
    public var queueVersion = 1
    /// The place and id of the track after the current one, when there is one in this cycle.
    public var nextSong: QueueEntry?
    /// Total play time of the library in milliseconds (`stats`).
    public var playtimeMs: Int64 = 0
    /// When what the library shows last changed (`stats`' `db_update`): never decreasing, so clients that load
    /// their library only when it moves forward (Cantata) see a new stick and a re-indexed one.
    public var libraryUpdatedAt: Int64 = 0
    /// Seconds of music played since the daemon started (`stats`' `playtime`).
    public var playedSeconds: Int64 = 0
    /// Whether the one output is enabled (false: muted).
    public var outputEnabled = true
    /// The loudness normalisation in force (MPD's `replay_gain_status`).
    public var replayGainMode = ReplayGainMode.off
    /// The station playing (`StationFile.wholeStick` for the whole stick), when a stick plays its music.
    public var station: String?
    /// The book playing, when a story plays.
    public var story: StoryStatus?
    /// The queue's length when it holds fewer than the library's tracks (a station plays); nil: `tracks`.
    public var queueLength: Int?
    /// The box's outputs in order of preference, each with its state (`shufflebox outputs`).
    public var outputs: [OutputStatus] = []
    /// The output in use, as one line (`status`'s `output:`), or nil when the box knows of none.
    public var outputLine: String?

    /// Creates a snapshot; unspecified parts are empty.
    public init(
        state: DaemonState, track: SongInfo? = nil, positionMs: Int64 = 0, volume: Int = 0, maxVolume: Int = 0,
        volumeSteps: Int = 20, libraryRoot: String? = nil, tracks: Int = 0, indexing: Bool = false,
        queuePosition: Int? = nil, sampleRate: Int = 0, channels: Int = 0, uptimeSeconds: Int64 = 0,
        artists: Int = 0, albums: Int = 0, warning: String? = nil, playerPaused: Bool? = nil,
        outputPaused: Bool? = nil
    ) {
        self.state = state
        self.track = track
        self.positionMs = positionMs
        self.volume = volume
        self.maxVolume = maxVolume
        self.volumeSteps = volumeSteps
        self.libraryRoot = libraryRoot
        self.tracks = tracks
        self.indexing = indexing
        self.queuePosition = queuePosition
        self.sampleRate = sampleRate
        self.channels = channels
        self.uptimeSeconds = uptimeSeconds
        self.artists = artists
        self.albums = albums
        self.warning = warning
        self.playerPaused = playerPaused
        self.outputPaused = outputPaused
    }

    /// The `status --json` object.
    public var json: JSONText.Value {
        let trackValue: JSONText.Value =
            track.map { song in
                .object([
                    ("path", .string(song.path)), ("title", JSONText.string(song.title)),
                    ("artist", JSONText.string(song.artist)), ("album", JSONText.string(song.album)),
                ])
            } ?? .null
        return .object([
            ("state", .string(state.name)), ("error", JSONText.string(state.errorReason)),
            ("warning", JSONText.string(warning)), ("track", trackValue), ("station", JSONText.string(station)),
            ("story", story?.json ?? .null),
            ("output", JSONText.string(outputLine)), ("positionMs", .int(positionMs)), ("volume", .int(Int64(volume))),
            ("maxVolume", .int(Int64(maxVolume))),
            (
                "library",
                .object([
                    ("root", JSONText.string(libraryRoot)), ("tracks", .int(Int64(tracks))),
                    ("indexing", .bool(indexing)),
                ])
            ),
        ])
    }
}

/// A place in the queue (the current shuffle cycle) and the track there.
public struct QueueEntry: Equatable, Sendable {
    /// The place in this cycle, from 0.
    public var position: Int
    /// The track's id.
    public var id: Int64

    /// Creates an entry.
    public init(position: Int, id: Int64) {
        self.position = position
        self.id = id
    }
}

/// The book playing, as `status` shows it.
public struct StoryStatus: Equatable, Sendable {
    /// Its name.
    public var name: String
    /// Audiobook or podcast.
    public var kind: String
    /// The part playing (from 1) and the parts in all.
    public var part: Int
    /// The parts in all.
    public var parts: Int
    /// The chapter playing (from 1) in a part with chapters, and their number; 0 when it has none.
    public var chapter = 0
    /// The chapters of the part.
    public var chapters = 0
    /// The chapter's title.
    public var chapterTitle: String?

    /// Creates the status of a book.
    public init(name: String, kind: String, part: Int, parts: Int) {
        self.name = name
        self.kind = kind
        self.part = part
        self.parts = parts
    }

    /// For `status --json`.
    public var json: JSONText.Value {
        var fields: [(String, JSONText.Value)] = [
            ("name", .string(name)), ("kind", .string(kind)), ("part", .int(Int64(part))),
            ("parts", .int(Int64(parts))),
        ]
        if chapters > 0 {
            fields.append(
                (
                    "chapter",
                    .object([
                        ("number", .int(Int64(chapter))), ("of", .int(Int64(chapters))),
                        ("title", JSONText.string(chapterTitle)),
                    ])
                ))
        }
        return .object(fields)
    }

    /// The `x-story…` lines of MPD's `status` (clients ignore them), and back (`init?(lines:)`).
    public var lines: [(String, String)] {
        var result = [("x-story", name), ("x-story-kind", kind), ("x-story-part", "\(part)/\(parts)")]
        if chapters > 0 {
            result.append(("x-chapter", "\(chapter)/\(chapters)"))
            if let chapterTitle { result.append(("x-chapter-title", chapterTitle)) }
        }
        return result
    }

    /// The status from `status`'s lines; nil when no story plays.
    public init?(lines status: [String: String]) {
        guard let name = status["x-story"] else { return nil }
        func pair(_ text: String?) -> (Int, Int) {
            let parts = (text ?? "").split(separator: "/").compactMap { Int($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : (0, 0)
        }
        let (part, parts) = pair(status["x-story-part"])
        self.init(name: name, kind: status["x-story-kind"] ?? "audiobook", part: part, parts: parts)
        (chapter, chapters) = pair(status["x-chapter"])
        chapterTitle = status["x-chapter-title"]
    }

    /// One line for people: "Name (audiobook), part 3 of 12, chapter 2 of 5: Title".
    public var summary: String {
        var text = "\(name) (\(kind)), part \(part) of \(parts)"
        if chapters > 0 {
            text += ", chapter \(chapter) of \(chapters)" + (chapterTitle.map { ": \($0)" } ?? "")
        }
        return text
    }
}
