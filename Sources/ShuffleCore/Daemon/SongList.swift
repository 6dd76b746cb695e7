/// A stick's songs held compactly: every song a fixed-size record, paths and titles in one byte buffer, each
/// tag many songs share (an artist, an album, a genre, a format) one `String` in a table (and its bytes in a
/// small buffer of their own, which song lists are written from). A `SongInfo` is made on access: its path
/// and title decoded, its shared tags retained (no copy).
///
/// An array of `SongInfo` costs, per song, 144 bytes plus a heap object of its own for every string over 15
/// UTF-8 bytes (a path, most titles: 32 bytes of header and malloc's rounding each). Here a song is a
/// 72-byte record and its path and title are their bytes alone: about 1.5 MiB less at 10,000 tracks, 15 MiB
/// at 100,000, on a board whose whole budget is 24.
public struct SongList: RandomAccessCollection, Sendable {
    /// Where a string sits in `text` (`length == .max`: no value).
    struct TextRef: Sendable {
        var offset: UInt32
        var length: UInt32
        static let none = TextRef(offset: 0, length: .max)
    }

    /// One song: its numbers, where its path and title sit, and its shared tags' places in `shared` (-1: none).
    struct Record: Sendable {
        var id: Int64
        var durationMs: Int64
        /// Seconds since 1970 (`Int64.min`: not known).
        var modified: Int64
        var path: TextRef
        var title: TextRef
        var artist: Int32
        var album: Int32
        var albumArtist: Int32
        var genre: Int32
        var format: Int32
        var track: Int32
        var disc: Int32
        var year: Int32
    }

    private var records: [Record]
    private var text: [UInt8]
    /// Each distinct artist, album, album artist, genre and format once.
    private var shared: [String]
    /// Each of `shared` as bytes too, side by side, and where each sits: a song's lines are copied from here
    /// (a few hundred KiB at most, in cache), where a `String` read per tag and song cost a retain and a
    /// release (half a million of them for 100,000 songs).
    private var sharedText: [UInt8]
    private var sharedRefs: [TextRef]

    /// The songs of `songs`, in their order.
    public init(_ songs: some Sequence<SongInfo>) {
        var builder = Builder(expectedCount: songs.underestimatedCount)
        for song in songs { builder.add(song) }
        self = builder.finish()
    }

    /// No songs.
    public init() { self.init([SongInfo]()) }

    private init(records: [Record], text: [UInt8], shared: [String], sharedText: [UInt8], sharedRefs: [TextRef]) {
        self.records = records
        self.text = text
        self.shared = shared
        self.sharedText = sharedText
        self.sharedRefs = sharedRefs
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(position: Int) -> SongInfo {
        let record = records[position]
        var song = SongInfo(
            id: record.id, path: string(record.path) ?? "", title: string(record.title),
            artist: tag(record.artist), album: tag(record.album), durationMs: record.durationMs,
            albumArtist: tag(record.albumArtist), genre: tag(record.genre), format: tag(record.format),
            modified: record.modified == .min ? nil : record.modified)
        song.packedNumbers = (record.track, record.disc, record.year)
        return song
    }

    /// The track id of the song at `position`, without making the song.
    public func id(at position: Int) -> Int64 { records[position].id }

    /// The length in milliseconds of the song at `position`, without making the song.
    public func durationMs(at position: Int) -> Int64 { records[position].durationMs }

    /// The path of the song at `position`, without making the rest of the song.
    public func path(at position: Int) -> String { string(records[position].path) ?? "" }

    /// The bytes of text the songs' paths and titles take (to size the next listing's `Builder`).
    public var textBytes: Int { text.count }

    /// Whether a song's path is `path` (`exact`), or begins with `path` and a slash: bytes compared in place,
    /// no song made (`albumart` checks every request against the listing, a chunk at a time).
    public func containsPath(_ path: String, asFolder: Bool = false) -> Bool {
        var wanted = Array(path.utf8)
        if asFolder { wanted.append(UInt8(ascii: "/")) }
        return text.withUnsafeBufferPointer { bytes in
            records.contains { record in
                guard record.path.length != .max else { return false }
                let length = Int(record.path.length)
                guard asFolder ? length > wanted.count : length == wanted.count else { return false }
                let start = Int(record.path.offset)
                return bytes[start..<start + wanted.count].elementsEqual(wanted)
            }
        }
    }

    /// The value of `tag` for the song at `position`, without making the rest of the song (`list`, `count`).
    public func tag(_ tag: MPDTag, at position: Int) -> String? {
        let record = records[position]
        switch tag {
        case .artist: return self.tag(record.artist)
        case .album: return self.tag(record.album)
        case .albumArtist: return self.tag(record.albumArtist)
        case .genre: return self.tag(record.genre)
        case .title: return string(record.title)
        case .track: return Self.number(record.track)
        case .disc: return Self.number(record.disc)
        case .date: return Self.number(record.year)
        }
    }

    /// Writes the song at `position`'s lines as `MPDCommands.append` writes a `SongInfo` (`place`: its place in
    /// the queue), from the record's bytes straight into `out`: no song is made, no string decoded or retained.
    public func write(at position: Int, place: Int?, tags: [MPDTag], into out: inout MPDWriter) {
        write([(position, place)], tags: tags, into: &out)
    }

    /// Writes each of `songs` (its position in this list, its place in the queue) as `write(at:place:tags:into:)`
    /// does, in three rounds: their records copied, then their paths and titles read (whether any holds a line
    /// break), then their lines written. In a shuffled queue each record and each path is a cache miss
    /// (somewhere in 17 MB at 100,000 tracks); met one song after another they were most of the time a song
    /// took, read side by side the processor waits for them together, and the lines are written from cache.
    public func write(_ songs: [(position: Int, place: Int?)], tags: [MPDTag], into out: inout MPDWriter) {
        text.withUnsafeBufferPointer { bytes in
            sharedRefs.withUnsafeBufferPointer { sharedRefs in
                sharedText.withUnsafeBufferPointer { sharedBytes in
                    let text = SongText(bytes: bytes, sharedBytes: sharedBytes, shared: sharedRefs)
                    // The records first, copied side by side; then their paths and titles, read side by side.
                    var batch: [Record] = []
                    batch.reserveCapacity(songs.count)
                    for song in songs { batch.append(records[song.position]) }
                    var breaks = false
                    for record in batch {
                        if LineCursor.mayHoldBreak(UnsafeRawBufferPointer(text[record.path])) { breaks = true }
                        if LineCursor.mayHoldBreak(UnsafeRawBufferPointer(text[record.title])) { breaks = true }
                    }
                    for (record, song) in zip(batch, songs) {
                        write(record, place: song.place, tags: tags, text: text, breaks: breaks, &out)
                    }
                }
            }
        }
    }

    /// The bytes of a song's path, title and shared tags.
    private struct SongText {
        let bytes: UnsafeBufferPointer<UInt8>
        let sharedBytes: UnsafeBufferPointer<UInt8>
        let shared: UnsafeBufferPointer<TextRef>

        /// A path's or a title's bytes.
        subscript(ref: TextRef) -> UnsafeBufferPointer<UInt8> { Self.slice(bytes, ref) }

        /// A shared tag's bytes.
        subscript(shared place: Int32) -> UnsafeBufferPointer<UInt8> { Self.slice(sharedBytes, shared[Int(place)]) }

        static func slice(_ bytes: UnsafeBufferPointer<UInt8>, _ ref: TextRef) -> UnsafeBufferPointer<UInt8> {
            ref.length == .max
                ? UnsafeBufferPointer(start: nil, count: 0)
                : UnsafeBufferPointer(rebasing: bytes[Int(ref.offset)..<Int(ref.offset) + Int(ref.length)])
        }

        /// A shared tag's length in bytes (0: none).
        func length(_ place: Int32) -> Int { place < 0 ? 0 : Int(shared[Int(place)].length) }
    }

    /// One song's lines (`breaks`: whether its path or title may hold a line break, to be made a space).
    private func write(
        _ record: Record, place: Int?, tags: [MPDTag], text: SongText, breaks: Bool, _ out: inout MPDWriter
    ) {
        let path = text[record.path]
        let title = text[record.title]
        // The bound counts each tag asked for as often as it is asked for.
        var size = path.count + text.length(record.format) + Self.songLinesOverValues
        for name in tags {
            switch name {
            case .title: size += title.count
            case .artist: size += text.length(record.artist)
            case .album: size += text.length(record.album)
            case .albumArtist: size += text.length(record.albumArtist)
            case .genre: size += text.length(record.genre)
            case .track, .disc, .date: break
            }
            size += Self.tagLineOverValue
        }
        guard size <= Self.songLinesCapacity else {
            // A song with tags longer than a page (a hostile stick): line by line.
            writeLineByLine(record, path, title, place, tags, &out)
            return
        }
        out.write(atMost: size) { lines in
            lines.line("file: ", path, breaks: breaks)
            if record.modified != .min { lines.line("Last-Modified: ", utc: record.modified) }
            for name in tags {
                switch name {
                case .title: if record.title.length != .max { lines.line("Title: ", title, breaks: breaks) }
                case .artist: if record.artist >= 0 { lines.line("Artist: ", text[shared: record.artist]) }
                case .album: if record.album >= 0 { lines.line("Album: ", text[shared: record.album]) }
                case .albumArtist:
                    if record.albumArtist >= 0 { lines.line("AlbumArtist: ", text[shared: record.albumArtist]) }
                case .track: if record.track != .min { lines.line("Track: ", Int64(record.track)) }
                case .disc: if record.disc != .min { lines.line("Disc: ", Int64(record.disc)) }
                case .genre: if record.genre >= 0 { lines.line("Genre: ", text[shared: record.genre]) }
                case .date: if record.year != .min { lines.line("Date: ", Int64(record.year)) }
                }
            }
            lines.line("Time: ", (record.durationMs + 500) / 1000)
            lines.line("duration: ", milliseconds: record.durationMs)
            if record.format >= 0 { lines.line("Format: ", text[shared: record.format]) }
            if let place { lines.line("Pos: ", Int64(place)) }
            lines.line("Id: ", record.id)
        }
    }

    /// The most one song's lines take when written at once (more: line by line).
    static let songLinesCapacity = 4_096
    /// The most the lines other than tags add to their values: keys, newlines, a timestamp and five numbers
    /// at their longest take 165 bytes.
    static let songLinesOverValues = 192
    /// The most a tag's line adds to its value: `AlbumArtist: ` and a newline, or a key and an Int32.
    static let tagLineOverValue = 32

    private func writeLineByLine(
        _ record: Record, _ path: UnsafeBufferPointer<UInt8>, _ title: UnsafeBufferPointer<UInt8>, _ place: Int?,
        _ tags: [MPDTag], _ out: inout MPDWriter
    ) {
        out.line("file", bytes: path)
        if record.modified != .min { out.line("Last-Modified", utc: record.modified) }
        for tag in tags {
            let shared: Int32
            switch tag {
            case .title:
                if record.title.length != .max { out.line(tag.rawValue, bytes: title) }
                continue
            case .track, .disc, .date:
                let number = tag == .track ? record.track : tag == .disc ? record.disc : record.year
                if number != .min { out.line(tag.rawValue, Int64(number)) }
                continue
            case .artist: shared = record.artist
            case .album: shared = record.album
            case .albumArtist: shared = record.albumArtist
            case .genre: shared = record.genre
            }
            if shared >= 0 { out.line(tag.rawValue, self.shared[Int(shared)]) }
        }
        out.line("Time", (record.durationMs + 500) / 1000)
        out.line("duration", milliseconds: record.durationMs)
        if record.format >= 0 { out.line("Format", self.shared[Int(record.format)]) }
        if let place { out.line("Pos", Int64(place)) }
        out.line("Id", record.id)
    }

    /// A number standing for the value of `tag` at `position` (or its absence) among this list's songs: two
    /// songs have the same key exactly when `tag(_:at:)` gives both the same value, so values can be told
    /// apart without making them (`list ALBUM group ALBUMARTIST` over 100,000 songs). Nil for the title,
    /// which is not shared.
    public func tagKey(_ tag: MPDTag, at position: Int) -> Int64? {
        let record = records[position]
        switch tag {
        case .artist: return Int64(record.artist)
        case .album: return Int64(record.album)
        case .albumArtist: return Int64(record.albumArtist)
        case .genre: return Int64(record.genre)
        case .track: return Int64(record.track)
        case .disc: return Int64(record.disc)
        case .date: return Int64(record.year)
        case .title: return nil
        }
    }

    /// The same songs, ordered by path as `String`s order. The records are moved into their order in place (an
    /// order of indexes, then its cycles): a copy of them would be 0.7 MiB more at 10,000 songs, for a moment.
    public consuming func sortedByPath() -> SongList {
        var records = self.records
        self.records = []  // `records` is then the only reference: moved in place, not copied
        var order = Array(records.indices)
        // Swift orders strings by their Unicode scalars once normalized (NFC). For ASCII, and for any two
        // paths that are both NFC, that is the order of their UTF-8 bytes; a path with other bytes (a name
        // written on a Mac, decomposed) is compared as a `String`, as the array of songs was sorted.
        text.withUnsafeBufferPointer { bytes in
            func slice(_ ref: TextRef) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: bytes[Int(ref.offset)..<Int(ref.offset) + Int(ref.length)])
            }
            order.sort { left, right in
                let a = slice(records[left].path)
                let b = slice(records[right].path)
                if a.allSatisfy({ $0 < 0x80 }) && b.allSatisfy({ $0 < 0x80 }) {
                    return a.lexicographicallyPrecedes(b)
                }
                return String(decoding: a, as: UTF8.self) < String(decoding: b, as: UTF8.self)
            }
        }
        // The song at place i is the one at order[i]: each cycle of the permutation is followed once, a place
        // marked done (order[i] = i) as it is filled.
        for start in records.indices where order[start] != start {
            let saved = records[start]
            var place = start
            while order[place] != start {
                let from = order[place]
                records[place] = records[from]
                order[place] = place
                place = from
            }
            records[place] = saved
            order[place] = place
        }
        return SongList(records: records, text: text, shared: shared, sharedText: sharedText, sharedRefs: sharedRefs)
    }

    private func tag(_ place: Int32) -> String? { place < 0 ? nil : shared[Int(place)] }

    /// A tag number as `SongInfo.tag` gives it (`Int32.min`: not tagged).
    private static func number(_ packed: Int32) -> String? { packed == .min ? nil : String(packed) }

    private func string(_ ref: TextRef) -> String? {
        guard ref.length != .max else { return nil }
        return text.withUnsafeBufferPointer { bytes in
            String(decoding: bytes[Int(ref.offset)..<Int(ref.offset) + Int(ref.length)], as: UTF8.self)
        }
    }

    /// Gathers songs one at a time (as the database hands them over), each shared tag kept once.
    public struct Builder: Sendable {
        private var records: [Record] = []
        private var text: [UInt8] = []
        private var shared: [String] = []
        private var sharedText: [UInt8] = []
        private var sharedRefs: [TextRef] = []
        /// The place in `shared` of each tag seen so far (while building only).
        private var places: [String: Int32] = [:]

        /// Room for `expectedCount` songs and `expectedTextBytes` of their paths and titles, so that neither is
        /// grown by doubling (each step holds the old buffer and one twice its size at once: 2.5 MiB of text
        /// in the daemon's heap at the peak of reading a 10,000-song listing, as heaptrack saw it). Room never
        /// written is address space, not memory.
        public init(expectedCount: Int, expectedTextBytes: Int = 0) {
            records.reserveCapacity(expectedCount)
            text.reserveCapacity(expectedTextBytes)
        }

        /// Adds `song`.
        public mutating func add(_ song: SongInfo) {
            let numbers = song.packedNumbers
            records.append(
                Record(
                    id: song.id, durationMs: song.durationMs, modified: song.modified ?? .min,
                    path: append(song.path), title: append(song.title),
                    artist: share(song.artist), album: share(song.album), albumArtist: share(song.albumArtist),
                    genre: share(song.genre), format: share(song.format), track: numbers.track,
                    disc: numbers.disc, year: numbers.year))
        }

        /// The songs gathered. The text buffer is kept as it grew (by doubling): the capacity past its end was
        /// never written, so it is address space, not memory, where a copy cut to size would be the whole text
        /// twice at once (1.4 MiB more at 10,000 songs, for a moment).
        public consuming func finish() -> SongList {
            SongList(records: records, text: text, shared: shared, sharedText: sharedText, sharedRefs: sharedRefs)
        }

        private mutating func append(_ string: String?) -> TextRef {
            guard let string else { return .none }
            return Self.append(string, to: &text)
        }

        private static func append(_ string: String, to text: inout [UInt8]) -> TextRef {
            // A string past 4 GiB in all, or one longer than a tag can be, is not something a stick holds;
            // the record then says "no value" rather than overflowing.
            let utf8 = string.utf8
            guard text.count + utf8.count < Int(UInt32.max), utf8.count < Int(UInt32.max) else { return .none }
            let ref = TextRef(offset: UInt32(text.count), length: UInt32(utf8.count))
            text.append(contentsOf: utf8)
            return ref
        }

        private mutating func share(_ string: String?) -> Int32 {
            guard let string else { return -1 }
            if let place = places[string] { return place }
            guard shared.count < Int(Int32.max) else { return -1 }
            let ref = Self.append(string, to: &sharedText)
            guard ref.length != .max else { return -1 }
            let place = Int32(shared.count)
            shared.append(string)
            sharedRefs.append(ref)
            places[string] = place
            return place
        }
    }
}
