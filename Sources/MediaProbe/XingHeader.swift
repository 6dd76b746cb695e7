/// The Xing/Info header (with its optional LAME extension) that a VBR or LAME-encoded MP3 keeps in
/// its first frame, read the way libmpg123 1.31 reads it (`check_lame_tag` in `parse.c`): a frame whose
/// body holds the magic after zeros is a header frame (never decoded) even when the fields it announces
/// do not fit; each field is taken only when its bytes are there.
struct XingHeader: Equatable {
    /// Audio frames in the stream (the Xing/Info frame itself not counted), when declared.
    var frames: UInt32?
    /// Bytes of the stream from the Xing/Info frame on, when declared.
    var streamBytes: Int?
    /// Samples the encoder added at the start (LAME extension), when present.
    var encoderDelay: Int?
    /// Samples the encoder added at the end (LAME extension), when present.
    var encoderPadding: Int?
    /// Whether the magic was "Info" (LAME writes it for CBR streams) rather than "Xing".
    var isInfo = false

    /// Reads the header from the frame at `offset`, `length` bytes long; nil when the frame holds none.
    init?(source: ByteSource, frameAt offset: Int, length: Int, header: MPEGFrameHeader) {
        guard header.layer == 3 else { return nil }
        let sideInfo = header.sideInfoLength
        let bodyLength = length - 4
        // libmpg123: "4 B Info/Xing + 4 B flags is bare minimum".
        guard bodyLength >= sideInfo + 8 else { return nil }
        let body = source.bytes(at: offset + 4, count: bodyLength)
        guard body.count == bodyLength else { return nil }
        // Only zeros may come before the tag (the first two bytes may be a CRC).
        for index in 2..<sideInfo where body[index] != 0 { return nil }
        let magic = Array(body[sideInfo..<sideInfo + 4])
        isInfo = magic == Array("Info".utf8)
        guard isInfo || magic == Array("Xing".utf8) else { return nil }
        func long(_ at: Int) -> UInt32 {
            UInt32(body[at]) << 24 | UInt32(body[at + 1]) << 16 | UInt32(body[at + 2]) << 8 | UInt32(body[at + 3])
        }
        let flags = long(sideInfo + 4)
        var cursor = sideInfo + 8
        func has(_ count: Int) -> Bool { cursor + count <= body.count }
        if flags & 1 != 0 {
            guard has(4) else { return }
            frames = long(cursor)
            cursor += 4
        }
        if flags & 2 != 0 {
            guard has(4) else { return }
            streamBytes = Int(long(cursor))
            cursor += 4
        }
        if flags & 4 != 0 {
            guard has(100) else { return }
            cursor += 100
        }
        if flags & 8 != 0 {
            guard has(4) else { return }
            cursor += 4
        }
        // libmpg123 takes any non-zero byte here as the start of a LAME extension (it reads 24 bytes of it).
        guard has(24), body[cursor] != 0 else { return }
        let at = cursor + 21
        encoderDelay = Int(body[at]) << 4 | Int(body[at + 1]) >> 4
        encoderPadding = (Int(body[at + 1]) & 0x0F) << 8 | Int(body[at + 2])
    }
}
