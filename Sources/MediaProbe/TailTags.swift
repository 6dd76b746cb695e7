/// The tags at the end of an MP3 file, outermost last: `[audio][APEv2][Lyrics3v2][ID3v1]`.
struct TailTags {
    /// Where the audio ends (the first byte of the first tail tag, or the file size).
    var audioEnd: Int
    /// Values from an APEv2 (or APEv1) tag.
    var ape = RawTags()
    /// Values from an ID3v1 tag.
    var id3v1 = RawTags()

    /// Reads the tail of `source`, never looking before `floor` (the end of the ID3v2 tag).
    init(source: ByteSource, floor: Int) {
        var end = source.count
        if end - floor >= 128 {
            let block = source.bytes(at: end - 128, count: 128)
            if block.count == 128, block[0] == 0x54, block[1] == 0x41, block[2] == 0x47 {
                id3v1 = Self.readID3v1(block)
                end -= 128
            }
        }
        end = Self.skipLyrics3(source, end: end, floor: floor)
        if let (start, tags) = Self.readAPE(source, end: end, floor: floor) {
            ape = tags
            end = start
        }
        audioEnd = max(floor, end)
    }

    // MARK: - ID3v1

    /// ID3v1 and v1.1: fixed Latin-1 fields padded with NULs or spaces; a track byte after a zero at 125.
    static func readID3v1(_ block: [UInt8]) -> RawTags {
        var tags = RawTags()
        func field(_ from: Int, _ length: Int) -> String? {
            var bytes = block[from..<from + length]
            if let nul = bytes.firstIndex(of: 0) { bytes = bytes[bytes.startIndex..<nul] }
            return TagText.clean(TagText.latin1(bytes), trimSpaces: true)
        }
        tags.offer(.title, field(3, 30))
        tags.offer(.artist, field(33, 30))
        tags.offer(.album, field(63, 30))
        tags.offer(.year, field(93, 4))
        if block[125] == 0 && block[126] != 0 { tags.offer(.track, String(block[126])) }
        tags.offer(.genre, Genres.name(index: Int(block[127])))
        return tags
    }

    // MARK: - Lyrics3v2

    /// The end of the audio before a Lyrics3v2 block ending at `end` ("LYRICSBEGIN"…size…"LYRICS200").
    private static func skipLyrics3(_ source: ByteSource, end: Int, floor: Int) -> Int {
        guard end - floor >= 15 + 11 else { return end }
        let trailer = source.bytes(at: end - 15, count: 15)
        guard trailer.count == 15, Array(trailer[6..<15]) == Array("LYRICS200".utf8),
            trailer[0..<6].allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { return end }
        let size = trailer[0..<6].reduce(0) { $0 * 10 + Int($1 - 48) }
        let start = end - 15 - size
        guard start >= floor, source.bytes(at: start, count: 11) == Array("LYRICSBEGIN".utf8) else { return end }
        return start
    }

    // MARK: - APE

    /// The most items of an APE tag looked at (real tags hold a few dozen).
    static let maxAPEItems = 512
    /// The longest APE key (the specification allows 255 characters).
    static let maxAPEKeyLength = 255
    /// The longest APE text value read; longer values (and every binary one: cover art) are skipped.
    static let maxAPEValueSize = 64 * 1024

    /// An APE tag whose footer ends at `end`: where the tag starts and what it holds.
    ///
    /// The tag's size is checked only against the file, which a sparse file makes as large as it
    /// claims, so the items are read one at a time from `source`: values not wanted are skipped by
    /// offset, never read, and at most `maxAPEItems` items are looked at.
    static func readAPE(_ source: ByteSource, end: Int, floor: Int) -> (Int, RawTags)? {
        guard end - floor >= 32 else { return nil }
        let footer = source.bytes(at: end - 32, count: 32)
        guard footer.count == 32, Array(footer[0..<8]) == Array("APETAGEX".utf8) else { return nil }
        let size = Int(littleEndian32(footer, 12))
        let count = Int(littleEndian32(footer, 16))
        let flags = littleEndian32(footer, 20)
        guard size >= 32, size <= end - floor else { return nil }
        let hasHeader = flags & 0x8000_0000 != 0
        let start = end - size - (hasHeader ? 32 : 0)
        guard start >= floor else { return nil }
        return (start, readAPEItems(source, from: end - size, to: end - 32, count: count))
    }

    /// The items of an APE tag between `from` and `to`: size, flags, NUL-terminated key, value.
    static func readAPEItems(_ source: ByteSource, from: Int, to end: Int, count: Int) -> RawTags {
        var tags = RawTags()
        var offset = from
        var seen = 0
        while seen < min(count, maxAPEItems), offset + 9 <= end {
            let head = source.bytes(at: offset, count: min(8 + maxAPEKeyLength + 1, end - offset))
            guard head.count >= 9 else { break }
            let valueSize = Int(littleEndian32(head, 0))
            let itemFlags = littleEndian32(head, 4)
            guard let keyEnd = head[8...].firstIndex(of: 0) else { break }
            let valueStart = offset + keyEnd + 1
            guard valueSize <= end - valueStart else { break }
            let key = TagText.latin1(head[8..<keyEnd]).uppercased()
            if (itemFlags >> 1) & 3 == 0, valueSize <= maxAPEValueSize, let field = apeField(key) {
                let value = source.bytes(at: valueStart, count: valueSize)
                guard value.count == valueSize else { break }
                let text = TagText.firstValue(
                    value.split(separator: 0, omittingEmptySubsequences: false).map { TagText.utf8($0) })
                tags.offer(field, text)
            }
            offset = valueStart + valueSize
            seen += 1
        }
        return tags
    }

    /// The field an (upper-cased) APE key names.
    private static func apeField(_ key: String) -> RawTags.Field? {
        switch key {
        case "TITLE": .title
        case "ARTIST": .artist
        case "ALBUM": .album
        case "ALBUM ARTIST", "ALBUMARTIST": .albumArtist
        case "TRACK", "TRACKNUMBER": .track
        case "DISC", "DISCNUMBER": .disc
        case "YEAR", "DATE": .year
        case "GENRE": .genre
        default: RawTags.replayGainField(key)
        }
    }

    /// A little-endian 32-bit value at `offset` (the caller checked the bounds).
    private static func littleEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
