/// The settings of `shufflebox run`, from `/etc/shufflebox/shufflebox.conf` and the flags of `run`.
///
/// The file is `key = value` lines; `#` starts a comment (whole line, or after whitespace);
/// blank lines are ignored; `library-root` may appear several times. See `board/common/shufflebox.conf`.
public struct DaemonConfig: Equatable, Sendable {
    /// The default configuration file.
    public static let defaultPath = "/etc/shufflebox/shufflebox.conf"

    /// Folders under which mounted sticks become libraries (default `/media`).
    public var libraryRoots: [String] = ["/media"]
    /// A folder under which a mount is the box's own card (its `MUSIC` partition): a library like a stick's,
    /// which plays only while no stick under `libraryRoots` does (`card-root`); nil means none.
    public var cardRoot: String?
    /// Every folder watched for libraries: the library roots, then the card's.
    public var watchedRoots: [String] { libraryRoots + (cardRoot.map { [$0] } ?? []) }
    /// The ALSA PCM name (default `default`), when no `output` lines give a list.
    public var device: String = "default"
    /// The outputs in order of preference (`output = NAME ...` lines); empty means `device` alone.
    public var outputs: [OutputSpec] = []
    /// The list the player chooses from: the `output` lines, else `device` as the one output.
    public var outputList: [OutputSpec] {
        outputs.isEmpty ? [OutputSpec(name: "default", pcm: device)] : outputs
    }
    /// A hardware mixer control to set instead of software volume; nil means software volume.
    public var mixer: String?
    /// Where the database lives; nil means the daemon's default (`/var/lib/shufflebox` as root).
    public var stateDirectory: String?
    /// The control socket; nil means the daemon's default (`/run/shufflebox/socket` as root).
    public var socket: String?
    /// The board whose buttons to read: a name from `board/` (`rpi4`, `rpi4/one-button`); nil means none.
    public var board: String?
    /// A board file given by its path instead of a name (`board-file`); nil means none.
    public var boardFile: String?
    /// The status light: an LED name under /sys/class/leds, a path to an LED-class folder, or `off`; nil
    /// means the board's `[led]` (none without a board).
    public var led: String?
    /// The volume at start-up, in steps: the loudest the box will be when it boots.
    public var volume: Int = 10
    /// The cap in steps that nothing can exceed.
    public var maxVolume: Int = 20
    /// How many steps make full scale.
    public var volumeSteps: Int = 20
    /// Whether start-up resumes paused instead of playing.
    public var resumePaused: Bool = false
    /// How often the resume point is written while playing, in seconds (`resume-save`). A track change, a
    /// pause, a stop and a volume or station change write it at once: a power cut while paused resumes
    /// exactly, one while playing at most this far behind. Each write is a synced SQLite commit, and on an SD
    /// card a small synced write costs a whole erase block: 30 s is 120 an hour of music, not 1,800.
    public var resumeSaveSeconds = 30
    /// The minimum level logged.
    public var logLevel: Log.Level = .notice
    /// Optional TCP listening address; nil means off.
    public var tcp: TCPAddress?
    /// Seconds after which a control-socket client that sends nothing is dropped (MPD's
    /// `connection_timeout`); never while it waits in `idle`. 0: never.
    public var connectionTimeoutSeconds = 60
    /// What the box says (`speech`, `voice`, `say-*`).
    public var speech = Announcer.Settings()
    /// How far the music ducks under speech, in dB (`duck`, default -15).
    public var duckDecibels = -15
    /// The shuffle mode and the balanced shuffle's gaps (`shuffle`, `artist-gap`, `album-gap`).
    public var shuffle: ShuffleSettings = .standard
    /// Loudness normalisation (`replay-gain`, `replay-gain-preamp`, `loudness-target`).
    public var loudness: LoudnessSettings = .standard
    /// The volume floor in steps: no button or client takes the volume below it (a muted box looks broken
    /// to a child); the sleep timer's fade still goes to silence.
    public var minVolume = 0
    /// How long the sleep timer started by a button runs, in minutes (`ctl sleep N` says its own).
    public var sleepMinutes = 30
    /// How long the sleep timer's fade to silence takes, in seconds.
    public var sleepFadeSeconds = 30
    /// Whether the box powers off once the sleep timer has paused the music.
    public var sleepPowerOff = false
    /// Power the box off after this many seconds paused or with no stick (0: never). One deadline, armed
    /// when the box becomes idle, never a periodic check.
    public var idlePowerOffSeconds = 0
    /// How the unprivileged daemon powers the box off: it creates a file in its own runtime directory, and a
    /// path unit starts the power-off as root (board/common/shufflebox-poweroff.path and .service).
    public var powerOffCommand = ["/usr/bin/touch", "/run/shufflebox/power-off"]

    /// The defaults.
    public init() {}
}

/// A TCP address for the control socket (`host:port`, host defaulting to 127.0.0.1).
public struct TCPAddress: Equatable, Sendable, CustomStringConvertible {
    /// IPv4 or IPv6 literal, or a host name.
    public var host: String
    /// The port.
    public var port: UInt16

    /// Creates an address.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `PORT`, `:PORT`, `HOST:PORT` or `[V6]:PORT`; nil when it is none of these.
    public init?(parsing text: String) {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            let given = text[..<colon]
            if !given.isEmpty { host = String(given) }
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(" "), let port = UInt16(portText), port > 0 else { return nil }
        self.init(host: host, port: port)
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A configuration problem, naming where it is: `FILE:LINE: message` or `--flag: message`.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file, or "command line".
    public var file: String
    /// The 1-based line, or nil for a flag or the file as a whole.
    public var line: Int?
    /// What is wrong and what would be right.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// The message for a person.
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
