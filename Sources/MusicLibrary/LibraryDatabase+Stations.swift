import LibSQLite
import ShuffleCore

/// A station's tracks (`StationSearch`): the free words matched like `shufflebox search` (every word in the
/// tags, or every word in the path), and each field filter on top.
extension LibraryDatabase {
    /// What a station's search asks of a track: an SQL condition over `f` (files) and `t` (tracks) and the
    /// values to bind into it, from parameter `firstParameter` on; nil when the search can pick nothing.
    struct StationQuery {
        var condition: String
        var texts: [(Int32, String)]
        var blobs: [(Int32, [UInt8])]
        /// The first parameter not used.
        var next: Int32
    }

    /// The condition for `search` (`TRUE` for an empty one), or nil when its words hold nothing searchable.
    static func stationQuery(_ search: StationSearch, firstParameter: Int32) -> StationQuery? {
        var conditions = ["TRUE"]
        var texts: [(Int32, String)] = []
        var blobs: [(Int32, [UInt8])] = []
        var next = firstParameter
        if !search.words.isEmpty {
            // Words with nothing searchable in them pick nothing, as in `shufflebox search`.
            guard let match = SearchQuery.matchExpression(for: search.words.joined(separator: " ")) else { return nil }
            conditions.append(
                "f.id IN (SELECT rowid FROM tracks_fts WHERE tracks_fts MATCH ?\(next) "
                    + "UNION SELECT rowid FROM paths_fts WHERE paths_fts MATCH ?\(next))")
            texts.append((next, match))
            next += 1
        }
        for filter in search.filters {
            switch filter.field {
            case .folder:
                var folder = Array(filter.value.utf8)
                while folder.last == UInt8(ascii: "/") { folder.removeLast() }
                while folder.first == UInt8(ascii: "/") { folder.removeFirst() }
                guard !folder.isEmpty else { continue }
                folder.append(UInt8(ascii: "/"))
                conditions.append("substr(f.path, 1, \(folder.count)) = ?\(next)")
                blobs.append((next, folder))
            default:
                let column =
                    switch filter.field {
                    case .artist: "t.artist"
                    case .album: "t.album"
                    case .albumartist: "t.album_artist"
                    case .title: "t.title"
                    default: "t.genre"
                    }
                conditions.append("instr(lower(\(column)), lower(?\(next))) > 0")
                texts.append((next, filter.value))
            }
            next += 1
        }
        return StationQuery(
            condition: "(" + conditions.joined(separator: " AND ") + ")", texts: texts, blobs: blobs, next: next)
    }

    /// The ids of the playable tracks of `volume` that `search` picks, ascending (every track when empty).
    /// An ordinary station plays songs: stories (flagged ones, and those under a folder `rules` marks) are
    /// left out. A story station (`includingStories`) takes everything its search picks.
    public func stationTrackIDs(
        _ search: StationSearch, of volume: VolumeRef, rules: StoryRules = StoryRules(), includingStories: Bool = false
    ) throws(LibraryError) -> [TrackID] {
        guard let query = Self.stationQuery(search, firstParameter: 2) else { return [] }
        var condition = query.condition
        var blobs = query.blobs
        if !includingStories {
            let marked = Self.underFolders(rules.folders + rules.fromStart, firstParameter: query.next)
            condition += " AND t.story IS NULL AND NOT " + marked.sql
            blobs += marked.blobs
        }
        let sql =
            "SELECT f.id FROM files f JOIN tracks t ON t.id = f.id WHERE f.volume_id = ?1 AND f.status = 'ok' AND "
            + condition + " ORDER BY f.id"
        return try wrap { () throws(SQLiteError) -> [TrackID] in
            try withStatement(sql) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                for (index, text) in query.texts { try statement.bind(text, at: index) }
                for (index, blob) in blobs { try statement.bind(blob: blob, at: index) }
                var result: [TrackID] = []
                while try statement.step() == .row { result.append(TrackID(statement.int64(at: 0))) }
                return result
            }
        }
    }
}

extension LibraryStore {
    /// The ids of the playable tracks of `volume` that `search` picks (stories only with `includingStories`).
    public func stationTrackIDs(
        _ search: StationSearch, of volume: VolumeRef, rules: StoryRules = StoryRules(), includingStories: Bool = false
    ) throws(LibraryError) -> [TrackID] {
        try perform { database throws(LibraryError) in
            try database.stationTrackIDs(search, of: volume, rules: rules, includingStories: includingStories)
        }
    }
}
