/// The queue is the current cycle of the shuffle order: it can be listed, searched and played from any
/// place, and `shuffle` begins a new cycle; editing it (`add`, `delete`, `move`…) is answered with a clear
/// ACK, since the order is the player's own.
extension MPDCommands {
    static let queueCommands = [
        "playlist", "playlistfind", "playlistid", "playlistinfo", "playlistsearch", "plchanges", "plchangesposid",
        "shuffle",
    ]

    /// Commands that would edit the queue or stored playlists.
    static let editCommands: Set<String> = [
        "add", "addid", "addtagid", "clear", "cleartagid", "delete", "deleteid", "move", "moveid",
        "playlistadd", "playlistclear", "playlistdelete", "playlistmove", "prio", "prioid", "rangeid", "rename",
        "rm", "save", "swap", "swapid",
    ]

    /// Answers a queue command, or nil when `request` is not one.
    static func queueCommand<B: MPDBackend>(
        _ request: MPDRequest, _ backend: inout B, _ options: MPDClientOptions
    ) throws(MPDError) -> String? {
        let arguments = request.arguments
        if editCommands.contains(request.name) {
            throw MPDError(
                .system,
                "this is a shuffle player: its queue is the shuffle order and cannot be edited ('shuffle' starts a new cycle)"
            )
        }
        switch request.name {
        case "playlistinfo":
            try count(request, 0...1)
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            guard let first = arguments.first else { return songs(queue, 0..<queue.ids.count, backend, options) }
            let range = try Self.range(first, count: queue.ids.count)
            if range.isEmpty, !first.contains(":") { throw MPDError(.argument, "Bad song index") }
            return songs(queue, range, backend, options)
        case "playlistid":
            try count(request, 0...1)
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            guard let text = arguments.first else { return songs(queue, 0..<queue.ids.count, backend, options) }
            guard let id = Int64(text), let position = queue.ids.firstIndex(of: id) else {
                throw MPDError(.noExist, "No such song")
            }
            return songs(queue, position..<(position + 1), backend, options)
        case "plchanges", "plchangesposid":
            try count(request, 1...2)
            guard let version = Int(arguments[0]) else {
                throw MPDError(.argument, "Integer expected: \(arguments[0])")
            }
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            // The order is one whole: any other version than this one gets all of it.
            guard version != queue.version else { return "" }
            let range = try arguments.count > 1 ? Self.range(arguments[1], count: queue.ids.count) : 0..<queue.ids.count
            if request.name == "plchanges" { return songs(queue, range, backend, options) }
            return range.map { "cpos: \($0)\nId: \(queue.ids[$0])\n" }.joined()
        case "playlist":
            try count(request, 0...0)
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            return queue.ids.enumerated().compactMap { position, id in
                backend.song(id: id).map { "\(position):file: \($0.path)\n" }
            }.joined()
        case "playlistfind", "playlistsearch":
            let constraints = try tagConstraints(request)
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            var out = ""
            for (position, id) in queue.ids.enumerated() {
                guard let song = backend.song(id: id) else { continue }
                let exact = request.name == "playlistfind"
                guard constraints.allSatisfy({ matches(song, $0, exact: exact) }) else { continue }
                out += Self.song(song, position: position, tags: options.tags)
            }
            return out
        case "shuffle":
            try count(request, 0...1)
            return try perform(.reshuffle, request, &backend)
        default:
            return nil
        }
    }

    /// `play POS` / `playid ID`: the track at that place of the cycle, from its start.
    static func play<B: MPDBackend>(
        _ argument: String, byID: Bool, _ request: MPDRequest, _ backend: inout B
    ) throws(MPDError) -> String {
        guard let number = Int64(argument) else { throw MPDError(.argument, "Integer expected: \(argument)") }
        // MPD: -1 means "the current song" (resume).
        if number < 0 { return try perform(.play, request, &backend) }
        guard let queue = backend.queue() else { throw MPDError(.noExist, "No such song") }
        let position =
            byID ? queue.ids.firstIndex(of: number) : (queue.ids.indices.contains(Int(number)) ? Int(number) : nil)
        guard let position else { throw MPDError(.noExist, byID ? "No such song" : "Bad song index") }
        if position == queue.cursor { return try perform(.play, request, &backend) }
        return try perform(.playPosition(position), request, &backend)
    }

    /// `N` or `START:END` (END may be empty: to the end) within `count` places.
    static func range(_ text: String, count: Int) throws(MPDError) -> Range<Int> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard let first = parts.first, let start = Int(first), start >= 0, parts.count <= 2 else {
            throw MPDError(.argument, "Bad song index: \(text)")
        }
        if parts.count == 1 { return start < count ? start..<(start + 1) : start..<start }
        let end = parts[1].isEmpty ? count : Int(parts[1]) ?? -1
        guard end >= start else { throw MPDError(.argument, "Bad song index: \(text)") }
        return min(start, count)..<min(end, count)
    }

    private static func songs<B: MPDBackend>(
        _ queue: MPDQueue, _ range: Range<Int>, _ backend: B, _ options: MPDClientOptions
    ) -> String {
        var out = ""
        out.reserveCapacity(range.count * 200)
        for position in range where queue.ids.indices.contains(position) {
            guard let song = backend.song(id: queue.ids[position]) else { continue }
            append(song, position: position, tags: options.tags, to: &out)
        }
        return out
    }

    /// `TAG VALUE` pairs (`any`, `file`, or a tag name).
    static func tagConstraints(_ request: MPDRequest) throws(MPDError) -> [(field: String, value: String)] {
        let arguments = request.arguments
        guard !arguments.isEmpty, arguments.count % 2 == 0 else {
            throw MPDError(.argument, "incorrect arguments: '\(request.name)' needs TYPE VALUE pairs")
        }
        var out: [(field: String, value: String)] = []
        var index = 0
        while index < arguments.count {
            let field = arguments[index].lowercased()
            guard field == "any" || field == "file" || MPDTag(named: field) != nil else {
                throw MPDError(.argument, "Unknown tag type: \(arguments[index])")
            }
            out.append((field, arguments[index + 1]))
            index += 2
        }
        return out
    }

    /// Whether `song` has `value` in `field`: the whole value (`exact`) or a case-insensitive part.
    static func matches(_ song: SongInfo, _ constraint: (field: String, value: String), exact: Bool) -> Bool {
        let values: [String?]
        switch constraint.field {
        case "any": values = [song.path] + MPDTag.allCases.map { song.tag($0) }
        case "file": values = [song.path]
        default: values = [MPDTag(named: constraint.field).flatMap { song.tag($0) }]
        }
        return values.contains { value in
            guard let value else { return false }
            return exact ? value == constraint.value : value.lowercased().contains(constraint.value.lowercased())
        }
    }
}
