/// Carries out one MPD command against a backend and formats the response body (`key: value` lines).
public enum MPDCommands {
    /// The commands this daemon answers (`commands` lists them), sorted.
    public static let supported: [String] =
        Array(
            Set(
                playbackCommands + connectCommands + queueCommands + libraryCommands + pictureCommands + stationCommands
            )
        ).sorted()

    static let playbackCommands = [
        "close", "command_list_begin", "command_list_end", "command_list_ok_begin", "commands", "currentsong",
        "find", "idle", "next", "noidle", "notcommands", "pause", "ping", "play", "playid", "previous", "search",
        "seek", "seekcur", "seekid", "setvol", "shufflebox_setstep", "shufflebox_sleep", "shufflebox_volumestep",
        "stats", "status",
        "stop", "volume",
    ]

    /// The idle subsystems MPD knows; `player`, `mixer`, `database`, `playlist` and `update` fire here.
    public static let idleNames: Set<String> = [
        "database", "update", "stored_playlist", "playlist", "player", "mixer", "output", "options", "partition",
        "sticker", "subscription", "message", "neighbor", "mount",
    ]

    /// Runs `request` (not a list or idle command, which `MPDSession` handles) and returns the body.
    public static func run<B: MPDBackend>(
        _ request: MPDRequest, on backend: inout B, options: inout MPDClientOptions
    ) throws(MPDError) -> String {
        let arguments = request.arguments
        switch request.name {
        case "ping":
            try count(request, 0...0)
            return ""
        case "commands":
            try count(request, 0...0)
            return supported.map { "command: \($0)\n" }.joined()
        case "notcommands":
            return ""
        case "status":
            try count(request, 0...0)
            return status(backend.snapshot())
        case "currentsong":
            try count(request, 0...0)
            let snapshot = backend.snapshot()
            guard let track = snapshot.track else { return "" }
            return song(track, position: snapshot.queuePosition, tags: options.tags)
        case "stats":
            try count(request, 0...0)
            return stats(backend.snapshot())
        case "play", "playid":
            try count(request, 0...1)
            guard let argument = arguments.first else { return try perform(.play, request, &backend) }
            return try play(argument, byID: request.name == "playid", request, &backend)
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
        case "shufflebox_sleep":
            // Our extension for `shufflebox ctl sleep MINUTES`: the time in seconds.
            try count(request, 1...1)
            guard let seconds = Int(arguments[0]), (0...86_400).contains(seconds) else {
                throw MPDError(.argument, "Invalid sleep seconds: \(arguments[0])")
            }
            return try perform(.sleep(seconds: seconds), request, &backend)
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
            // `find` is an exact filter: answered from the listing when there is one; `search` ranks through
            // the full-text index unless it names what only the listing has.
            if answeredFromListing(request, backend) {
                return try findInLibrary(request, backend, options)
            }
            let constraints = try searchConstraints(request)
            let exact = request.name == "find"
            return try backend.search(constraints, exact: exact).map { song($0, position: nil, tags: options.tags) }
                .joined()
        case "enableoutput", "disableoutput", "toggleoutput":
            // The one output; disabling it mutes the box without touching the volume step.
            try count(request, 1...1)
            if let number = Int(arguments[0]), number >= 1, number <= backend.snapshot().outputs.count {
                // The box's own outputs are chosen by what is plugged in, not by a client.
                let output = backend.snapshot().outputs[number - 1]
                if request.name == "enableoutput" && output.state == .inUse { return "" }
                throw MPDError(
                    .system, "output \(output.name) is chosen by the box from what is plugged in (shufflebox outputs)")
            }
            guard arguments[0] == "0" else { throw MPDError(.noExist, "No such audio output") }
            let enable: Bool
            switch request.name {
            case "enableoutput": enable = true
            case "disableoutput": enable = false
            default: enable = !backend.snapshot().outputEnabled
            }
            return try perform(.setOutput(enabled: enable), request, &backend)
        case "update", "rescan":
            // The whole stick is indexed again, incrementally, whatever URI is named: unchanged files cost a
            // stat each. Status says `updating_db: 1` until the run ends (idle `update` fires both times).
            try count(request, 0...1)
            if let error = backend.perform(.rescan) { throw error }
            guard backend.snapshot().libraryRoot != nil else {
                throw MPDError(.noExist, "no library: plug in a USB stick with music")
            }
            return "updating_db: 1\n"
        default:
            if let body = try stationCommand(request, &backend, options) { return body }
            if let body = try connectCommand(request, backend.snapshot(), &options) { return body }
            if let body = try queueCommand(request, &backend, options) { return body }
            if let body = try libraryCommand(request, backend, options) { return body }
            throw MPDError(.unknown, "unknown command \"\(request.name)\"")
        }
    }

    // MARK: - Helpers

    static func count(_ request: MPDRequest, _ range: ClosedRange<Int>) throws(MPDError) {
        if request.arguments.count < range.lowerBound {
            throw MPDError(.argument, "too few arguments for \"\(request.name)\"")
        }
        if request.arguments.count > range.upperBound {
            throw MPDError(.argument, "too many arguments for \"\(request.name)\"")
        }
    }

    static func perform<B: MPDBackend>(
        _ action: PlayerAction, _ request: MPDRequest, _ backend: inout B
    ) throws(MPDError) -> String {
        if let error = backend.perform(action) { throw error }
        return ""
    }

    /// Whether `find`/`search` is answered from the in-memory listing rather than the full-text index.
    private static func answeredFromListing<B: MPDBackend>(_ request: MPDRequest, _ backend: B) -> Bool {
        needsListing(request.arguments) || (request.name == "find" && !backend.librarySongs().isEmpty)
    }

    /// The index search `request` asks for, when the backend answers searches in the background; nil for any
    /// other request (answered by `run`).
    static func backgroundSearch<B: MPDBackend>(
        _ request: MPDRequest, _ backend: B, _ options: MPDClientOptions
    ) throws(MPDError) -> PendingSearch? {
        guard request.name == "search" || request.name == "find", backend.searchesInBackground,
            !answeredFromListing(request, backend)
        else { return nil }
        return PendingSearch(
            constraints: try searchConstraints(request), exact: request.name == "find", tags: options.tags,
            command: request.name)
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
