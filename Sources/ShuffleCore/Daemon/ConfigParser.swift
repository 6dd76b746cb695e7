/// Parses the configuration file and applies command-line overrides (flags win over the file).
public enum ConfigParser {
    /// Every key the file may hold; the flags of `run` use the same names.
    public static let keys: [String] = [
        "library-root", "device", "output", "mixer", "state-dir", "socket", "board", "board-file", "volume", "max-volume",
        "volume-steps", "resume", "resume-save", "log-level", "tcp", "led", "connection-timeout", "speech", "voice",
        "duck", "card-root", "shuffle", "artist-gap", "album-gap", "min-volume", "sleep-minutes", "sleep-fade",
        "sleep-power-off", "idle-power-off", "power-off-command", "replay-gain", "replay-gain-preamp",
        "loudness-target",
    ] + Announcer.Message.allCases.map { "say-" + $0.rawValue }

    /// The lines of `text`: split at LF, CR LF (one `Character` in Swift, so splitting at "\n" alone would
    /// make a CRLF file one long line 1) and a lone CR.
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    /// Parses `text` (the contents of `file`, named in errors) on top of `base`, then applies `overrides`.
    public static func parse(
        _ text: String, file: String, overrides: [ConfigOverride] = [], base: DaemonConfig = DaemonConfig()
    ) throws(ConfigError) -> DaemonConfig {
        var config = base
        var seen: [String: Int] = [:]
        var fileRoots: [String] = []
        var outputs: [OutputSpec] = []
        var lineNumber = 0
        for rawLine in lines(text) {
            lineNumber += 1
            let line = stripComment(rawLine)
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigError(
                    file: file, line: lineNumber, message: "expected 'key = value', found '\(clip(line))'")
            }
            let key = trim(line[..<equals])
            let value = trim(line[line.index(after: equals)...])
            if let message = controlCharacterProblem(key: key, value: value) {
                throw ConfigError(file: file, line: lineNumber, message: message)
            }
            guard keys.contains(key) else {
                throw ConfigError(
                    file: file, line: lineNumber,
                    message: "unknown key '\(clip(key))' (known keys: \(keys.joined(separator: ", ")))")
            }
            if key == "library-root" {
                try checkRoot(value) { message throws(ConfigError) in
                    throw ConfigError(file: file, line: lineNumber, message: message)
                }
                fileRoots.append(value)
                continue
            }
            if key == "output" {
                switch OutputSpec.parse(value) {
                case .success(let spec):
                    if outputs.contains(where: { $0.name == spec.name }) {
                        throw ConfigError(
                            file: file, line: lineNumber, message: "output '\(spec.name)' is already in the list")
                    }
                    outputs.append(spec)
                case .failure(let error):
                    throw ConfigError(file: file, line: lineNumber, message: error.message)
                }
                continue
            }
            if let first = seen[key] {
                throw ConfigError(file: file, line: lineNumber, message: "'\(key)' is already set on line \(first)")
            }
            seen[key] = lineNumber
            do throws(ValueError) {
                try apply(key, value, to: &config)
            } catch {
                throw ConfigError(file: file, line: lineNumber, message: error.message)
            }
        }
        if !fileRoots.isEmpty { config.libraryRoots = fileRoots }
        if !outputs.isEmpty { config.outputs = outputs }
        try checkVolumes(config) { key, message throws(ConfigError) in
            throw ConfigError(file: file, line: seen[key], message: message)
        }
        return try applyOverrides(overrides, to: config)
    }

    /// The last line of `text` that sets `key` (what a later check of that value should point at), if any.
    public static func line(settingKey key: String, in text: String) -> Int? {
        var found: Int?
        for (index, rawLine) in lines(text).enumerated() {
            let line = stripComment(rawLine)
            guard let equals = line.firstIndex(of: "="), trim(line[..<equals]) == key else { continue }
            found = index + 1
        }
        return found
    }

    /// Applies flags to `config`: repeated `--library-root` flags replace the file's roots.
    public static func applyOverrides(
        _ overrides: [ConfigOverride], to base: DaemonConfig
    ) throws(ConfigError) -> DaemonConfig {
        var config = base
        var roots: [String] = []
        var outputs: [OutputSpec] = []
        for override in overrides {
            let where_ = "command line"
            guard keys.contains(override.key) else {
                throw ConfigError(file: where_, line: nil, message: "unknown option --\(override.key)")
            }
            if let message = controlCharacterProblem(key: override.key, value: override.value) {
                throw ConfigError(file: where_, line: nil, message: "--\(override.key): " + message)
            }
            if override.key == "library-root" {
                try checkRoot(override.value) { message throws(ConfigError) in
                    throw ConfigError(file: where_, line: nil, message: "--library-root: " + message)
                }
                roots.append(override.value)
                continue
            }
            if override.key == "output" {
                switch OutputSpec.parse(override.value) {
                case .success(let spec): outputs.append(spec)
                case .failure(let error):
                    throw ConfigError(file: where_, line: nil, message: "--output: " + error.message)
                }
                continue
            }
            // A device named on the command line is the one to play through, whatever list the file gives.
            if override.key == "device" { config.outputs = [] }
            do throws(ValueError) {
                try apply(override.key, trim(Substring(override.value)), to: &config)
            } catch {
                throw ConfigError(file: where_, line: nil, message: "--\(override.key): " + error.message)
            }
        }
        if !roots.isEmpty { config.libraryRoots = roots }
        if !outputs.isEmpty { config.outputs = outputs }
        try checkVolumes(config) { key, message throws(ConfigError) in
            throw ConfigError(file: "command line", line: nil, message: message)
        }
        return config
    }

    // MARK: - Values

    private struct ValueError: Error {
        var message: String
    }

    private static func apply(_ key: String, _ value: String, to config: inout DaemonConfig) throws(ValueError) {
        switch key {
        case "device":
            guard !value.isEmpty else {
                throw ValueError(message: "'device' needs an ALSA PCM name, e.g. default or hw:1,0")
            }
            config.device = value
        case "mixer":
            guard !value.isEmpty else {
                throw ValueError(message: "'mixer' needs a mixer control name, e.g. PCM or Digital")
            }
            config.mixer = value
        case "state-dir": config.stateDirectory = try path(key, value)
        case "socket": config.socket = try path(key, value)
        case "card-root":
            guard value.hasPrefix("/") else {
                throw ValueError(message: "'card-root' needs an absolute folder such as /card, not '\(clip(value))'")
            }
            config.cardRoot = value
        case "board":
            guard isBoardName(value) else {
                throw ValueError(
                    message:
                        "'board' needs a board name from board/ (rpi-zero2w, rpi3, rpi4, rpi5, qemu, or one with a "
                        + "variant such as rpi4/one-button), not '\(clip(value))'; for a board file of your own "
                        + "give 'board-file = /absolute/path'")
            }
            config.board = value
        case "board-file":
            guard value.hasPrefix("/") else {
                throw ValueError(message: "'board-file' needs the absolute path of a board file, not '\(clip(value))'")
            }
            config.boardFile = value
        case "led":
            guard LEDSettings.isValidName(value) else {
                throw ValueError(
                    message: "'led' needs an LED name under /sys/class/leds (ACT), a path to one, or off")
            }
            config.led = value
        case "volume": config.volume = try integer(key, value, in: 0...1000)
        case "max-volume": config.maxVolume = try integer(key, value, in: 0...1000)
        case "volume-steps": config.volumeSteps = try integer(key, value, in: 1...1000)
        case "resume":
            switch value {
            case "playing": config.resumePaused = false
            case "paused": config.resumePaused = true
            default: throw ValueError(message: "'resume' must be 'playing' or 'paused', not '\(clip(value))'")
            }
        case "resume-save": config.resumeSaveSeconds = try integer(key, value, in: 2...600)
        case "log-level":
            guard let level = Log.Level(name: value) else {
                throw ValueError(
                    message:
                        "'log-level' must be one of trace, debug, info, notice, warning, error, not '\(clip(value))'")
            }
            config.logLevel = level
        case "tcp":
            if value == "off" || value == "none" || value.isEmpty {
                config.tcp = nil
            } else {
                guard let address = TCPAddress(parsing: value) else {
                    throw ValueError(message: "'tcp' needs PORT, HOST:PORT or off, not '\(clip(value))'")
                }
                config.tcp = address
            }
        case "connection-timeout":
            config.connectionTimeoutSeconds = try integer(key, value, in: 0...86_400)
        case "speech":
            switch value {
            case "on": config.speech.enabled = true
            case "off": config.speech.enabled = false
            default: throw ValueError(message: "'speech' must be 'on' or 'off', not '\(clip(value))'")
            }
        case "voice":
            guard !value.isEmpty, value.count <= 20,
                value.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
            else {
                throw ValueError(
                    message: "'voice' needs an espeak-ng language name such as en, en-gb, de or fr, not '\(clip(value))'")
            }
            config.speech.language = value
        case "duck":
            config.duckDecibels = try integer(key, value, in: -40...0)
        case "shuffle":
            guard let mode = ShuffleMode(parsing: value) else {
                throw ValueError(
                    message: "'shuffle' must be one of shuffle, balanced, albums, in-order, not '\(clip(value))'")
            }
            config.shuffle.mode = mode
        case "replay-gain":
            guard let mode = ReplayGainMode(rawValue: value) else {
                throw ValueError(
                    message: "'replay-gain' must be one of track, album, off, not '\(clip(value))'")
            }
            config.loudness.mode = mode
        case "replay-gain-preamp":
            config.loudness.preampDecibels = try decibels(key, value, in: LoudnessSettings.preampRange)
        case "loudness-target":
            config.loudness.targetLUFS = try decibels(key, value, in: LoudnessSettings.targetRange)
        case "artist-gap":
            config.shuffle.artistGap = try integer(key, value, in: 0...ShuffleSettings.maxGap)
        case "album-gap":
            config.shuffle.albumGap = try integer(key, value, in: 0...ShuffleSettings.maxGap)
        case "min-volume": config.minVolume = try integer(key, value, in: 0...1000)
        case "sleep-minutes": config.sleepMinutes = try integer(key, value, in: 1...1440)
        case "sleep-fade": config.sleepFadeSeconds = try integer(key, value, in: 0...600)
        case "sleep-power-off":
            switch value {
            case "yes": config.sleepPowerOff = true
            case "no": config.sleepPowerOff = false
            default: throw ValueError(message: "'sleep-power-off' must be 'yes' or 'no', not '\(clip(value))'")
            }
        case "idle-power-off":
            // MINUTES, or Ns for seconds; 0 or off: never.
            if value == "off" {
                config.idlePowerOffSeconds = 0
            } else if value.hasSuffix("s") {
                config.idlePowerOffSeconds = try integer(key, String(value.dropLast()), in: 0...604_800)
            } else {
                config.idlePowerOffSeconds = try integer(key, value, in: 0...10_080) * 60
            }
        case "power-off-command":
            let words = value.split(separator: " ").map(String.init)
            guard let first = words.first, first.hasPrefix("/") else {
                throw ValueError(
                    message: "'power-off-command' needs an absolute program path and its arguments, not '\(clip(value))'")
            }
            config.powerOffCommand = words
        default:
            if key.hasPrefix("say-"), let message = Announcer.Message(rawValue: String(key.dropFirst(4))) {
                guard !value.isEmpty else {
                    throw ValueError(message: "'\(key)' needs the words to say, or off")
                }
                config.speech.texts[message] = value == "off" ? .some(nil) : value
                return
            }
            throw ValueError(message: "unknown key '\(key)'")
        }
    }

    private static func path(_ key: String, _ value: String) throws(ValueError) -> String {
        guard !value.isEmpty else { throw ValueError(message: "'\(key)' needs a path") }
        return value
    }

    private static func integer(_ key: String, _ value: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw ValueError(
                message:
                    "'\(key)' needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(clip(value))'"
            )
        }
        return number
    }

    private static func decibels(_ key: String, _ value: String, in range: ClosedRange<Double>) throws(ValueError)
        -> Double
    {
        guard let number = LoudnessSettings.number(value, in: range) else {
            let bounds = "from \(Int(range.lowerBound)) to \(Int(range.upperBound))"
            throw ValueError(message: "'\(key)' needs a number \(bounds), not '\(clip(value))'")
        }
        return number
    }

    private static func checkRoot(
        _ value: String, fail: (String) throws(ConfigError) -> Never
    ) throws(ConfigError) {
        if !value.hasPrefix("/") {
            try fail("'library-root' needs an absolute folder such as /media, not '\(clip(value))'")
        }
    }

    /// Whether `value` names a board of `board/`: one or two `/`-separated parts of letters, digits, `-`
    /// and `_` (`rpi4`, `rpi4/one-button`), so that it can never reach outside the board folders.
    public static func isBoardName(_ value: String) -> Bool {
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty
                && part.utf8.allSatisfy { byte in
                    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                }
        }
    }

    /// What is wrong with a NUL or other control character in a key's value (C paths end at a NUL, so
    /// `state-dir` would name another folder than the one checked), or nil.
    private static func controlCharacterProblem(key: String, value: String) -> String? {
        guard let bad = value.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F })
        else { return nil }
        let name = bad.value == 0 ? "a NUL byte" : "a control character (U+\(hex(bad.value)))"
        return "'\(clip(key))' holds \(name); the value must be plain text"
    }

    /// Four upper-case hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func checkVolumes(
        _ config: DaemonConfig, fail: (String, String) throws(ConfigError) -> Never
    ) throws(ConfigError) {
        if config.board != nil && config.boardFile != nil {
            try fail("board-file", "give either 'board' (a name from board/) or 'board-file' (a path), not both")
        }
        if config.maxVolume > config.volumeSteps {
            try fail(
                "max-volume",
                "'max-volume' \(config.maxVolume) is above 'volume-steps' \(config.volumeSteps); lower it or raise the steps"
            )
        }
        if config.minVolume > config.maxVolume {
            try fail(
                "min-volume",
                "'min-volume' \(config.minVolume) is above 'max-volume' \(config.maxVolume); the floor must be under the cap"
            )
        }
        if config.volume > config.maxVolume {
            try fail(
                "volume",
                "'volume' \(config.volume) is above 'max-volume' \(config.maxVolume); the start volume must respect the cap"
            )
        }
    }

    // MARK: - Text

    private static func stripComment(_ line: Substring) -> String {
        var text = line
        if let hash = text.firstIndex(of: "#") {
            // A '#' starts a comment at the line start or after whitespace, so 'device = hw:1#x' is unusual but kept.
            if hash == text.startIndex || text[text.index(before: hash)] == " "
                || text[text.index(before: hash)] == "\t"
            {
                text = text[..<hash]
            }
        }
        return trim(text)
    }

    private static func trim(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }

    private static func trim(_ text: String) -> String { trim(Substring(text)) }

    /// Shortens hostile input for messages.
    private static func clip(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}
