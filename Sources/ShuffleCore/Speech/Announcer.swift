/// What the box says, and when: the daemon's events in, phrases out. Pure: it never reads a clock (time
/// comes with each event, as a monotonic `Duration`) and never speaks; the shell renders and plays what it
/// returns.
///
/// | event | says | limited to |
/// |---|---|---|
/// | the speak gesture | "Title, by Artist" (the file name without tags) | a second press while that phrase plays stops it |
/// | a stick starts indexing | "Loading music" | once per stick |
/// | indexing goes on | "N songs" | every 1,000 songs, at most every 10 s |
/// | indexing done | "N songs", or "No music found on this stick" | once per run |
/// | volume up at the cap | "Maximum volume" | once per press (not on hold-repeat steps) |
/// | the playing stick pulled | "The music stick was removed" | |
/// | a damaged file skipped | "Skipped a damaged song" | at most once a minute |
/// | the lock chord | "Buttons locked" / "Buttons unlocked" | |
/// | the sleep timer set or cancelled | "Sleep timer, N minutes" / "Sleep timer off" | |
/// | a station chosen (gesture, `ctl station`, MPD `load`) | the station's name | |
/// | a book chosen (`stories`, `next-story`, a station gesture among the stories, MPD `load`) | the book's name, and its chapter where it has chapters | |
/// | back to the music from a book | "Music", or the station's name | |
/// | the story gestures on a stick without stories | "No stories on this stick" | |
/// | `start-over` | "From the beginning" | |
/// | a book played to its end | "The end" | |
/// | a stick's `shufflebox.txt` has errors | "The stick's settings file has an error on line N" | the first error, once per mount |
/// | the box switches itself off (power button, idle time; not the sleep timer) | "Goodbye" | |
///
/// Every message can be switched off or replaced in the configuration (`say-*` keys).
public struct Announcer: Sendable {
    /// A message the box can say; its raw value is the configuration key's suffix (`say-loading`).
    public enum Message: String, CaseIterable, Sendable, Hashable {
        /// The speak gesture.
        case nowPlaying = "now-playing"
        /// A stick begins indexing.
        case loading
        /// Songs found so far, or in all (`{count}` is replaced; "1 song" for one).
        case songs
        /// A stick with nothing playable.
        case noMusic = "no-music"
        /// Volume up at the cap.
        case maximumVolume = "max-volume"
        /// The playing stick went away.
        case stickPulled = "stick-pulled"
        /// A damaged file was skipped.
        case skipped
        /// The lock chord locked the buttons.
        case locked
        /// The lock chord unlocked them.
        case unlocked
        /// The sleep timer was set (`{count}` minutes).
        case sleep
        /// The sleep timer was cancelled.
        case sleepOff = "sleep-off"
        /// A station was chosen (`{name}` is replaced by its name).
        case station
        /// A book was chosen (`{name}` is its name, and its chapter's title where it has chapters).
        case story
        /// Back to the music from a book (the whole stick; a station says its own name).
        case music
        /// A story gesture on a stick that holds no story.
        case noStories = "no-stories"
        /// The book playing starts over.
        case startOver = "start-over"
        /// A book played to its end (its first part is held, paused, for next time).
        case storyEnd = "story-end"
        /// The stick's `shufflebox.txt` has an error (`{count}` is the line of the first).
        case stickFileError = "stick-file-error"
        /// The box is switching itself off.
        case poweringOff = "power-off"
        /// The box is switching itself off because its battery is nearly flat.
        case batteryLow = "battery-low"

        /// The English text.
        public var defaultText: String {
            switch self {
            case .nowPlaying: "by"
            case .loading: "Loading music"
            case .songs: "{count} songs"
            case .noMusic: "No music found on this stick"
            case .maximumVolume: "Maximum volume"
            case .stickPulled: "The music stick was removed"
            case .skipped: "Skipped a damaged song"
            case .locked: "Buttons locked"
            case .unlocked: "Buttons unlocked"
            case .sleep: "Sleep timer, {count} minutes"
            case .sleepOff: "Sleep timer off"
            case .station: "{name}"
            case .story: "{name}"
            case .music: "Music"
            case .noStories: "No stories on this stick"
            case .startOver: "From the beginning"
            case .storyEnd: "The end"
            case .stickFileError: "The stick's settings file has an error on line {count}"
            case .poweringOff: "Goodbye"
            case .batteryLow: "Battery low. Goodbye"
            }
        }

        /// The English text for a count of one ("1 song"), where the default has a plural.
        var singular: String? {
            switch self {
            case .songs: "1 song"
            case .sleep: "Sleep timer, 1 minute"
            default: nil
            }
        }
    }

    /// What to say and in which language.
    public struct Settings: Equatable, Sendable {
        /// Whether the box speaks at all (`speech = on|off`).
        public var enabled = true
        /// The espeak-ng language for Latin script and for the messages (`voice`).
        public var language = VoiceChoice.defaultLanguage
        /// Replaced texts; a nil value switches the message off. For `nowPlaying` the text is the word
        /// between title and artist ("by").
        public var texts: [Message: String?] = [:]

        /// The defaults: everything on, in English.
        public init() {}

        /// The text of `message`, or nil when it is off.
        public func text(_ message: Message) -> String? {
            guard enabled else { return nil }
            if let replaced = texts[message] { return replaced }
            return message.defaultText
        }
    }

    /// The playing track, as far as speaking it needs.
    public struct NowPlaying: Equatable, Sendable {
        /// Title tag, if any.
        public var title: String?
        /// Artist tag, if any.
        public var artist: String?
        /// The file's name (spoken without its extension when there is no title).
        public var fileName: String

        /// Creates the description of a track.
        public init(title: String?, artist: String?, fileName: String) {
            self.title = title
            self.artist = artist
            self.fileName = fileName
        }
    }

    /// What happened.
    public enum Event: Equatable, Sendable {
        /// The speak gesture; nil when nothing is playing or loaded.
        case speakRequested(NowPlaying?)
        /// A stick began indexing (a new one, or a known one that changed).
        case indexingStarted(volumeID: String)
        /// Indexing of a stick has found this many playable songs so far.
        case indexProgress(volumeID: String, playable: Int)
        /// Indexing of a stick finished with this many playable songs.
        case indexed(volumeID: String, playable: Int)
        /// A volume-up step was refused at the cap; `press` tells presses apart (a hold's repeats share it).
        case volumeAtCap(press: UInt64)
        /// The playing stick went away.
        case stickPulled
        /// A damaged file was skipped.
        case fileSkipped
        /// The lock chord locked (true) or unlocked the buttons.
        case lockChanged(locked: Bool)
        /// The sleep timer was set to this many minutes, or cancelled (nil).
        case sleepTimer(minutes: Int?)
        /// A station was chosen.
        case stationChanged(name: String)
        /// A book was chosen: its name, and the title of the chapter it plays from (if it has chapters).
        case storyChosen(name: String, chapter: String?)
        /// The music plays again after a book (`station`: the station's name; nil for the whole stick).
        case musicChosen(station: String?)
        /// A story gesture found no story on the stick.
        case noStories
        /// The book playing started over.
        case startedOver
        /// The book playing reached its end.
        case storyFinished
        /// The stick's settings file has errors; `line` is the first one's line (nil: not tied to a line).
        case stickFileError(line: Int?)
        /// The box is about to switch itself off.
        case poweringOff
        /// The box is about to switch itself off: its battery is nearly flat.
        case batteryLow
        /// The phrase said last has finished playing (or was cut off).
        case phraseEnded
    }

    /// What the shell must do.
    public enum Effect: Equatable, Sendable {
        /// Say this phrase, cutting off whatever is being said.
        case say([SpokenSegment], Message)
        /// Stop the phrase being said.
        case stop
    }

    /// Progress is said every this many songs ...
    public static let progressEvery = 1_000
    /// ... and at most this often.
    public static let progressInterval: Duration = .seconds(10)
    /// Skipped files are reported at most this often.
    public static let skipInterval: Duration = .seconds(60)

    /// The settings in force.
    public var settings: Settings
    /// The message being said, if any.
    public private(set) var speaking: Message?
    private var lastProgress: (volumeID: String, thousands: Int, at: Duration)?
    private var lastSkip: Duration?
    private var lastCapPress: UInt64?

    /// Creates an announcer with `settings`.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Decides what `event`, happening at `now`, makes the box say.
    public mutating func handle(_ event: Event, at now: Duration) -> [Effect] {
        switch event {
        case .speakRequested(let track):
            if speaking == .nowPlaying {
                speaking = nil
                return [.stop]
            }
            guard let track, let phrase = phrase(for: track) else { return [] }
            return say(phrase, .nowPlaying)
        case .indexingStarted(let volumeID):
            lastProgress = (volumeID, 0, now)
            return say(.loading)
        case .indexProgress(let volumeID, let playable):
            let thousands = playable / Self.progressEvery
            guard thousands > 0 else { return [] }
            if let last = lastProgress, last.volumeID == volumeID {
                guard thousands > last.thousands, now - last.at >= Self.progressInterval else { return [] }
            }
            lastProgress = (volumeID, thousands, now)
            return say(.songs, count: thousands * Self.progressEvery)
        case .indexed(let volumeID, let playable):
            if lastProgress?.volumeID == volumeID { lastProgress = nil }
            return playable == 0 ? say(.noMusic) : say(.songs, count: playable)
        case .volumeAtCap(let press):
            guard press != lastCapPress else { return [] }
            lastCapPress = press
            return say(.maximumVolume)
        case .stickPulled:
            return say(.stickPulled)
        case .fileSkipped:
            if let lastSkip, now - lastSkip < Self.skipInterval { return [] }
            guard settings.text(.skipped) != nil else { return [] }
            lastSkip = now
            return say(.skipped)
        case .lockChanged(let locked):
            return say(locked ? .locked : .unlocked)
        case .sleepTimer(let minutes):
            guard let minutes else { return say(.sleepOff) }
            return say(.sleep, count: max(1, minutes))
        case .stationChanged(let name):
            return say(.station, name: name)
        case .storyChosen(let name, let chapter):
            return say(.story, name: chapter.map { "\(name). \($0)" } ?? name)
        case .musicChosen(let station):
            guard let station else { return say(.music) }
            return say(.station, name: station)
        case .noStories:
            return say(.noStories)
        case .startedOver:
            return say(.startOver)
        case .storyFinished:
            return say(.storyEnd)
        case .stickFileError(let line):
            return say(.stickFileError, count: line ?? 1)
        case .poweringOff:
            return say(.poweringOff)
        case .batteryLow:
            return say(.batteryLow)
        case .phraseEnded:
            speaking = nil
            return []
        }
    }

    /// The phrase the speak gesture says for `track` (nil when that message is off).
    public func phrase(for track: NowPlaying) -> [SpokenSegment]? {
        guard let joiner = settings.text(.nowPlaying) else { return nil }
        return VoiceChoice.nowPlaying(
            title: track.title, artist: track.artist, fileName: track.fileName, latin: settings.language, by: joiner)
    }

    /// Says a fixed message (with `{count}` and `{name}` filled in), in the configured language.
    private mutating func say(_ message: Message, count: Int? = nil, name: String? = nil) -> [Effect] {
        guard var text = settings.text(message) else { return [] }
        if let name { text = text.replacing("{name}", with: name) }
        if let count {
            // The English default has a singular; a replaced text is the owner's to word.
            let singular = settings.texts[message] == nil && count == 1 ? message.singular : nil
            text = singular ?? text.replacing("{count}", with: String(count))
        }
        return say(VoiceChoice.segments(text, latin: settings.language), message)
    }

    private mutating func say(_ phrase: [SpokenSegment], _ message: Message) -> [Effect] {
        guard !phrase.isEmpty else { return [] }
        speaking = message
        return [.say(phrase, message)]
    }
}
