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

    /// A queue listing of at least this many songs is sent as the client reads it (`MPDSongStream`).
    public static let streamedSongs = 1_000

    /// `playlistinfo`, `playlistid` with no argument or `plchanges` of the whole queue or a long part of it,
    /// as a stream, where the backend can keep a listing for one; nil: `run` answers it (and any error).
    static func songStream<B: MPDBackend>(
        _ request: MPDRequest, _ backend: B, _ options: MPDClientOptions
    ) -> MPDSongStream? {
        guard request.name == "playlistinfo" || request.name == "playlistid" || request.name == "plchanges",
            let queue = backend.queue(), let range = try? listedRange(request, queue),
            range.count >= streamedSongs, let write = backend.songWriter()
        else { return nil }
        return MPDSongStream(
            ids: queue.ids, range: range, tags: MPDTag.allCases.filter(options.tags.contains), write: write)
    }

    /// The places of the queue that `playlistinfo [POS|START:END]`, `playlistid [ID]` or
    /// `plchanges[posid] VERSION [START:END]` list.
    static func listedRange(_ request: MPDRequest, _ queue: MPDQueue) throws(MPDError) -> Range<Int> {
        let arguments = request.arguments
        switch request.name {
        case "playlistinfo":
            try count(request, 0...1)
            guard let first = arguments.first else { return 0..<queue.ids.count }
            let range = try Self.range(first, count: queue.ids.count)
            if range.isEmpty, !first.contains(":") { throw MPDError(.argument, "Bad song index") }
            return range
        case "playlistid":
            try count(request, 0...1)
            guard let text = arguments.first else { return 0..<queue.ids.count }
            guard let id = Int64(text), let position = queue.ids.firstIndex(of: id) else {
                throw MPDError(.noExist, "No such song")
            }
            return position..<(position + 1)
        default:  // plchanges, plchangesposid
            try count(request, 1...2)
            guard let version = Int(arguments[0]) else {
                throw MPDError(.argument, "Integer expected: \(arguments[0])")
            }
            // The order is one whole: any other version than this one gets all of it.
            guard version != queue.version else { return 0..<0 }
            return try arguments.count > 1 ? Self.range(arguments[1], count: queue.ids.count) : 0..<queue.ids.count
        }
    }

    /// Answers a queue command, or nil when `request` is not one.
    static func queueCommand<B: MPDBackend>(
        _ request: MPDRequest, _ backend: inout B, _ options: MPDClientOptions
    ) throws(MPDError) -> String? {
        if editCommands.contains(request.name) {
            throw MPDError(
                .system,
                "this is a shuffle player: its queue is the shuffle order and cannot be edited ('shuffle' starts a new cycle)"
            )
        }
        switch request.name {
        case "playlistinfo", "playlistid", "plchanges":
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            return songs(queue, try listedRange(request, queue), backend, options)
        case "plchangesposid":
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            return try listedRange(request, queue).map { "cpos: \($0)\nId: \(queue.ids[$0])\n" }.joined()
        case "playlist":
            try count(request, 0...0)
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            var out = MPDWriter()
            backend.forEachSong(in: queue.ids[...]) { position, song in
                out.line(String(position) + ":file", song.path)
            }
            return out.text
        case "playlistfind", "playlistsearch":
            let constraints = try tagConstraints(request)
            let queue = backend.queue() ?? MPDQueue(version: 0, ids: [], cursor: 0)
            var out = MPDWriter()
            let tags = MPDTag.allCases.filter(options.tags.contains)
            let exact = request.name == "playlistfind"
            backend.forEachSong(in: queue.ids[...]) { position, song in
                guard constraints.allSatisfy({ matches(song, $0, exact: exact) }) else { return }
                append(song, position: position, tags: tags, to: &out)
            }
            return out.text
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
        let range = range.clamped(to: queue.ids.indices)
        var out = MPDWriter(capacity: range.count * 256)
        let tags = MPDTag.allCases.filter(options.tags.contains)
        backend.writeSongs(queue.ids[range], tags: tags, into: &out)
        return out.text
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
