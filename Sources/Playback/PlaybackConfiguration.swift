import ShuffleCore

/// How the engine plays: chosen by the command line (`PlayOptions`) or the daemon's configuration.
public struct PlaybackConfiguration: Sendable {
    /// The ALSA PCM name.
    public var device: String
    /// A hardware mixer control (on the card of `device`) to set instead of scaling samples; nil means
    /// software volume.
    public var mixer: String?
    /// The shuffle seed; nil draws one from the system's random source.
    public var seed: UInt64?
    /// The start volume in steps; nil keeps the stored one (or `VolumeScale.defaultStart`).
    public var volume: Int?
    /// The volume curve and cap.
    public var scale: VolumeScale
    /// Play the cycle once, then finish.
    public var once: Bool
    /// How often the resume point is stored while playing.
    public var saveInterval: Duration
    /// The first device retry delay; each further one is longer by as much, up to `maxRetryDelay`.
    public var firstRetryDelay: Duration
    /// The longest device retry delay.
    public var maxRetryDelay: Duration
    /// With `once`, give up after this many failed attempts to open the device (without `once`: never).
    public var onceDeviceAttempts: Int
    /// Whether the engine tries a failed device again by itself (after `firstRetryDelay` ...). Off when the
    /// owner chooses among outputs (`useDevice`): a failure is then only reported (`outputFailed`).
    public var retriesDevice = true
    /// How far the music ducks under speech, in dB (negative).
    public var duckDecibels: Double = -15
    /// The sample formats the device may be set up for (empty: whichever it takes, the file's own depth
    /// first). `[.s16]` makes every track 16-bit, deeper files rounded.
    public var sampleFormats: [OutputSampleFormat] = []
    /// The shuffle mode and gaps (default: balanced).
    public var shuffle: ShuffleSettings = .standard
    /// ReplayGain mode, target level and pre-amp (default: track gain, −18 LUFS, 0 dB).
    public var loudness: LoudnessSettings = .standard
    /// Whether the player begins paused: its first track is opened at the resume point and held there.
    public var paused = false
    /// A book: at the end of its last part the engine holds the first part paused at its start and tells its
    /// owner (`PlaybackNotice.reachedEnd`), instead of going round again.
    public var pausesAtEnd = false

    /// Creates a configuration.
    public init(
        device: String = "default", mixer: String? = nil, seed: UInt64? = nil, volume: Int? = nil,
        scale: VolumeScale = VolumeScale(),
        once: Bool = false, saveInterval: Duration = .seconds(2), firstRetryDelay: Duration = .milliseconds(250),
        maxRetryDelay: Duration = .seconds(5), onceDeviceAttempts: Int = 5
    ) {
        self.device = device
        self.mixer = mixer
        self.seed = seed
        self.volume = volume
        self.scale = scale
        self.once = once
        self.saveInterval = saveInterval
        self.firstRetryDelay = firstRetryDelay
        self.maxRetryDelay = maxRetryDelay
        self.onceDeviceAttempts = onceDeviceAttempts
    }
}

/// Why playing could not go on.
public enum PlaybackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The library has no playable track.
    case nothingPlayable
    /// The output device could not be opened (after the retries `--once` allows).
    case deviceUnavailable(device: String, message: String)
    /// The decoder library could not start.
    case decoderUnavailable(String)
    /// The library's folder went away while playing (a stick pulled out); the resume point was saved.
    case libraryVanished(root: String)

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .nothingPlayable:
            "no playable track in this library (every file is missing, broken, or in a format Shufflebox does not "
                + "play; `shufflebox list` says why)"
        case .deviceUnavailable(let device, let message):
            "cannot play on ALSA device '\(device)': \(message). Check --device (see `aplay -L`) and that the "
                + "sound card or DAC is connected"
        case .decoderUnavailable(let message):
            "cannot start the decoders: \(message)"
        case .libraryVanished(let root):
            "the music folder \(root) is gone (stick pulled out?); the resume point is saved"
        }
    }
}

/// A sample format the output device can be set up for.
public enum OutputSampleFormat: String, Sendable, CaseIterable {
    /// 16-bit.
    case s16 = "S16_LE"
    /// 24-bit in the low three bytes of a 32-bit word.
    case s24 = "S24_LE"
    /// 32-bit (24-bit files fill the top 24 bits).
    case s32 = "S32_LE"
}

/// What the engine tells its owner besides the track lines: the state of the output device.
public enum PlaybackNotice: Sendable, Equatable {
    /// The device cannot be opened or failed; the engine keeps retrying. The reason names the device.
    case deviceFailed(String)
    /// The device `device` failed (`message` says how; `gone`: it went away) and, with `retriesDevice` off,
    /// the engine waits for `useDevice` at the position heard.
    case outputFailed(device: String, message: String, gone: Bool)
    /// The device works again (the first samples after a failure reached it).
    case deviceRecovered
    /// The first samples of phrase `id` were handed to ALSA `at` that instant.
    case speechStarted(id: UInt64, at: ContinuousClock.Instant)
    /// The phrase `id` (`PlaybackEngine.speak`) has been said to its end.
    case speechEnded(id: UInt64)
    /// A file with no playable audio was skipped (and marked unplayable); the text names it.
    case trackSkipped(String)
    /// A book played to its end (`pausesAtEnd`): its first part is held, paused at its start.
    case reachedEnd
}
