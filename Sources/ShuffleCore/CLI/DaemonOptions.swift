/// Options of `shufflebox run`: every configuration key can also be a flag, and flags win over the file.
public struct RunOptions: Equatable, Sendable {
    /// The configuration file; nil means `/etc/shufflebox/shufflebox.conf` when it exists.
    public var config: String?
    /// Only validate the configuration and exit.
    public var checkConfig: Bool
    /// Flag overrides as (key, value) in the configuration file's key names, in order.
    public var overrides: [ConfigOverride]

    /// Creates the options.
    public init(config: String? = nil, checkConfig: Bool = false, overrides: [ConfigOverride] = []) {
        self.config = config
        self.checkConfig = checkConfig
        self.overrides = overrides
    }

    /// The flags of `run` that set a configuration key of the same name.
    public static let overrideFlags: [String] = [
        "library-root", "device", "output", "mixer", "state-dir", "socket", "board", "board-file", "volume",
        "max-volume",
        "volume-steps", "resume", "resume-save", "log-level", "tcp", "led", "connection-timeout", "card-root",
        "shuffle",
        "artist-gap", "album-gap", "min-volume", "sleep-minutes", "sleep-fade", "sleep-power-off",
        "idle-power-off", "power-off-command", "replay-gain", "replay-gain-preamp", "loudness-target",
    ]

    static func parse(_ arguments: [String]) throws(UsageError) -> RunOptions {
        var scanner = try ArgumentScanner(
            arguments, command: "run", valued: Set(overrideFlags).union(["config"]))
        var options = RunOptions(config: scanner.value("config"), checkConfig: try scanner.flag("check-config"))
        for flag in overrideFlags {
            for value in scanner.values(flag) {
                options.overrides.append(ConfigOverride(key: flag, value: value))
            }
        }
        try scanner.finish()
        return options
    }
}

/// One configuration key given on the command line.
public struct ConfigOverride: Equatable, Sendable {
    /// The key, as in the configuration file (`library-root`).
    public var key: String
    /// The value as typed.
    public var value: String

    /// Creates an override.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// Options of `shufflebox status [--socket PATH] [--json]`.
public struct StatusOptions: Equatable, Sendable {
    /// The daemon's control socket; nil means the default place.
    public var socket: String?
    /// One JSON object instead of text.
    public var json: Bool

    /// Creates the options.
    public init(socket: String? = nil, json: Bool = false) {
        self.socket = socket
        self.json = json
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> StatusOptions {
        var scanner = try ArgumentScanner(arguments, command: "status", valued: ["socket"])
        let options = StatusOptions(socket: scanner.value("socket"), json: try scanner.flag("json"))
        try scanner.finish()
        return options
    }
}

/// Options of `shufflebox ctl [--socket PATH] play|pause|toggle|next|previous|volume +N|-N|N|sleep MINUTES`.
public struct ControlOptions: Equatable, Sendable {
    /// What to ask the daemon to do.
    public enum Action: Equatable, Sendable {
        case play, pause, toggle, next, previous
        /// Set the volume to a step.
        case setVolume(Int)
        /// Change the volume by a number of steps.
        case changeVolume(Int)
        /// Start the sleep timer, in seconds (0: cancel it).
        case sleep(seconds: Int)
        /// Play a station: by name, or the next or previous one.
        case station(StationChoice)
        /// A story gesture: `stories` (between the music and the stories), `next-story`, `start-over`.
        case story(ButtonAction)
    }

    /// The daemon's control socket; nil means the default place.
    public var socket: String?
    /// The action.
    public var action: Action

    /// Creates the options.
    public init(socket: String? = nil, action: Action) {
        self.socket = socket
        self.action = action
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> ControlOptions {
        var scanner = try ArgumentScanner(arguments, command: "ctl", valued: ["socket"])
        let socket = scanner.value("socket")
        let words = scanner.takePositionals()
        try scanner.finish()
        let action: Action
        switch words.first {
        case "play" where words.count == 1: action = .play
        case "pause" where words.count == 1: action = .pause
        case "toggle" where words.count == 1: action = .toggle
        case "next" where words.count == 1: action = .next
        case "previous" where words.count == 1: action = .previous
        case "volume" where words.count == 2:
            let text = words[1]
            guard let number = Int(text) else {
                throw UsageError("'ctl volume' needs +N, -N or N, not '\(text)'", command: "ctl")
            }
            action = text.hasPrefix("+") || text.hasPrefix("-") ? .changeVolume(number) : .setVolume(number)
        case "sleep" where words.count == 2:
            // MINUTES, or Ns for seconds (tests, and a quick nap).
            let text = words[1]
            let inSeconds = text.hasSuffix("s")
            guard let number = Int(inSeconds ? String(text.dropLast()) : text), !text.hasPrefix("+"),
                (0...(inSeconds ? 86_400 : 1440)).contains(number)
            else {
                throw UsageError(
                    "'ctl sleep' needs minutes from 0 (cancel) to 1440, or seconds as Ns, not '\(text)'",
                    command: "ctl")
            }
            action = .sleep(seconds: inSeconds ? number : number * 60)
        case "station" where words.count >= 2:
            action = .station(StationChoice(words.dropFirst().joined(separator: " ")))
        case "stories" where words.count == 1: action = .story(.stories)
        case "next-story" where words.count == 1: action = .story(.nextStory)
        case "start-over" where words.count == 1: action = .story(.startOver)
        default:
            throw UsageError(
                "'ctl' needs one of: play, pause, toggle, next, previous, volume +N|-N|N, sleep MINUTES, station NAME|next|previous, stories, next-story, start-over",
                command: "ctl")
        }
        return ControlOptions(socket: socket, action: action)
    }
}
