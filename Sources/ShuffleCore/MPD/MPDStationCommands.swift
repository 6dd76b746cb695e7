/// The stick's stations (`shufflebox.txt`) and its books as MPD's stored playlists: `listplaylists` lists them, `load NAME`
/// plays one (from its own resume point: a station replaces the queue, where MPD's `load` would append to
/// it), and `listplaylist`/`listplaylistinfo` list the songs of the station playing. `shufflebox_station
/// NAME|next|previous` is what `shufflebox ctl station` sends.
extension MPDCommands {
    static let stationCommands = [
        "listplaylist", "listplaylistinfo", "listplaylists", "load", "shufflebox_station", "shufflebox_story",
    ]

    /// Answers a station command, or nil when `request` is not one.
    static func stationCommand<B: MPDBackend>(
        _ request: MPDRequest, _ backend: inout B, _ options: MPDClientOptions
    ) throws(MPDError) -> String? {
        let arguments = request.arguments
        switch request.name {
        case "listplaylists":
            try count(request, 0...0)
            return stationListing(backend.stations())
        case "load":
            // MPD's optional range and position have no meaning for a station: it is played whole.
            try count(request, 1...3)
            if let error = backend.chooseStation(.named(arguments[0])) { throw error }
            return ""
        case "shufflebox_station":
            try count(request, 1...1)
            if let error = backend.chooseStation(StationChoice(arguments[0])) { throw error }
            return ""
        case "shufflebox_story":
            try count(request, 1...1)
            guard let action = ButtonAction(rawValue: arguments[0]),
                [.stories, .nextStory, .startOver].contains(action)
            else { throw MPDError(.argument, "stories, next-story or start-over, not '\(arguments[0])'") }
            if let error = backend.storyAction(action) { throw error }
            return ""
        case "listplaylist", "listplaylistinfo":
            try count(request, 1...2)
            let name = arguments[0]
            let stations = backend.stations()
            guard let station = stations.first(where: { $0.name == name }) else {
                throw MPDError(.noExist, "No such playlist")
            }
            // The songs of the station playing are the queue; a book's are known beforehand; another
            // station's are found by its search when it plays.
            let known = station.playing ? backend.queue()?.ids : station.tracks
            guard let known else {
                throw MPDError(
                    .noExist, "the songs of station '\(name)' are listed while it plays: 'load' it first")
            }
            let ids = arguments.count > 1 ? known[try range(arguments[1], count: known.count)] : known[...]
            return ids.compactMap { id in
                backend.song(id: id).map { song in
                    request.name == "listplaylist"
                        ? "file: \(song.path)\n" : Self.song(song, position: nil, tags: options.tags)
                }
            }.joined()
        default:
            return nil
        }
    }

    /// `playlist:` entries (with the stick file's time) for `listplaylists` and the root's `lsinfo`.
    static func stationListing(_ stations: [StationListing]) -> String {
        stations.map { station in
            "playlist: \(station.name)\n" + (station.modified.map { "Last-Modified: \(utcTimestamp($0))\n" } ?? "")
        }.joined()
    }
}

/// One station as `listplaylists` shows it.
public struct StationListing: Equatable, Sendable {
    /// Its name.
    public var name: String
    /// When the stick's `shufflebox.txt` was last changed, in seconds since 1970 (nil: no file, the whole
    /// stick only).
    public var modified: Int64?
    /// Whether it is the station playing.
    public var playing: Bool
    /// A book's parts (track ids, in order), listed whether or not it plays; nil for a station.
    public var tracks: [Int64]?

    /// Creates a listing.
    public init(name: String, modified: Int64?, playing: Bool, tracks: [Int64]? = nil) {
        self.name = name
        self.modified = modified
        self.playing = playing
        self.tracks = tracks
    }
}
