import ShuffleCore

/// The chapters of an ID3v2.3 or 2.4 tag, as the ID3v2 Chapter Frame Addendum lays them out: `CHAP` frames
/// (an element id, start and end in milliseconds, start and end byte offsets, then frames of its own, `TIT2`
/// the title) and `CTOC` tables of contents (an element id, flags, the element ids of its entries, chapters or
/// further tables).
///
/// Every read is bounded: the head of each frame, `titleReadLimit` bytes of a title, `maxBytes` of chapter
/// frames in all, at most `Chapter.maxCount` chapters. A chapter whose frames cannot be read is left out.
struct ID3v2Chapters {
    /// Bytes of an element id read (the addendum sets no limit; writers use "ch0", "chp12", "toc").
    static let maxElementID = 256
    /// Bytes of a table of contents read (255 entries of ids up to 60 bytes).
    static let maxTableRead = 16 * 1024
    /// Bytes of an unsynchronised `CHAP` frame read into memory to undo it (its title comes first in practice).
    static let maxUnsyncFrame = 64 * 1024
    /// Bytes of a title frame read: its encoding byte and enough text for `Chapter.maxTitleBytes` of UTF-8 in
    /// any ID3 encoding (UTF-16 takes at most two bytes where UTF-8 takes one, plus its BOM).
    static let titleReadLimit = 1 + 2 + 2 * Chapter.maxTitleBytes
    /// Bytes of chapter frames read in all: a hostile tag can hold thousands of them.
    static let maxBytes = 2 * 1024 * 1024
    /// The most tables of contents kept.
    static let maxTables = 64
    /// How deep tables of contents are followed into the tables they list.
    static let maxDepth = 8

    /// One `CTOC` frame.
    private struct Table {
        var id: String
        var isTopLevel: Bool
        var entries: [String]
    }

    /// Bytes still to be read.
    private var budget = maxBytes
    /// The chapters with their element ids, in the tag's order.
    private var found: [(id: String, chapter: Chapter)] = []
    private var tables: [Table] = []

    /// Reads `header` when it is a `CHAP` or `CTOC` frame of the tag `reader` walks; false for any other frame.
    mutating func take(_ header: ID3v2FrameReader.Header, from reader: ID3v2FrameReader) -> Bool {
        switch header.id {
        case "CHAP":
            if found.count < Chapter.maxCount, let content = content(header, reader) { readChapter(content, reader) }
        case "CTOC":
            if tables.count < Self.maxTables, let content = content(header, reader) { readTable(content) }
        default:
            return false
        }
        return true
    }

    /// The chapters in the order of the top-level table of contents (or the first table, when none says it is
    /// top-level), then those it does not list, in the tag's order; in the tag's order when there is no table.
    func ordered() -> [Chapter] {
        guard let top = tables.first(where: \.isTopLevel) ?? tables.first else { return found.map(\.chapter) }
        var index: [String: Int] = [:]
        for (position, entry) in found.enumerated() where index[entry.id] == nil { index[entry.id] = position }
        var taken = [Bool](repeating: false, count: found.count)
        var order: [Chapter] = []
        var visited: Set<String> = []
        func follow(_ table: Table, depth: Int) {
            guard depth <= Self.maxDepth, visited.insert(table.id).inserted else { return }
            for entry in table.entries {
                if let position = index[entry], !taken[position] {
                    taken[position] = true
                    order.append(found[position].chapter)
                } else if let child = tables.first(where: { $0.id == entry }) {
                    follow(child, depth: depth + 1)
                }
            }
        }
        follow(top, depth: 0)
        for (position, entry) in found.enumerated() where !taken[position] { order.append(entry.chapter) }
        return order
    }

    // MARK: - Frames

    /// Where a frame's content can be read: in place, or undone into memory when it is unsynchronised.
    private mutating func content(
        _ header: ID3v2FrameReader.Header, _ reader: ID3v2FrameReader
    ) -> (source: ByteSource, range: Range<Int>)? {
        guard reader.major >= 3, budget > 0,
            let place = ID3v2FrameReader.place(of: header, major: reader.major, tagUnsync: reader.tagUnsync)
        else { return nil }
        guard place.unsync else { return (reader.source, place.start..<place.start + place.size) }
        let raw = reader.source.bytes(at: place.start, count: min(place.size, Self.maxUnsyncFrame, budget))
        budget -= raw.count
        let bytes = ID3v2Tag.removeUnsynchronisation(raw[...])
        return (ByteSource(bytes: bytes), 0..<bytes.count)
    }

    /// The first `count` bytes of `range` in `source`, charged to the budget.
    private mutating func head(_ source: ByteSource, _ range: Range<Int>, count: Int) -> ArraySlice<UInt8> {
        let bytes = source.bytes(at: range.lowerBound, count: min(range.count, count, budget))[...]
        budget -= bytes.count
        return bytes
    }

    /// Reads one `CHAP` frame: its element id, start time, and the title its own `TIT2` frame gives.
    private mutating func readChapter(_ content: (source: ByteSource, range: Range<Int>), _ reader: ID3v2FrameReader) {
        let (source, range) = content
        let bytes = head(source, range, count: Self.maxElementID + 1 + 16)
        guard let nul = bytes.firstIndex(of: 0), let start = bytes.u32be(nul - bytes.startIndex + 1) else { return }
        let id = TagText.latin1(bytes[bytes.startIndex..<nul])
        var frames = ID3v2FrameReader(
            source: source, major: reader.major, position: range.lowerBound + (nul - bytes.startIndex) + 17,
            limit: range.upperBound, tagUnsync: false)
        var title: String?
        while let frame = frames.nextHeader() {
            guard frame.id == "TIT2" else { continue }
            guard budget > 0, let data = frames.payload(frame, limit: min(Self.titleReadLimit, budget)) else { break }
            budget -= data.count
            if let encoding = data.first {
                title = TagText.firstValue(TagText.id3Values(data.dropFirst(), encoding: encoding))
                    .flatMap(TagText.chapterTitle)
            }
            break
        }
        found.append((id, Chapter(startMs: Int64(start), title: title)))
    }

    /// Reads one `CTOC` frame: its element id, whether it is the top level, and its entries' element ids.
    private mutating func readTable(_ content: (source: ByteSource, range: Range<Int>)) {
        let bytes = head(content.source, content.range, count: Self.maxTableRead)
        guard let nul = bytes.firstIndex(of: 0), nul + 2 < bytes.endIndex else { return }
        let flags = bytes[nul + 1]
        let count = Int(bytes[nul + 2])
        var entries: [String] = []
        var cursor = nul + 3
        while entries.count < count, cursor < bytes.endIndex {
            let end = bytes[cursor...].firstIndex(of: 0) ?? bytes.endIndex
            entries.append(TagText.latin1(bytes[cursor..<end]))
            cursor = end + 1
        }
        let id = TagText.latin1(bytes[bytes.startIndex..<nul])
        tables.append(Table(id: id, isTopLevel: flags & 0x01 != 0, entries: entries))
    }
}
