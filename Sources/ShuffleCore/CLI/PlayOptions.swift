/// Options of `shufflebox play DIR [--db FILE] [--device PCM] [--seed N] [--volume V] [--max-volume V] [--shuffle MODE]
/// [--replay-gain MODE] [--replay-gain-preamp DB] [--loudness-target LUFS] [--once]`.
public struct PlayOptions: Equatable, Sendable {
    /// The folder to play.
    public var root: String
    /// The database file; nil means the state directory's `library.db`.
    public var database: String?
    /// The ALSA PCM name.
    public var device: String
    /// A hardware mixer control to set instead of scaling samples in software; nil means software volume.
    public var mixer: String?
    /// A fixed seed for the shuffle, for reproducible tests; nil means a real random source.
    public var seed: UInt64?
    /// The start volume in steps; nil keeps the stored one (or the default).
    public var volume: Int?
    /// The cap in steps that nothing can exceed.
    public var maxVolume: Int?
    /// The shuffle mode (default: balanced).
    public var shuffle: ShuffleMode = .balanced
    /// ReplayGain mode, pre-amp and target level (default: track, 0 dB, −18 LUFS).
    public var loudness: LoudnessSettings = .standard
    /// Play every track once, then exit.
    public var once: Bool

    /// Creates the options.
    public init(
        root: String, database: String? = nil, device: String = "default", mixer: String? = nil,
        seed: UInt64? = nil, volume: Int? = nil, maxVolume: Int? = nil, once: Bool = false
    ) {
        self.root = root
        self.database = database
        self.device = device
        self.mixer = mixer
        self.seed = seed
        self.volume = volume
        self.maxVolume = maxVolume
        self.once = once
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> PlayOptions {
        let valued: Set<String> = [
            "db", "device", "mixer", "seed", "volume", "max-volume", "shuffle", "replay-gain", "replay-gain-preamp",
            "loudness-target",
        ]
        var scanner = try ArgumentScanner(arguments, command: "play", valued: valued)
        let database = scanner.value("db")
        let device = scanner.value("device") ?? "default"
        let mixer = scanner.value("mixer")
        var seed: UInt64?
        if let text = scanner.value("seed") {
            guard let value = UInt64(text) else {
                throw UsageError("option --seed needs a whole number, not '\(text)'", command: "play")
            }
            seed = value
        }
        let volume = try scanner.integer("volume", in: 0...1000)
        let maxVolume = try scanner.integer("max-volume", in: 0...1000)
        var shuffle = ShuffleMode.balanced
        if let text = scanner.value("shuffle") {
            guard let mode = ShuffleMode(parsing: text) else {
                throw UsageError(
                    "option --shuffle needs shuffle, balanced, albums or in-order, not '\(text)'", command: "play")
            }
            shuffle = mode
        }
        var loudness = LoudnessSettings.standard
        if let text = scanner.value("replay-gain") {
            guard let mode = ReplayGainMode(rawValue: text) else {
                throw UsageError("option --replay-gain needs track, album or off, not '\(text)'", command: "play")
            }
            loudness.mode = mode
        }
        for (name, range) in [
            ("replay-gain-preamp", LoudnessSettings.preampRange), ("loudness-target", LoudnessSettings.targetRange),
        ] {
            guard let text = scanner.value(name) else { continue }
            guard let value = LoudnessSettings.number(text, in: range) else {
                throw UsageError(
                    "option --\(name) needs a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not '\(text)'",
                    command: "play")
            }
            if name == "loudness-target" { loudness.targetLUFS = value } else { loudness.preampDecibels = value }
        }
        let once = try scanner.flag("once")
        let positionals = scanner.takePositionals()
        guard positionals.count == 1 else {
            throw UsageError("'play' needs exactly one folder", command: "play")
        }
        try scanner.finish()
        var options = PlayOptions(
            root: positionals[0], database: database, device: device, mixer: mixer, seed: seed,
            volume: volume, maxVolume: maxVolume, once: once)
        options.shuffle = shuffle
        options.loudness = loudness
        return options
    }
}
