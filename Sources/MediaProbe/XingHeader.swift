/// The Xing/Info header (with its optional LAME extension) that a VBR or LAME-encoded MP3 keeps in
/// its first frame, read the way libmpg123 1.31 reads it (`check_lame_tag` in `parse.c`).
struct XingHeader: Equatable {
    /// Audio frames in the stream (the Xing/Info frame itself not counted), when declared.
    var frames: UInt32?
    /// Bytes of the stream from the Xing/Info frame on, when declared.
    var streamBytes: Int?
    /// Samples the encoder added at the start (LAME extension), when present.
    var encoderDelay: Int?
    /// Samples the encoder added at the end (LAME extension), when present.
    var encoderPadding: Int?

    /// libmpg123 ignores frame counts above this (`TRACK_MAX_FRAMES`: ULONG_MAX / 4 / 1152 on 64-bit
    /// exceeds UInt32, so in practice every 32-bit count is taken).
    static let maxFrames = UInt64.max / 4 / 1152

    /// Reads the header from the frame at `offset`; nil when the frame holds none.
    init?(source: ByteSource, frameAt offset: Int, header: MPEGFrameHeader) {
        let sideInfo = header.sideInfoLength
        let bodyLength = header.frameLength - 4
        // libmpg123 looks only in frames big enough for the classic 120-byte Xing header.
        guard bodyLength >= 120 + sideInfo else { return nil }
        let body = source.bytes(at: offset + 4, count: bodyLength)
        guard body.count == bodyLength else { return nil }
        // Only zeros may come before the tag (the first two bytes may be a CRC).
        for index in 2..<sideInfo where body[index] != 0 { return nil }
        let magic = Array(body[sideInfo..<sideInfo + 4])
        guard magic == Array("Xing".utf8) || magic == Array("Info".utf8) else { return nil }
        func long(_ at: Int) -> UInt32? {
            guard at >= 0, at + 4 <= body.count else { return nil }
            return UInt32(body[at]) << 24 | UInt32(body[at + 1]) << 16 | UInt32(body[at + 2]) << 8 | UInt32(body[at + 3])
        }
        var cursor = sideInfo + 4
        guard let flags = long(cursor) else { return nil }
        cursor += 4
        if flags & 1 != 0 {
            frames = long(cursor)
            cursor += 4
        }
        if flags & 2 != 0 {
            streamBytes = long(cursor).map { Int($0) }
            cursor += 4
        }
        if flags & 4 != 0 { cursor += 100 }
        if flags & 8 != 0 { cursor += 4 }
        // libmpg123 takes any non-zero byte here as the start of a LAME extension (36 bytes).
        if cursor + 24 <= body.count, body[cursor] != 0 {
            let at = cursor + 21
            encoderDelay = Int(body[at]) << 4 | Int(body[at + 1]) >> 4
            encoderPadding = (Int(body[at + 1]) & 0x0F) << 8 | Int(body[at + 2])
        }
    }
}
