/// Carries out one MPD command against a backend and formats the response body (`key: value` lines).
public enum MPDCommands {
    /// The commands this daemon answers (`commands` lists them).
    public static let supported: [String] = [
        "close", "command_list_begin", "command_list_end", "command_list_ok_begin", "commands", "currentsong",
        "find", "idle", "next", "noidle", "notcommands", "pause", "ping", "play", "playid", "previous", "search",
        "seek",
        "seekcur", "seekid",
        "setvol", "shufflebox_setstep", "shufflebox_volumestep", "stats", "status", "stop", "tagtypes", "volume",
    ]

    /// The idle subsystems MPD knows; only `player`, `mixer` and `database` ever fire here.
    public static let idleNames: Set<String> = [
        "database", "update", "stored_playlist", "playlist", "player", "mixer", "output", "options", "partition",
        "sticker", "subscription", "message", "neighbor", "mount",
    ]

    /// Runs `request` (not a list or idle command, which `MPDSession` handles) and returns the body.
    public static func run<B: MPDBackend>(_ request: MPDRequest, on backend: inout B) throws(MPDError) -> String {
        let arguments = request.arguments
        switch request.name {
        case "ping":
            try count(request, 0...0)
            return ""
        case "commands":
            try count(request, 0...0)
            return supported.map { "command: \($0)\n" }.joined()
        case "notcommands", "tagtypes":
            try count(request, 0...Int.max)
            return request.name == "tagtypes" ? "tagtype: Artist\ntagtype: Album\ntagtype: Title\n" : ""
        case "status":
            try count(request, 0...0)
            return status(backend.snapshot())
        case "currentsong":
            try count(request, 0...0)
            let snapshot = backend.snapshot()
            guard let track = snapshot.track else { return "" }
            return song(track, position: snapshot.queuePosition)
        case "stats":
            try count(request, 0...0)
            return stats(backend.snapshot())
        case "play", "playid":
            try count(request, 0...1)
            return try perform(.play, request, &backend)
        case "stop":
            try count(request, 0...0)
            return try perform(.pause, request, &backend)
        case "pause":
            try count(request, 0...1)
            switch arguments.first {
            case nil: return try perform(.toggle, request, &backend)
            case "1": return try perform(.pause, request, &backend)
            case "0": return try perform(.play, request, &backend)
            case let other?: throw MPDError(.argument, "Boolean (0/1) expected: \(other)")
            }
        case "next":
            try count(request, 0...0)
            return try perform(.next, request, &backend)
        case "previous":
            try count(request, 0...0)
            return try perform(.previous, request, &backend)
        case "setvol":
            try count(request, 1...1)
            guard let percent = Int(arguments[0]), (0...100).contains(percent) else {
                throw MPDError(.argument, "Invalid volume value: \(arguments[0])")
            }
            let steps = backend.snapshot().volumeSteps
            return try perform(.setVolume(MPDVolume.step(percent: percent, steps: steps)), request, &backend)
        case "volume":
            try count(request, 1...1)
            guard let change = Int(arguments[0]), (-100...100).contains(change) else {
                throw MPDError(.argument, "Invalid volume value: \(arguments[0])")
            }
            let steps = backend.snapshot().volumeSteps
            return try perform(.changeVolume(MPDVolume.stepChange(percent: change, steps: steps)), request, &backend)
        case "shufflebox_setstep", "shufflebox_volumestep":
            // Our extensions for `shufflebox ctl volume`: exact steps, no percent rounding.
            try count(request, 1...1)
            guard let number = Int(arguments[0]), (-1000...1000).contains(number) else {
                throw MPDError(.argument, "Invalid volume step: \(arguments[0])")
            }
            let action: PlayerAction =
                request.name == "shufflebox_setstep" ? .setVolume(number) : .changeVolume(number)
            return try perform(action, request, &backend)
        case "seekcur":
            try count(request, 1...1)
            let text = arguments[0]
            let milliseconds = try Self.milliseconds(text)
            if text.hasPrefix("+") || text.hasPrefix("-") {
                return try perform(.seek(byMs: milliseconds), request, &backend)
            }
            return try perform(.seekTo(ms: milliseconds), request, &backend)
        case "seek", "seekid":
            try count(request, 2...2)
            let snapshot = backend.snapshot()
            guard let wanted = Int64(arguments[0]), wanted >= 0 else {
                throw MPDError(.argument, "Integer expected: \(arguments[0])")
            }
            let milliseconds = try Self.milliseconds(arguments[1])
            let current = request.name == "seek" ? snapshot.queuePosition.map(Int64.init) : snapshot.track?.id
            guard let current, current == wanted, snapshot.track != nil else {
                throw MPDError(.noExist, "only the current song can be seeked in this shuffle player")
            }
            return try perform(.seekTo(ms: max(0, milliseconds)), request, &backend)
        case "search", "find":
            let constraints = try searchConstraints(request)
            let exact = request.name == "find"
            return try backend.search(constraints, exact: exact).enumerated().map { song($1, position: nil) }.joined()
        default:
            throw MPDError(.unknown, "unknown command \"\(request.name)\"")
        }
    }

    // MARK: - Responses

    /// The `status` body.
    public static func status(_ snapshot: PlayerSnapshot) -> String {
        var lines: [(String, String)] = [
            ("volume", String(MPDVolume.percent(step: snapshot.volume, steps: snapshot.volumeSteps))),
            ("repeat", "1"), ("random", "1"), ("single", "0"), ("consume", "0"),
            ("playlist", String(snapshot.tracks + 1)), ("playlistlength", String(snapshot.tracks)),
            ("mixrampdb", "0.000000"),
        ]
        let state: String
        switch snapshot.state {
        case .playing where snapshot.track != nil: state = "play"
        case .paused where snapshot.track != nil: state = "pause"
        default: state = "stop"
        }
        lines.append(("state", state))
        if let track = snapshot.track, state != "stop" {
            if let position = snapshot.queuePosition { lines.append(("song", String(position))) }
            lines.append(("songid", String(track.id)))
            lines.append(("time", "\(snapshot.positionMs / 1000):\((track.durationMs + 500) / 1000)"))
            lines.append(("elapsed", seconds(snapshot.positionMs)))
            lines.append(("bitrate", "0"))
            lines.append(("duration", seconds(track.durationMs)))
            if snapshot.sampleRate > 0 {
                lines.append(("audio", "\(snapshot.sampleRate):16:\(snapshot.channels)"))
            }
        }
        if snapshot.indexing { lines.append(("updating_db", "1")) }
        if let reason = snapshot.state.errorReason { lines.append(("error", reason)) }
        // Extension keys (MPD clients ignore unknown keys): what `shufflebox status` needs beyond MPD.
        lines.append(("x-state", snapshot.state.name))
        lines.append(("x-volume-step", String(snapshot.volume)))
        lines.append(("x-volume-steps", String(snapshot.volumeSteps)))
        lines.append(("x-max-volume", String(snapshot.maxVolume)))
        if let root = snapshot.libraryRoot { lines.append(("x-library-root", root)) }
        if let warning = snapshot.warning { lines.append(("x-warning", warning)) }
        if let paused = snapshot.playerPaused { lines.append(("x-player-paused", paused ? "1" : "0")) }
        if let paused = snapshot.outputPaused { lines.append(("x-output-paused", paused ? "1" : "0")) }
        return format(lines)
    }

    /// The `stats` body.
    public static func stats(_ snapshot: PlayerSnapshot) -> String {
        format([
            ("artists", String(snapshot.artists)), ("albums", String(snapshot.albums)),
            ("songs", String(snapshot.tracks)), ("uptime", String(snapshot.uptimeSeconds)), ("playtime", "0"),
            ("db_playtime", "0"), ("db_update", "0"),
        ])
    }

    /// One song's lines (`file`, `Title`, `Artist`, `Album`, `Time`, `duration`, `Pos`, `Id`).
    public static func song(_ song: SongInfo, position: Int?) -> String {
        var lines: [(String, String)] = [("file", song.path)]
        if let title = song.title { lines.append(("Title", title)) }
        if let artist = song.artist { lines.append(("Artist", artist)) }
        if let album = song.album { lines.append(("Album", album)) }
        lines.append(("Time", String((song.durationMs + 500) / 1000)))
        lines.append(("duration", seconds(song.durationMs)))
        if let position { lines.append(("Pos", String(position))) }
        lines.append(("Id", String(song.id)))
        return format(lines)
    }

    /// `key: value` lines; a newline inside a value (a hostile tag) is replaced by a space.
    public static func format(_ pairs: [(String, String)]) -> String {
        pairs.map { key, value in
            let flat =
                value.contains(where: { $0 == "\n" || $0 == "\r" })
                ? String(value.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) : value
            return "\(key): \(flat)\n"
        }.joined()
    }

    /// Seconds as MPD sends them (`12`, `12.5`, `+5`, `-2.25`) in milliseconds.
    static func milliseconds(_ text: String) throws(MPDError) -> Int64 {
        guard let value = Double(text), value.isFinite, abs(value) < 1e9 else {
            throw MPDError(.argument, "Number expected: \(text)")
        }
        return Int64((value * 1000).rounded())
    }

    private static func seconds(_ milliseconds: Int64) -> String {
        let ms = max(0, milliseconds)
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    // MARK: - Helpers

    private static func count(_ request: MPDRequest, _ range: ClosedRange<Int>) throws(MPDError) {
        if request.arguments.count < range.lowerBound {
            throw MPDError(.argument, "too few arguments for \"\(request.name)\"")
        }
        if request.arguments.count > range.upperBound {
            throw MPDError(.argument, "too many arguments for \"\(request.name)\"")
        }
    }

    private static func perform<B: MPDBackend>(
        _ action: PlayerAction, _ request: MPDRequest, _ backend: inout B
    ) throws(MPDError) -> String {
        if let error = backend.perform(action) { throw error }
        return ""
    }

    private static func searchConstraints(_ request: MPDRequest) throws(MPDError) -> [SearchConstraint] {
        let arguments = request.arguments
        if let first = arguments.first, first.hasPrefix("(") {
            throw MPDError(
                .argument, "filter expressions are not supported here; use '\(request.name) title VALUE'")
        }
        guard !arguments.isEmpty, arguments.count % 2 == 0 else {
            throw MPDError(.argument, "incorrect arguments: '\(request.name)' needs TYPE VALUE pairs")
        }
        var constraints: [SearchConstraint] = []
        var index = 0
        while index < arguments.count {
            guard let field = SearchField(rawValue: arguments[index].lowercased()) else {
                throw MPDError(
                    .argument, "unsupported tag type '\(arguments[index])' (use any, title, artist or album)")
            }
            constraints.append(SearchConstraint(field, arguments[index + 1]))
            index += 2
        }
        return constraints
    }
}
