/// An ID3v2.2, 2.3 or 2.4 tag at the start of a file: where it ends, the text it holds, its chapters
/// (`ID3v2Chapters`) and iTunes' podcast flag (`PCST`).
///
/// Everything is read from untrusted bytes: sizes are checked against the tag and the file, frames
/// that are compressed or encrypted are skipped, and reading stops at the first frame that does
/// not make sense (keeping what was read before it).
struct ID3v2Tag {
    /// What is at the start of a file.
    enum Header: Equatable {
        /// No ID3v2 tag.
        case none
        /// A tag whose declared size runs past the end of the file.
        case cutShort
        /// A tag occupying `0..<end`.
        case present(major: UInt8, flags: UInt8, bodySize: Int, end: Int)
    }

    /// How much of a tag with tag-level unsynchronisation is read into memory: its first MiB (text
    /// frames come first; a frame running past this prefix ends the walk, as one running past the tag does).
    static let maxUnsyncTagSize = ByteSource.maxRead
    /// The biggest text frame read (bigger ones are skipped).
    static let maxTextFrameSize = ByteSource.maxRead
    /// The most frames of one tag looked at (real tags hold a few dozen; pictures are skipped by offset).
    static let maxFrames = 4096

    /// Reads the 10-byte header at `offset`.
    static func header(in source: ByteSource, at offset: Int) -> Header {
        let head = source.bytes(at: offset, count: 10)
        guard head.count == 10, head[0] == 0x49, head[1] == 0x44, head[2] == 0x33 else {
            if head.count < 10, head.starts(with: [0x49, 0x44, 0x33]) { return .cutShort }
            return .none
        }
        let major = head[3]
        guard (2...4).contains(major), head[4] != 0xFF, head[6..<10].allSatisfy({ $0 < 0x80 }) else { return .none }
        let bodySize = syncsafe(head[6], head[7], head[8], head[9])
        let footer = major == 4 && head[5] & 0x10 != 0 ? 10 : 0
        let end = offset + 10 + bodySize + footer
        guard end <= source.count else { return .cutShort }
        return .present(major: major, flags: head[5], bodySize: bodySize, end: end)
    }

    /// Reads the text of the tag at `offset` whose header is `header`.
    static func read(_ source: ByteSource, at offset: Int, header: Header) -> RawTags {
        var tags = RawTags()
        guard case .present(let major, let flags, let bodySize, _) = header else { return tags }
        // ID3v2.2 with the compression flag: no compression scheme was ever defined, so skip it.
        if major == 2 && flags & 0x40 != 0 { return tags }
        var body = source
        var start = offset + 10
        var limit = start + bodySize
        if flags & 0x80 != 0 && major < 4 {
            let prefix = source.bytes(at: start, count: min(bodySize, maxUnsyncTagSize))
            body = ByteSource(bytes: removeUnsynchronisation(prefix[...]))
            start = 0
            limit = body.count
        }
        // Some writers flag an extended header and write none: frames follow the header at once. No extended
        // header's size field reads as a frame id, so one there means the flag is wrong (mutagen reads it so).
        let firstFour = body.bytes(at: start, count: 4)[...]
        if flags & 0x40 != 0 && major >= 3 && !(firstFour.count == 4 && ID3v2FrameReader.isFrameID(firstFour)) {
            guard let skip = extendedHeaderLength(body, at: start, major: major), skip <= limit - start else {
                return tags
            }
            start += skip
        }
        var reader = ID3v2FrameReader(
            source: body, major: major, position: start, limit: limit, tagUnsync: flags & 0x80 != 0)
        var chapters = ID3v2Chapters()
        while let header = reader.nextHeader() {
            if chapters.take(header, from: reader) { continue }
            if header.id == "PCST" || header.id == "PCS" {
                // iTunes' podcast flag: a number, nonzero for a podcast episode.
                if reader.payload(header, limit: 8)?.contains(where: { $0 != 0 }) == true { tags.story = .podcast }
                continue
            }
            if let frame = reader.textFrame(header) { apply(frame, major: major, to: &tags) }
        }
        tags.chapters = chapters.ordered()
        return tags
    }

    /// The bytes taken by an extended header at `offset` (its own size field included).
    static func extendedHeaderLength(_ source: ByteSource, at offset: Int, major: UInt8) -> Int? {
        let four = source.bytes(at: offset, count: 4)
        guard four.count == 4 else { return nil }
        if major == 3 {
            // v2.3: a big-endian size that excludes the size field itself (6 or 10).
            let size = Int(four[0]) << 24 | Int(four[1]) << 16 | Int(four[2]) << 8 | Int(four[3])
            return size + 4
        }
        // v2.4: a syncsafe size that includes itself; at least 6.
        guard four.allSatisfy({ $0 < 0x80 }) else { return nil }
        let size = syncsafe(four[0], four[1], four[2], four[3])
        return size >= 6 ? size : nil
    }

    // MARK: - Frames

    /// Records what `frame` says in `tags`.
    private static func apply(_ frame: ID3v2FrameReader.Frame, major: UInt8, to tags: inout RawTags) {
        let data = frame.data
        guard let encoding = data.first else { return }
        let text = data.dropFirst()
        if frame.id == "TXXX" || frame.id == "TXX" {
            let (description, value) = TagText.splitTerminated(text, encoding: encoding)
            if let field = RawTags.replayGainField(description) {
                tags.offer(field, TagText.firstValue(TagText.id3Values(value, encoding: encoding)))
            } else if ["ALBUM ARTIST", "ALBUMARTIST"].contains(description.uppercased()) {
                tags.offer(.albumArtist, TagText.firstValue(TagText.id3Values(value, encoding: encoding)))
            }
            return
        }
        guard let field = field(for: frame.id) else { return }
        // ID3v2.4 separates the values of a multi-valued frame with NULs: the first is shown, all are searched.
        tags.offer(field, all: TagText.id3Values(text, encoding: encoding))
    }

    /// The field a text frame id stands for.
    private static func field(for id: String) -> RawTags.Field? {
        switch id {
        case "TIT2", "TT2": .title
        case "TPE1", "TP1": .artist
        case "TALB", "TAL": .album
        case "TPE2", "TP2": .albumArtist
        case "TRCK", "TRK": .track
        case "TPOS", "TPA": .disc
        case "TYER", "TDRC", "TYE": .year
        case "TDRL", "TORY", "TDOR", "TOR": .yearFallback
        case "TCON", "TCO": .genre
        default: nil
        }
    }

    // MARK: - Helpers

    /// A 28-bit syncsafe integer.
    static func syncsafe(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int {
        Int(a & 0x7F) << 21 | Int(b & 0x7F) << 14 | Int(c & 0x7F) << 7 | Int(d & 0x7F)
    }

    /// Undoes unsynchronisation: every `FF 00` becomes `FF`.
    static func removeUnsynchronisation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previousFF = false
        for byte in bytes {
            if previousFF && byte == 0 {
                previousFF = false
                continue
            }
            out.append(byte)
            previousFF = byte == 0xFF
        }
        return out
    }
}
