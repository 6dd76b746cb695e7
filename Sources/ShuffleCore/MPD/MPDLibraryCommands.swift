/// The library as clients browse it: folders (`lsinfo`, `listall`, `listallinfo`), tag lists (`list TAG
/// [FILTER] [group TAG ...]`), `count`, and `find`/`search` with filter expressions or any tag. Answered
/// from the backend's in-memory listing (`MPDBackend.librarySongs()`), never by a query on the loop's thread.
extension MPDCommands {
    static let libraryCommands = ["count", "list", "listall", "listallinfo", "lsinfo"]

    /// The filter part of a command's arguments, with what follows it (`sort`, `window`, `group`).
    struct Selection {
        var filter: MPDFilter?
        var groups: [MPDTag] = []
        var window: Range<Int>?
        var sort: MPDTag?
    }

    /// Answers a library command, or nil when `request` is not one.
    static func libraryCommand<B: MPDBackend>(
        _ request: MPDRequest, _ backend: B, _ options: MPDClientOptions
    ) throws(MPDError) -> String? {
        let arguments = request.arguments
        switch request.name {
        case "lsinfo":
            try count(request, 0...1)
            let path = arguments.first ?? ""
            let listing = try folder(path, backend.librarySongs(), options: options, recursive: false, info: true)
            // The root lists the stored playlists too, as MPD's does: `mpc lsplaylists` reads them there.
            guard path.isEmpty || path == "/" else { return listing }
            return listing + stationListing(backend.stations())
        case "listall", "listallinfo":
            try count(request, 0...1)
            return try folder(
                arguments.first ?? "", backend.librarySongs(), options: options, recursive: true,
                info: request.name == "listallinfo")
        case "list":
            guard let name = arguments.first, let tag = MPDTag(named: name) else {
                throw MPDError(.argument, "Unknown tag type: \(arguments.first ?? "")")
            }
            var rest = Array(arguments.dropFirst())
            // The old form `list album ARTIST` (M.A.L.P. without group support).
            if tag == .album, rest.count == 1, !rest[0].hasPrefix("(") { rest = ["artist", rest[0]] }
            let selection = try select(rest, exact: true, request)
            return list(tag, selection, backend.librarySongs())
        case "count":
            // Summed song by song: a big library is never copied out as `SongInfo`s, which the heap would keep
            // after the answer.
            return count(try select(arguments, exact: true, request), backend.librarySongs())
        default:
            return nil
        }
    }

    /// `find`/`search` over the in-memory listing: a filter expression, or `TAG VALUE` pairs naming any tag.
    static func findInLibrary<B: MPDBackend>(
        _ request: MPDRequest, _ backend: B, _ options: MPDClientOptions
    ) throws(MPDError) -> String {
        let exact = request.name == "find"
        let selection = try select(request.arguments, exact: exact, request)
        var songs = backend.librarySongs().filter { selection.filter?.matches($0, foldCase: !exact) ?? true }
        if let sort = selection.sort { songs.sort { ($0.tag(sort) ?? "") < ($1.tag(sort) ?? "") } }
        if let window = selection.window {
            songs = Array(songs[min(window.lowerBound, songs.count)..<min(window.upperBound, songs.count)])
        }
        return songs.map { song($0, position: nil, tags: options.tags) }.joined()
    }

    /// Whether `find`/`search` arguments need more than the full-text index (a filter expression, or a tag
    /// other than any, title, artist and album).
    static func needsListing(_ arguments: [String]) -> Bool {
        if arguments.first?.hasPrefix("(") == true { return true }
        var index = 0
        while index < arguments.count {
            if SearchField(rawValue: arguments[index].lowercased()) == nil { return true }
            index += 2
        }
        return false
    }

    /// Parses `[FILTER | TAG VALUE ...] [sort TAG] [window A:B] [group TAG ...]`.
    static func select(_ arguments: [String], exact: Bool, _ request: MPDRequest) throws(MPDError) -> Selection {
        var selection = Selection()
        var index = 0
        var pairs: [MPDFilter] = []
        while index < arguments.count {
            let word = arguments[index]
            switch word.lowercased() {
            case _ where word.hasPrefix("("):
                pairs.append(try MPDFilter.parse(word))
                index += 1
                continue
            case "group", "sort", "window":
                guard index + 1 < arguments.count else { throw MPDError(.argument, "Missing argument after '\(word)'") }
                let value = arguments[index + 1]
                switch word.lowercased() {
                case "group":
                    guard let tag = MPDTag(named: value) else {
                        throw MPDError(.argument, "Unknown tag type: \(value)")
                    }
                    selection.groups.append(tag)
                case "sort":
                    selection.sort = MPDTag(named: value.hasPrefix("-") ? String(value.dropFirst()) : value)
                default:
                    selection.window = try range(value, count: Int.max)
                }
                index += 2
                continue
            default:
                break
            }
            let field = word.lowercased()
            guard field == "any" || field == "file" || field == "base" || MPDTag(named: field) != nil else {
                throw MPDError(.argument, "Unknown tag type: \(word)")
            }
            guard index + 1 < arguments.count else {
                throw MPDError(.argument, "incorrect arguments: '\(request.name)' needs TYPE VALUE pairs")
            }
            let value = arguments[index + 1]
            pairs.append(field == "base" ? .base(value) : .compare(field: field, exact ? .equals : .contains, value))
            index += 2
        }
        if !pairs.isEmpty { selection.filter = pairs.count == 1 ? pairs[0] : .and(pairs) }
        return selection
    }

    /// `list TAG`: distinct values (sorted), under each distinct value of the `group` tags.
    private static func list(_ tag: MPDTag, _ selection: Selection, _ library: SongList) -> String {
        let tags = selection.groups + [tag]
        func matches(_ position: Int) -> Bool { selection.filter?.matches(library[position], foldCase: false) ?? true }
        func row(_ position: Int) -> [String]? {
            guard let value = library.tag(tag, at: position) else { return nil }
            return selection.groups.map { library.tag($0, at: position) ?? "" } + [value]
        }
        var rows = Set<[String]>()
        if tags.count <= 3, !tags.contains(.title) {
            // The distinct rows by their tags' keys first (no string made or retained per song), then their
            // values: 21,000 rows of 100,000 songs where every song would otherwise build a row.
            var keys: [RowKey: Int] = [:]
            for position in library.indices where matches(position) {
                var key = RowKey()
                for (level, next) in tags.enumerated() { key[level] = library.tagKey(next, at: position) ?? 0 }
                if keys[key] == nil { keys[key] = position }
            }
            for position in keys.values { if let row = row(position) { rows.insert(row) } }
        } else {
            for position in library.indices where matches(position) { if let row = row(position) { rows.insert(row) } }
        }
        let names = tags.map(\.rawValue)
        var out = MPDWriter()
        var previous: [String] = []
        for row in rows.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            for (level, value) in row.enumerated()
            where level == row.count - 1 || previous.count <= level
                || previous[...level] != row[...level]
            {
                out.line(names[level], value)
            }
            previous = row
        }
        return out.text
    }

    /// The keys (`SongList.tagKey`) of up to three tags of one song.
    private struct RowKey: Hashable {
        var keys: (Int64, Int64, Int64) = (0, 0, 0)
        subscript(level: Int) -> Int64 {
            get { level == 0 ? keys.0 : level == 1 ? keys.1 : keys.2 }
            set {
                switch level {
                case 0: keys.0 = newValue
                case 1: keys.1 = newValue
                default: keys.2 = newValue
                }
            }
        }
        static func == (left: RowKey, right: RowKey) -> Bool { left.keys == right.keys }
        func hash(into hasher: inout Hasher) {
            hasher.combine(keys.0)
            hasher.combine(keys.1)
            hasher.combine(keys.2)
        }
    }

    /// `songs:` and `playtime:` of the songs matching `selection`, by the value of its first `group` tag.
    private static func count(_ selection: Selection, _ library: SongList) -> String {
        var totals: [String: (songs: Int, milliseconds: Int64)] = [:]
        let group = selection.groups.first
        for position in library.indices {
            if let filter = selection.filter, !filter.matches(library[position], foldCase: false) { continue }
            let key = group.map { library.tag($0, at: position) ?? "" } ?? ""
            totals[key, default: (0, 0)].songs += 1
            totals[key, default: (0, 0)].milliseconds += library.durationMs(at: position)
        }
        func lines(_ total: (songs: Int, milliseconds: Int64)) -> String {
            "songs: \(total.songs)\nplaytime: \(total.milliseconds / 1000)\n"
        }
        guard let group else { return lines(totals[""] ?? (0, 0)) }
        return totals.keys.sorted().map { key in format([(group.rawValue, key)]) + lines(totals[key] ?? (0, 0)) }
            .joined()
    }

    /// The folder `uri`: its subfolders and songs (`recursive`: everything below), with tags when `info`.
    /// A folder's entries, or a song's own when `uri` names one; a path that is neither is MPD's `No such
    /// directory` (an empty OK would say the folder exists: Cantata took that for another server and asked
    /// for a library that is not there).
    private static func folder(
        _ uri: String, _ library: SongList, options: MPDClientOptions, recursive: Bool, info: Bool
    ) throws(MPDError) -> String {
        let base = uri.trimmingSlashes
        let prefix = base.isEmpty ? "" : base + "/"
        var folders = Set<String>()
        var out = ""
        var files = ""
        var found = base.isEmpty
        for position in library.indices {
            let songPath = library.path(at: position)
            if !found && songPath == base {
                return info ? Self.song(library[position], position: nil, tags: options.tags) : "file: \(songPath)\n"
            }
            guard songPath.hasPrefix(prefix) else { continue }
            found = true
            let rest = songPath.dropFirst(prefix.count)
            let parts = rest.split(separator: "/")
            guard parts.count > 1 else {
                files += info ? Self.song(library[position], position: nil, tags: options.tags) : "file: \(songPath)\n"
                continue
            }
            if recursive {
                var path = base
                for part in parts.dropLast() {
                    path = path.isEmpty ? String(part) : path + "/" + part
                    if folders.insert(path).inserted { out += "directory: \(path)\n" }
                }
                files += info ? Self.song(library[position], position: nil, tags: options.tags) : "file: \(songPath)\n"
            } else {
                folders.insert(prefix + parts[0])
            }
        }
        guard found else { throw MPDError(.noExist, "No such directory") }
        if recursive { return out + files }
        return folders.sorted().map { "directory: \($0)\n" }.joined() + files
    }
}

extension String {
    /// Without leading and trailing `/`.
    fileprivate var trimmingSlashes: String {
        var text = Substring(self)
        while text.hasPrefix("/") { text = text.dropFirst() }
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
