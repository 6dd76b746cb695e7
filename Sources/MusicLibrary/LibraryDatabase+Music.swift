import LibSQLite
import ShuffleCore

/// The music of a stick: every playable track that is not a story. What a stick's shuffle plays.
extension LibraryDatabase {
    /// The music of `volume`: the ids of its playable tracks (of `formats`, when given) that are not stories
    /// and not under a folder `rules` marks, ascending. What the whole stick's shuffle plays.
    public func musicTrackIDs(of volume: VolumeRef, rules: StoryRules, formats: Set<String>? = nil)
        throws(LibraryError) -> [TrackID]
    {
        let marked = Self.underFolders(rules.folders + rules.fromStart, firstParameter: 3)
        let sql = """
            SELECT f.id FROM files f JOIN tracks t ON t.id = f.id
            WHERE f.volume_id = ?1 AND f.status = 'ok' AND t.story IS NULL
                AND (?2 IS NULL OR instr(?2, ',' || t.codec || ',') > 0) AND NOT \(marked.sql)
            ORDER BY f.id
            """
        return try wrap { () throws(SQLiteError) -> [TrackID] in
            try withStatement(sql) { statement throws(SQLiteError) in
                try statement.bind(volume.id, at: 1)
                try statement.bind(formats.map { "," + $0.sorted().joined(separator: ",") + "," }, at: 2)
                for (index, blob) in marked.blobs { try statement.bind(blob: blob, at: index) }
                var result: [TrackID] = []
                while try statement.step() == .row { result.append(TrackID(statement.int64(at: 0))) }
                return result
            }
        }
    }

    /// An SQL condition that holds when `f.path` lies under one of `folders` (`FALSE` for none), with the
    /// blobs to bind from parameter `firstParameter` on: each folder is a parameter, never text in the SQL.
    static func underFolders(_ folders: [[UInt8]], firstParameter: Int32) -> (sql: String, blobs: [(Int32, [UInt8])]) {
        guard !folders.isEmpty else { return ("FALSE", []) }
        var terms: [String] = []
        var blobs: [(Int32, [UInt8])] = []
        for (offset, folder) in folders.enumerated() {
            let index = firstParameter + Int32(offset)
            terms.append("substr(f.path, 1, length(?\(index))) = ?\(index)")
            blobs.append((index, folder + [UInt8(ascii: "/")]))
        }
        return ("(" + terms.joined(separator: " OR ") + ")", blobs)
    }
}
