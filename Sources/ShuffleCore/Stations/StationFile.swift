/// `shufflebox.txt` at a stick's root: the stick's stations and the settings it may carry.
///
/// Format (LF or CRLF lines; `#` starts a comment, whole line or after whitespace; blank lines ignored):
///
///     # settings, before the first station: they can only lower what the box allows
///     volume = 6            # start volume in steps (never above the box's start volume)
///     max-volume = 10       # a lower cap (never above the box's cap)
///     shuffle = balanced    # the stick's default mode: shuffle, balanced, albums, in-order
///     stories = Hörbücher   # a folder of stories (books), whatever their tags say; may be repeated
///     from-start = Bedtime stories  # stories that start from the beginning every time
///
///     station = Bedtime     # a station: its name, then its search and, optionally, its mode
///     search = lullaby folder:"Bedtime songs"
///     mode = albums
///
///     station = Gruffalo    # a station that is a story: its tracks play in order as one book
///     search = folder:Gruffalo
///     story = yes
///
/// A search is `shufflebox search`'s words (every word must match the title, artist, album or path; the
/// last may be a prefix) plus field filters `artist:`, `album:`, `albumartist:`, `title:`, `genre:` (the
/// field contains the text, case ignored) and `folder:` (the path begins with that folder); quote a value
/// with spaces. The whole stick is always the first station (`StationFile.wholeStick`), whatever the file.
public struct StationFile: Equatable, Sendable {
    /// The name of the first station, the whole stick.
    public static let wholeStick = "All"
    /// The largest file read (a stick's text file is a few hundred bytes).
    public static let maxSize = 64 * 1024
    /// The most stations a stick may define.
    public static let maxStations = 99

    /// The stick's settings (each nil when the file does not set it).
    public var settings = StickSettings()
    /// The folders the file marks as stories.
    public var stories = StoryRules()
    /// The stations, the whole stick first.
    public var stations: [Station] = [Station(name: wholeStick, search: StationSearch(), mode: nil)]
    /// Problems, each with its line number; the lines in error are skipped, the rest applies.
    public var errors: [ConfigError] = []

    /// No file: the whole stick only.
    public init() {}

    /// Parses the file's text; `file` names it in errors.
    public init(parsing text: String, file: String = "shufflebox.txt") {
        var current: Station?
        // After a station line in error, its own lines are skipped quietly (one error for it, not one a line).
        var skipping = false
        func fail(_ line: Int, _ message: String) {
            errors.append(ConfigError(file: file, line: line, message: message))
        }
        func close() {
            guard let station = current else { return }
            current = nil
            if station.search.isEmpty {
                errors.append(
                    ConfigError(
                        file: file, line: nil, message: "station '\(station.name)' has no search; it is left out"))
            } else if stations.count > Self.maxStations {
                errors.append(ConfigError(file: file, line: nil, message: "more than \(Self.maxStations) stations"))
            } else {
                stations.append(station)
            }
        }
        for (index, raw) in ConfigParser.lines(text).enumerated() {
            let number = index + 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#"),
                hash == line.startIndex || line[line.index(before: hash)].isWhitespace
            {
                line = line[..<hash]
            }
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                fail(number, "expected 'key = value', not '\(String(trimmed.prefix(60)))'")
                continue
            }
            let key = trimmed[..<equals].trimmingSpaces.lowercased()
            let value = String(trimmed[trimmed.index(after: equals)...].trimmingSpaces)
            if skipping && current == nil && ["search", "mode", "shuffle", "story"].contains(key) { continue }
            switch key {
            case "station":
                close()
                skipping = true
                guard !value.isEmpty, value.count <= 80 else {
                    fail(number, "'station' needs a name of 1 to 80 characters")
                    continue
                }
                guard value.lowercased() != Self.wholeStick.lowercased(),
                    !stations.contains(where: { $0.name.lowercased() == value.lowercased() })
                else {
                    fail(number, "station '\(value)' is named twice")
                    continue
                }
                current = Station(name: value, search: StationSearch(), mode: nil)
                skipping = false
            case "search":
                guard current != nil else {
                    fail(number, "'search' belongs to a station: put 'station = NAME' before it")
                    continue
                }
                do throws(StationSearch.ParseError) {
                    current?.search = try StationSearch(parsing: value)
                } catch {
                    fail(number, error.message)
                }
            case "mode", "shuffle":
                guard let mode = ShuffleMode(parsing: value) else {
                    fail(
                        number, "'\(key)' must be one of shuffle, balanced, albums, in-order, not '\(value.prefix(40))'"
                    )
                    continue
                }
                if current != nil { current?.mode = mode } else { settings.mode = mode }
            case "story":
                guard current != nil else {
                    fail(number, "'story' belongs to a station: put 'station = NAME' before it")
                    continue
                }
                switch value.lowercased() {
                case "yes", "true", "on", "1": current?.isStory = true
                case "no", "false", "off", "0": current?.isStory = false
                default: fail(number, "'story' must be yes or no, not '\(value.prefix(40))'")
                }
            case "stories", "from-start":
                guard current == nil else {
                    fail(number, "'\(key)' is a setting of the whole stick: put it before the first station")
                    continue
                }
                let unquoted =
                    value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                    ? String(value.dropFirst().dropLast()) : value
                guard let folder = StoryRules.folder(unquoted), folder.count <= 1024 else {
                    fail(number, "'\(key)' needs a folder of the stick, such as 'Hörbücher'")
                    continue
                }
                if key == "stories" { stories.folders.append(folder) } else { stories.fromStart.append(folder) }
            case "volume", "max-volume":
                guard current == nil else {
                    fail(number, "'\(key)' is a setting of the whole stick: put it before the first station")
                    continue
                }
                guard let step = Int(value), (0...1000).contains(step) else {
                    fail(number, "'\(key)' needs a whole number of volume steps, not '\(value.prefix(40))'")
                    continue
                }
                if key == "volume" { settings.startVolume = step } else { settings.maxVolume = step }
            default:
                fail(
                    number,
                    "unknown key '\(key.prefix(40))' (a stick may set volume, max-volume, shuffle, stories, from-start and stations)"
                )
            }
        }
        close()
    }
}

/// One station: a name, the search that picks its tracks, and its mode (nil: the stick's or the box's).
public struct Station: Equatable, Sendable {
    /// The name (spoken, and listed to MPD clients as a playlist).
    public var name: String
    /// Which tracks it plays (empty: the whole stick).
    public var search: StationSearch
    /// Its mode, if it has one of its own.
    public var mode: ShuffleMode?
    /// Whether it is a story (`story = yes`): its tracks, stories among them, play in book order (disc,
    /// track, then natural file-name order) with a bookmark, and it is listed among the books.
    public var isStory: Bool

    /// Creates a station.
    public init(name: String, search: StationSearch, mode: ShuffleMode?, isStory: Bool = false) {
        self.name = name
        self.search = search
        self.mode = mode
        self.isStory = isStory
    }
}

/// The settings a stick may carry. They can lower the box's, never raise them (`applied(to:)`): the box's
/// configuration belongs to the parent.
public struct StickSettings: Equatable, Sendable {
    /// Start volume in steps.
    public var startVolume: Int?
    /// A cap in steps.
    public var maxVolume: Int?
    /// The stick's default shuffle mode.
    public var mode: ShuffleMode?

    /// No settings.
    public init(startVolume: Int? = nil, maxVolume: Int? = nil, mode: ShuffleMode? = nil) {
        self.startVolume = startVolume
        self.maxVolume = maxVolume
        self.mode = mode
    }

    /// The box's volume settings with this stick's applied: the cap and the start volume only ever go down.
    public func applied(to box: DaemonMachine.Settings) -> DaemonMachine.Settings {
        var result = box
        if let maxVolume { result.maxVolume = max(min(maxVolume, box.maxVolume), 0) }
        // The floor belongs to the box too: a stick's cap never goes under it.
        result.maxVolume = max(result.maxVolume, min(box.minVolume, box.maxVolume))
        result.startVolume = min(startVolume ?? box.startVolume, box.startVolume, result.maxVolume)
        return result
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}

/// Which station to play: one by name, or the next or previous one of the stick's list (round the end).
public enum StationChoice: Equatable, Sendable {
    /// The station of this name (case ignored).
    case named(String)
    /// The one after the playing station.
    case next
    /// The one before it.
    case previous

    /// `next`, `previous`, or a name.
    public init(_ text: String) {
        switch text.lowercased() {
        case "next": self = .next
        case "previous": self = .previous
        default: self = .named(text)
        }
    }

    /// The index in `stations` this choice picks, from `current`; nil when no station has that name.
    public func index(in stations: [Station], from current: Int) -> Int? {
        guard !stations.isEmpty else { return nil }
        switch self {
        case .next: return (current + 1) % stations.count
        case .previous: return (current - 1 + stations.count) % stations.count
        case .named(let name):
            return stations.firstIndex { $0.name == name }
                ?? stations.firstIndex { $0.name.lowercased() == name.lowercased() }
        }
    }
}

/// What plays when the station playing finds no song: the whole stick (station 0), so that the box is never
/// silent for a search that matches nothing; the whole stick finding none has nothing to fall back to.
public enum StationFallback {
    /// The station to play instead of `current`, which found no song (nil: none).
    public static func instead(of current: Int) -> Int? { current == 0 ? nil : 0 }
}
