/// Walks the frames of an ID3v2 tag body, yielding the text frames worth reading.
///
/// Frame sizes are checked against the tag: a frame that claims to run past the tag ends the
/// walk. ID3v2.4 sizes should be syncsafe, but iTunes has written plain big-endian sizes; when
/// the two readings differ, the one that lands on the next frame (or the end) is taken.
struct ID3v2FrameReader {
    /// One frame's id and its payload (unsynchronisation and data-length prefix already removed).
    struct Frame {
        /// "TIT2", "TT2", ...
        let id: String
        /// The payload.
        let data: ArraySlice<UInt8>
    }

    /// The bytes holding the tag.
    let source: ByteSource
    /// The ID3v2 major version: 2, 3 or 4.
    let major: UInt8
    /// Offset of the next frame header.
    var position: Int
    /// End of the frame area.
    let limit: Int
    /// v2.4 tag-level unsynchronisation flag (every frame is unsynchronised).
    let tagUnsync: Bool
    /// Frame headers read so far (the walk stops at `ID3v2Tag.maxFrames`).
    private var framesSeen = 0

    /// Starts a walk at `position`, ending at `limit`.
    init(source: ByteSource, major: UInt8, position: Int, limit: Int, tagUnsync: Bool) {
        self.source = source
        self.major = major
        self.position = position
        self.limit = limit
        self.tagUnsync = tagUnsync
    }

    private var headerLength: Int { major == 2 ? 6 : 10 }
    private var idLength: Int { major == 2 ? 3 : 4 }

    /// Where a frame is, without its payload.
    struct Header {
        /// "APIC", "PIC", ...
        let id: String
        /// The format flags (v2.3, v2.4: the header's last byte; v2.2: 0).
        let format: UInt8
        /// Offset of the payload (still with any group id, data length or unsynchronisation).
        let dataStart: Int
        /// Payload size, within the tag.
        let size: Int
    }

    /// The frame `header` stands for when it is a text frame (id starting with "T") worth reading; else nil.
    func textFrame(_ header: Header) -> Frame? {
        guard header.id.utf8.first == UInt8(ascii: "T"), header.size > 0, header.size <= ID3v2Tag.maxTextFrameSize,
            let data = payload(header)
        else { return nil }
        return Frame(id: header.id, data: data)
    }

    /// The next frame of any kind; nil at the end of the frames or at the first that does not make sense.
    mutating func nextHeader() -> Header? {
        guard position + headerLength <= limit, framesSeen < ID3v2Tag.maxFrames else { return nil }
        framesSeen += 1
        let head = source.bytes(at: position, count: headerLength)
        guard head.count == headerLength, Self.isFrameID(head[0..<idLength]) else { return nil }
        guard let size = frameSize(head) else { return nil }
        let dataStart = position + headerLength
        guard size <= limit - dataStart else { return nil }
        position = dataStart + size
        return Header(
            id: TagText.latin1(head[0..<idLength]), format: major == 2 ? 0 : head[9], dataStart: dataStart, size: size)
    }

    /// The frame size from its header, choosing between syncsafe and plain readings in v2.4.
    private func frameSize(_ head: [UInt8]) -> Int? {
        if major == 2 { return Int(head[3]) << 16 | Int(head[4]) << 8 | Int(head[5]) }
        let plain = Int(head[4]) << 24 | Int(head[5]) << 16 | Int(head[6]) << 8 | Int(head[7])
        if major == 3 { return plain }
        if head[4..<8].contains(where: { $0 >= 0x80 }) { return plain }
        let safe = ID3v2Tag.syncsafe(head[4], head[5], head[6], head[7])
        if safe == plain || landsOnFrame(position + 10 + safe) { return safe }
        if landsOnFrame(position + 10 + plain) { return plain }
        return safe
    }

    /// Whether `offset` is the end of the frames, padding, or the start of a plausible frame.
    private func landsOnFrame(_ offset: Int) -> Bool {
        if offset == limit { return true }
        guard offset < limit else { return false }
        let next = source.bytes(at: offset, count: min(4, limit - offset))
        if next.first == 0 { return true }
        return next.count == 4 && Self.isFrameID(next[...])
    }

    /// Where a frame's content lies in the reader's source, once its format flags are read.
    struct Place {
        /// Offset of the content (after any group id and data length indicator).
        let start: Int
        /// Bytes of content as stored (before unsynchronisation is undone).
        let size: Int
        /// Whether the content must be read into memory to undo unsynchronisation before it is parsed.
        let unsync: Bool
    }

    /// Where the content of the frame `header` of a tag of version `major` lies, or nil when it is compressed
    /// or encrypted (not worth decoding) or empty.
    static func place(of header: Header, major: UInt8, tagUnsync: Bool) -> Place? {
        var start = header.dataStart
        var size = header.size
        var unsync = false
        if major == 3 {
            if header.format & 0xC0 != 0 { return nil }  // compression, encryption
            if header.format & 0x20 != 0 { (start, size) = (start + 1, size - 1) }  // group id
        } else if major == 4 {
            if header.format & 0x0C != 0 { return nil }  // compression, encryption
            if header.format & 0x40 != 0 { (start, size) = (start + 1, size - 1) }  // group id
            if header.format & 0x01 != 0 { (start, size) = (start + 4, size - 4) }  // data length indicator
            unsync = header.format & 0x02 != 0 || tagUnsync
        }
        guard size > 0 else { return nil }
        return Place(start: start, size: size, unsync: unsync)
    }

    /// The first `limit` bytes of a frame's content (unsynchronisation undone), or nil when it is compressed,
    /// encrypted or empty.
    func payload(_ header: Header, limit: Int = Int.max) -> ArraySlice<UInt8>? {
        guard let place = Self.place(of: header, major: major, tagUnsync: tagUnsync) else { return nil }
        let data = source.bytes(at: place.start, count: min(place.size, limit))[...]
        return place.unsync ? ID3v2Tag.removeUnsynchronisation(data)[...] : data
    }

    /// Frame ids are upper-case letters and digits.
    static func isFrameID(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
