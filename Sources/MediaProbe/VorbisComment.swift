/// Reads a Vorbis comment block (FLAC's `VORBIS_COMMENT`, the Vorbis comment header, `OpusTags`):
/// a vendor string, then `KEY=value` comments, every length a little-endian 32-bit count.
///
/// The bytes given may be a prefix of the block (the readers cap how much they read); the walk stops at
/// the first comment that does not fit, keeping what it read. Keys are matched without regard to case.
enum VorbisComment {
    /// The most comments looked at (real files hold a few dozen; pictures are one comment each).
    static let maxComments = 4096

    /// The fields in `bytes` (from the vendor length on).
    static func read(_ bytes: ArraySlice<UInt8>) -> RawTags {
        var tags = RawTags()
        forEach(bytes) { key, value in
            if let field = field(for: key) { tags.offer(field, TagText.utf8(value)) }
            return true
        }
        return tags
    }

    /// Calls `body` with each comment's upper-cased key and its value's bytes, while it returns true.
    static func forEach(_ bytes: ArraySlice<UInt8>, _ body: (String, ArraySlice<UInt8>) -> Bool) {
        guard let vendorLength = bytes.u32le(0), vendorLength <= bytes.count - 8 else { return }
        var offset = 4 + vendorLength
        guard let count = bytes.u32le(offset) else { return }
        offset += 4
        var seen = 0
        while seen < min(count, maxComments), let length = bytes.u32le(offset), length <= bytes.count - offset - 4 {
            let start = bytes.startIndex + offset + 4
            let comment = bytes[start..<start + length]
            offset += 4 + length
            seen += 1
            guard let equals = comment.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = TagText.latin1(comment[comment.startIndex..<equals]).uppercased()
            if !body(key, comment[(equals + 1)...]) { return }
        }
    }

    /// The field a (upper-cased) comment key names.
    static func field(for key: String) -> RawTags.Field? {
        switch key {
        case "TITLE": .title
        case "ARTIST": .artist
        case "ALBUM": .album
        case "ALBUMARTIST", "ALBUM ARTIST", "ALBUM_ARTIST": .albumArtist
        case "TRACKNUMBER": .track
        case "TRACKTOTAL", "TOTALTRACKS": .trackTotal
        case "DISCNUMBER": .disc
        case "DISCTOTAL", "TOTALDISCS": .discTotal
        case "DATE", "YEAR": .year
        case "ORIGINALDATE", "ORIGINALYEAR": .yearFallback
        case "GENRE": .genre
        case "R128_TRACK_GAIN": .r128Track
        case "R128_ALBUM_GAIN": .r128Album
        default: RawTags.replayGainField(key)
        }
    }
}
