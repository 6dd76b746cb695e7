public import ShuffleCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A picture an audio file carries (MPD's `readpicture`): its MIME type and where its bytes are.
///
/// Found in an ID3v2 tag's `APIC` (`PIC` in v2.2) frames (at the start of an MP3, or in a WAV or AIFF `id3 `
/// chunk), a FLAC `PICTURE` block, an MP4 `covr` item, or Ogg `METADATA_BLOCK_PICTURE` comments; the
/// front cover when the tag says which one it is, else the first picture. Where the picture's bytes lie in
/// the file as they are (nearly always) only their place is kept, and a client's chunks are read from the
/// file one at a time; an unsynchronised ID3 frame is undone into memory, up to `ByteSource.maxRead`.
public struct EmbeddedPicture: Equatable, Sendable {
    /// Where the picture's bytes are.
    public enum Bytes: Equatable, Sendable {
        /// `count` bytes of the file from `offset`.
        case file(offset: Int, count: Int)
        /// In memory (undone from unsynchronisation).
        case memory([UInt8])
    }

    /// The picture's MIME type, when the file says (`image/jpeg`, `image/png`).
    public var mimeType: String?
    /// Its bytes.
    public var bytes: Bytes

    /// The picture's size in bytes.
    public var count: Int {
        switch bytes {
        case .file(_, let count): count
        case .memory(let data): data.count
        }
    }

    /// The largest picture served: covers are tens of KiB to a few MiB; anything past this is not one.
    public static let maxSize = 32 * 1024 * 1024
    /// The ID3 picture types: 3 is the front cover.
    static let frontCover: UInt8 = 3

    /// The picture in the file at `path`, nil when it has none (or cannot be read).
    public static func find(path: PathBytes) -> EmbeddedPicture? {
        let fd = open(path.cString, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return find(in: ByteSource(fd: fd, size: Int(info.st_size)))
    }

    /// The picture in an in-memory file (tests, fuzzing).
    public static func find(bytes: [UInt8]) -> EmbeddedPicture? { find(in: ByteSource(bytes: bytes)) }

    /// Up to `count` bytes of the picture from `offset`, read from the file at `path` when they are there:
    /// nil when the file cannot be read (the stick pulled) or has changed under the picture.
    public func chunk(of path: PathBytes, from offset: Int, count: Int) -> [UInt8]? {
        let length = max(0, min(count, self.count - offset))
        guard offset >= 0, length > 0 else { return [] }
        switch bytes {
        case .memory(let data):
            return Array(data[offset..<offset + length])
        case .file(let start, _):
            return FileChunk.read(path: path, at: start + offset, count: length)
        }
    }

    static func find(in source: ByteSource) -> EmbeddedPicture? {
        let head = source.bytes(at: 0, count: 16)[...]
        switch Container.sniff(head) {
        case .flac: return flac(source, at: 0)
        case .mp4: return mp4(source)
        case .ogg: return ogg(source)
        case .wav, .aiff:
            // The ID3v2 tag of an `id3 ` / `ID3 ` chunk, as the probe reads its text.
            let bigEndian = source.bytes(at: 0, count: 4)[...].matches("FORM", at: 0)
            let chunks = PCMContainerProbe.chunks(source, from: 12, to: source.count, bigEndian: bigEndian)
            guard let chunk = chunks.first(where: { $0.id == "id3 " || $0.id == "ID3 " }) else { return nil }
            return ID3v2Picture.find(source, at: chunk.data)
        case nil: break
        default: return nil
        }
        guard case .present = ID3v2Tag.header(in: source, at: 0) else { return nil }
        if let picture = ID3v2Picture.find(source) { return picture }
        // A FLAC stream behind an ID3v2 tag: its own blocks may hold the picture.
        guard case .present(_, _, _, let end) = ID3v2Tag.header(in: source, at: 0),
            Container.sniff(source.bytes(at: end, count: 16)[...]) == .flac
        else { return nil }
        return flac(source, at: end)
    }

    // MARK: - FLAC

    /// The front cover among the `PICTURE` blocks of the FLAC stream at `start`, else the first picture.
    static func flac(_ source: ByteSource, at start: Int) -> EmbeddedPicture? {
        var offset = start + 4
        var first: EmbeddedPicture?
        for _ in 0..<FLACProbe.maxBlocks {
            let head = source.bytes(at: offset, count: 4)
            guard head.count == 4 else { break }
            let length = Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            let body = offset + 4
            guard length <= source.count - body else { break }
            if head[0] & 0x7F == 6, let found = flacPicture(source, at: body, length: length) {
                if found.type == frontCover { return found.picture }
                first = first ?? found.picture
            }
            if head[0] & 0x80 != 0 { break }
            offset = body + length
        }
        return first
    }

    /// A `PICTURE` block's type and picture: type, MIME (length-prefixed), description (length-prefixed),
    /// width, height, depth, colours, then the data's length and the data; every length within the block.
    static func flacPicture(_ source: ByteSource, at body: Int, length: Int) -> (type: UInt8, picture: EmbeddedPicture)?
    {
        var cursor = body
        let end = body + length
        func u32() -> Int? {
            guard end - cursor >= 4, let value = source.bytes(at: cursor, count: 4)[...].u32be(0) else { return nil }
            cursor += 4
            return value
        }
        guard let type = u32(), let mimeLength = u32(), mimeLength <= min(256, end - cursor) else { return nil }
        let mime = TagText.latin1(source.bytes(at: cursor, count: mimeLength))
        cursor += mimeLength
        guard let descriptionLength = u32(), descriptionLength <= end - cursor else { return nil }
        cursor += descriptionLength
        guard end - cursor >= 16 else { return nil }
        cursor += 16
        guard let count = u32(), count > 0, count <= end - cursor, count <= maxSize else { return nil }
        let picture = EmbeddedPicture(mimeType: mime.isEmpty ? nil : mime, bytes: .file(offset: cursor, count: count))
        return (UInt8(truncatingIfNeeded: min(type, 255)), picture)
    }

    // MARK: - Ogg

    /// The most bytes of an Ogg comment header read for a picture (base64: a picture of up to 3 MiB).
    static let maxOggComments = 4 * 1024 * 1024

    /// The front cover, else the first, of the `METADATA_BLOCK_PICTURE` comments of the first stream's
    /// comment header (Vorbis and Opus): each a FLAC `PICTURE` block in base64, decoded into memory.
    static func ogg(_ source: ByteSource) -> EmbeddedPicture? {
        guard let first = OggProbe.page(source, at: 0), first.flags & 2 != 0 else { return nil }
        var packets: [[UInt8]] = [[]]
        var offset = 0
        for _ in 0..<OggProbe.maxHeadPages {
            guard packets.count <= 2, let current = OggProbe.page(source, at: offset) else { break }
            if current.serial == first.serial {
                OggProbe.gather(current, source, into: &packets, keeping: maxOggComments + 1)
            }
            offset += current.length
        }
        guard packets.count > 2, packets[1].count <= maxOggComments else { return nil }
        let header = packets[1][...]
        let prefix = header.matches("OpusTags", at: 0) ? 8 : header.matches("\u{3}vorbis", at: 0) ? 7 : nil
        guard let prefix else { return nil }
        var found: EmbeddedPicture?
        VorbisComment.forEach(header.dropFirst(prefix)) { key, value in
            guard key == "METADATA_BLOCK_PICTURE", let block = Base64.decode(value) else { return true }
            let bytes = ByteSource(bytes: block)
            guard let picture = flacPicture(bytes, at: 0, length: block.count),
                case .file(let start, let count) = picture.picture.bytes
            else { return true }
            let held = EmbeddedPicture(
                mimeType: picture.picture.mimeType, bytes: .memory(Array(block[start..<start + count])))
            if picture.type == frontCover {
                found = held
                return false
            }
            found = found ?? held
            return true
        }
        return found
    }

    // MARK: - MP4

    /// The first `data` box of the `covr` item of `moov/udta/meta/ilst` (or `moov/meta/ilst`).
    static func mp4(_ source: ByteSource) -> EmbeddedPicture? {
        let top = MP4Box.children(of: source, in: 0..<source.count)
        guard let moov = top.first(where: { $0.type == "moov" }), moov.end <= source.count else { return nil }
        let metas = [moov.child("udta", in: source)?.child("meta", in: source), moov.child("meta", in: source)]
        for meta in metas.compactMap({ $0 }) {
            let skip = source.bytes(at: meta.payload + 4, count: 4)[...].matches("hdlr", at: 0) ? 0 : 4
            guard let ilst = meta.child("ilst", in: source, skip: skip),
                let covr = ilst.children(in: source).first(where: { $0.type == "covr" }),
                let data = covr.children(in: source).first(where: { $0.type == "data" }),
                data.end <= covr.end
            else { continue }
            // A `data` box: 4 bytes of type (13 JPEG, 14 PNG, 27 BMP), 4 of locale, then the picture.
            let kind = source.bytes(at: data.payload, count: 4)[...].u32be(0).map { $0 & 0xFF_FFFF }
            let count = data.end - data.payload - 8
            guard count > 0, count <= maxSize else { continue }
            let mime: String? =
                switch kind {
                case 13: "image/jpeg"
                case 14: "image/png"
                case 27: "image/bmp"
                default: nil
                }
            return EmbeddedPicture(mimeType: mime, bytes: .file(offset: data.payload + 8, count: count))
        }
        return nil
    }
}

/// The `APIC` (v2.3, v2.4) and `PIC` (v2.2) frames of the ID3v2 tag at the start of a file.
enum ID3v2Picture {
    /// The most bytes of a frame read to find where its picture starts (encoding, MIME, type, description).
    static let maxPictureHeader = 64 * 1024

    /// The front cover, else the first picture, of the tag at `offset` (0: the start of an MP3).
    static func find(_ source: ByteSource, at offset: Int = 0) -> EmbeddedPicture? {
        guard case .present(let major, let flags, let bodySize, _) = ID3v2Tag.header(in: source, at: offset),
            !(major == 2 && flags & 0x40 != 0)
        else { return nil }
        var body = source
        var start = offset + 10
        var limit = start + bodySize
        // A v2.2/2.3 tag unsynchronised as a whole: the frames exist only once it is undone, in memory.
        let inMemory = flags & 0x80 != 0 && major < 4
        if inMemory {
            let prefix = source.bytes(at: start, count: min(bodySize, ID3v2Tag.maxUnsyncTagSize))
            body = ByteSource(bytes: ID3v2Tag.removeUnsynchronisation(prefix[...]))
            start = 0
            limit = body.count
        }
        if flags & 0x40 != 0 && major >= 3 {
            guard let skip = ID3v2Tag.extendedHeaderLength(body, at: start, major: major), skip <= limit - start else {
                return nil
            }
            start += skip
        }
        var reader = ID3v2FrameReader(
            source: body, major: major, position: start, limit: limit, tagUnsync: flags & 0x80 != 0)
        var first: EmbeddedPicture?
        while let frame = reader.nextHeader() {
            guard frame.id == (major == 2 ? "PIC" : "APIC"),
                let found = picture(in: frame, body, major: major, tagUnsync: flags & 0x80 != 0, inMemory)
            else { continue }
            if found.type == EmbeddedPicture.frontCover { return found.picture }
            first = first ?? found.picture
        }
        return first
    }

    /// The picture type and picture of one frame; nil when it is compressed, encrypted or damaged.
    static func picture(
        in frame: ID3v2FrameReader.Header, _ source: ByteSource, major: UInt8, tagUnsync: Bool, _ inMemory: Bool
    ) -> (type: UInt8, picture: EmbeddedPicture)? {
        guard let place = ID3v2FrameReader.place(of: frame, major: major, tagUnsync: tagUnsync) else { return nil }
        let (start, size, unsync) = (place.start, place.size, place.unsync)
        if unsync || inMemory {
            // Undone into memory; a picture longer than one read is not taken rather than taken cut.
            guard size <= ByteSource.maxRead else { return nil }
            let raw = source.bytes(at: start, count: size)
            let data = unsync ? ID3v2Tag.removeUnsynchronisation(raw[...]) : raw
            guard let found = header(data[...], major: major) else { return nil }
            return (found.type, EmbeddedPicture(mimeType: found.mime, bytes: .memory(Array(data[found.offset...]))))
        }
        let head = source.bytes(at: start, count: min(size, maxPictureHeader))
        guard let found = header(head[...], major: major) else { return nil }
        let count = size - found.offset
        guard count <= EmbeddedPicture.maxSize else { return nil }
        return (
            found.type, EmbeddedPicture(mimeType: found.mime, bytes: .file(offset: start + found.offset, count: count))
        )
    }

    /// The picture type, MIME type and where the picture starts in a frame's `payload`: text encoding, MIME
    /// type (v2.2: a three-letter format), picture type, description (in the frame's encoding), then data.
    static func header(_ payload: ArraySlice<UInt8>, major: UInt8) -> (type: UInt8, mime: String?, offset: Int)? {
        guard let encoding = payload.first else { return nil }
        var cursor = payload.startIndex + 1
        let mime: String?
        if major == 2 {
            guard payload.endIndex - cursor >= 3 else { return nil }
            let format = TagText.latin1(payload[cursor..<cursor + 3]).uppercased()
            mime = format == "JPG" ? "image/jpeg" : format == "PNG" ? "image/png" : nil
            cursor += 3
        } else {
            guard let nul = payload[cursor...].firstIndex(of: 0) else { return nil }
            let text = TagText.latin1(payload[cursor..<nul])
            // "-->" is a link to a picture elsewhere, not a picture.
            guard text != "-->" else { return nil }
            let lower = text.lowercased()
            mime = text.isEmpty ? nil : text.contains("/") ? text : "image/" + (lower == "jpg" ? "jpeg" : lower)
            cursor = nul + 1
        }
        guard cursor < payload.endIndex else { return nil }
        let type = payload[cursor]
        cursor += 1
        let (_, rest) = TagText.splitTerminated(payload[cursor...], encoding: encoding)
        // No terminator found within what was read: the description runs on (or the frame is damaged).
        guard !rest.isEmpty else { return nil }
        return (type, mime, rest.startIndex - payload.startIndex)
    }
}

/// Reads a stretch of a file with `pread`, without trusting it to still be what it was.
enum FileChunk {
    /// `count` bytes at `offset` of the file at `path`, nil when they cannot all be read.
    static func read(path: PathBytes, at offset: Int, count: Int) -> [UInt8]? {
        let fd = open(path.cString, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return buffer
    }
}
