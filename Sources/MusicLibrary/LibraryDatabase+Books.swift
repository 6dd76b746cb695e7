import LibSQLite
import ShuffleCore

/// A stick's books: its story tracks grouped and put in the order they are read.
extension LibraryDatabase {
    /// One playable story track as the grouping needs it.
    struct StoryPart {
        var id: TrackID
        var path: [UInt8]
        /// Its own kind (flag or genre); nil for an untagged file of a marked folder.
        var kind: StoryKind?
        var album: String?
        var title: String?
        var disc: Int?
        var track: Int?
        var hasChapters: Bool

        /// The file name: the path after its last `/`.
        var name: ArraySlice<UInt8> {
            path.lastIndex(of: UInt8(ascii: "/")).map { path[($0 + 1)...] } ?? path[...]
        }

        /// The folder: the path before its last `/` (empty at the root).
        var folder: [UInt8] { path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[..<$0]) } ?? [] }

        /// Book order: disc, then track number (untagged as 0), then the file name in natural order, then path.
        static func precedes(_ a: StoryPart, _ b: StoryPart) -> Bool {
            if (a.disc ?? 0) != (b.disc ?? 0) { return (a.disc ?? 0) < (b.disc ?? 0) }
            if (a.track ?? 0) != (b.track ?? 0) { return (a.track ?? 0) < (b.track ?? 0) }
            let byName = NaturalOrder.compare(Array(a.name), Array(b.name))
            if byName != 0 { return byName < 0 }
            return a.path.lexicographicallyPrecedes(b.path)
        }
    }

    /// The books of `volume`. Every story track (flagged, by genre or `.m4b`, or under a folder `rules` marks)
    /// belongs to one: a file with chapters, or an `.m4b`, is a book of its own; the other story files of one
    /// folder are one book. Parts are in book order (disc, track, natural file-name order, path); the books
    /// are sorted by their path in natural order. Then each story station of `stations` (`Station.isStory`) is
    /// a book whose parts are what its search picks, stories included, in book order.
    ///
    /// A book's name is the album tag of its first part, else the folder's name (for a one-file book: its
    /// title tag, else the file's name without extension). Its kind is podcast when a part says podcast and
    /// none says audiobook; otherwise audiobook (a marked folder's untagged files say nothing).
    public func books(of volume: VolumeRef, rules: StoryRules, stations: [Station]) throws(LibraryError) -> [Book] {
        let marked = Self.underFolders(rules.folders + rules.fromStart, firstParameter: 2)
        let parts = try storyParts(
            volume,
            condition: "(t.story IS NOT NULL OR \(marked.sql))", blobs: marked.blobs, texts: [])
        var keys: [[UInt8]: Int] = [:]
        var groups: [(path: [UInt8], isFile: Bool, parts: [StoryPart])] = []
        for part in parts {
            let isFile = part.hasChapters || Self.isBookFile(part.path)
            let key = isFile ? part.path : part.folder
            // A file and a folder never share a path on one stick, so one table serves both kinds of key.
            if let index = keys[key] {
                groups[index].parts.append(part)
            } else {
                keys[key] = groups.count
                groups.append((key, isFile, [part]))
            }
        }
        var books = groups.map { group -> Book in
            let ordered = group.parts.sorted(by: StoryPart.precedes)
            let first = ordered[0]
            let fallback =
                group.isFile
                ? Self.nonEmpty(first.title) ?? Self.fileTitle(PathBytes(first.path))
                : Self.lastComponent(group.path.isEmpty ? volume.root.bytes : group.path)
            return Book(
                path: group.path, name: Self.nonEmpty(first.album) ?? fallback, kind: Self.kind(of: ordered),
                parts: ordered.map(\.id))
        }
        books.sort { NaturalOrder.precedes($0.path, $1.path) }
        for station in stations where station.isStory {
            let ordered = try stationParts(station.search, of: volume).sorted(by: StoryPart.precedes)
            books.append(
                Book(
                    path: [], name: station.name, kind: Self.kind(of: ordered), parts: ordered.map(\.id),
                    station: station.name))
        }
        return books
    }

    /// The playable tracks `search` picks, stories included, as parts.
    func stationParts(_ search: StationSearch, of volume: VolumeRef) throws(LibraryError) -> [StoryPart] {
        guard let query = Self.stationQuery(search, firstParameter: 2) else { return [] }
        return try storyParts(volume, condition: query.condition, blobs: query.blobs, texts: query.texts)
    }

    /// The playable tracks of `volume` meeting `condition` (over `f` and `t`; parameters from 2 on), by path.
    private func storyParts(
        _ volume: VolumeRef, condition: String, blobs: [(Int32, [UInt8])], texts: [(Int32, String)]
    ) throws(LibraryError) -> [StoryPart] {
        let sql = """
            SELECT f.id, f.path, t.story, t.album, t.title, t.disc, t.track,
                EXISTS (SELECT 1 FROM chapters c WHERE c.track_id = f.id)
            FROM files f JOIN tracks t ON t.id = f.id
            WHERE f.volume_id = ?1 AND f.status = 'ok' AND \(condition)
            ORDER BY f.path
            """
        return try wrap { () throws(SQLiteError) -> [StoryPart] in
            try withStatement(sql) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                for (index, blob) in blobs { try statement.bind(blob: blob, at: index) }
                for (index, text) in texts { try statement.bind(text, at: index) }
                var result: [StoryPart] = []
                while try statement.step() == .row {
                    result.append(
                        StoryPart(
                            id: TrackID(statement.int64(at: 0)), path: statement.blob(at: 1),
                            kind: statement.text(at: 2).flatMap(StoryKind.init(rawValue:)),
                            album: statement.text(at: 3),
                            title: statement.text(at: 4), disc: statement.intOrNil(at: 5),
                            track: statement.intOrNil(at: 6), hasChapters: statement.int64(at: 7) != 0))
                }
                return result
            }
        }
    }

    /// Podcast when some part says podcast and none says audiobook; else audiobook.
    private static func kind(of parts: [StoryPart]) -> StoryKind {
        let kinds = Set(parts.compactMap(\.kind))
        return kinds.contains(.podcast) && !kinds.contains(.audiobook) ? .podcast : .audiobook
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, text.contains(where: { !$0.isWhitespace }) else { return nil }
        return text
    }

    /// The last component of `path`, for a person.
    private static func lastComponent(_ path: [UInt8]) -> String {
        var bytes = path
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        let name = bytes.lastIndex(of: UInt8(ascii: "/")).map { Array(bytes[($0 + 1)...]) } ?? bytes
        return PathBytes(name.isEmpty ? bytes : name).display
    }
}

extension LibraryStore {
    /// The books of `volume` (see `LibraryDatabase.books`).
    public func books(of volume: VolumeRef, rules: StoryRules, stations: [Station]) throws(LibraryError) -> [Book] {
        try perform { database throws(LibraryError) in
            try database.books(of: volume, rules: rules, stations: stations)
        }
    }

    /// The music of `volume` (see `LibraryDatabase.musicTrackIDs`).
    public func musicTrackIDs(of volume: VolumeRef, rules: StoryRules, formats: Set<String>? = nil)
        throws(LibraryError) -> [TrackID]
    {
        try perform { database throws(LibraryError) in
            try database.musicTrackIDs(of: volume, rules: rules, formats: formats)
        }
    }

    /// The chapters of every track of `volume` that has some.
    public func chaptersByTrack(of volume: VolumeRef) throws(LibraryError) -> [TrackID: [Chapter]] {
        try perform { database throws(LibraryError) in try database.chaptersByTrack(of: volume) }
    }
}
