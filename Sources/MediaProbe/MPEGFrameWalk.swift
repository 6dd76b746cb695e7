/// Walks MPEG frames the way libmpg123 1.31 reads them once a stream has started (`read_frame` and
/// `wetwork` in `parse.c`), with the player's settings (`MP3Decoder`: resync limit 64 KiB, a track ends
/// after 9 failed reads in a row), so the frames counted are the frames the player decodes:
///
/// - a frame is decoded when its header passes `head_check` and `decode_header` and its whole body is in
///   the file (the last frame may run into the tags at the end: libmpg123 reads it all the same; a frame
///   cut short by the end of the file is not decoded);
/// - "TAG" skips an ID3v1 tag, "ID3" an ID3v2 tag, an APEv2 header its tag;
/// - anything else starts a resync: the next bytes that pass `head_check`, within the resync limit, are taken
///   as a header (libmpg123 does not look at the header after it here, so junk that looks like a frame is
///   decoded as one); a resync that fails costs the player one failed read.
struct MPEGFrameWalk {
    /// The player's `MPG123_RESYNC_LIMIT` (LibMPG123's `MP3Decoder`).
    static let resyncLimit = 65_536
    /// Failed reads in a row after which the player's decoder ends the track (`MP3Decoder.read`).
    static let failedReadsToEnd = 9

    /// What a walk found.
    struct Count {
        /// Frames decoded.
        var frames: Int64 = 0
        /// PCM frames libmpg123 outputs from them (after the gapless window's cuts, when there is one), at the
        /// first frame's sample rate (frames at another rate scaled to it).
        var samples: Int64 = 0
        /// Whether the walk stopped at its byte budget, and the counts are scaled up to the rest of the file.
        var isEstimate = false
    }

    /// The file.
    let source: ByteSource
    /// The first frame of the stream (it sets the sample rate counted in, and free-format frame sizes).
    let first: MPEGFrameHeader
    /// The length of a free-format frame without padding, once measured.
    var freeSize: Int?

    /// Counts the frames from `offset` to the end of the file, reading at most `budget` bytes of it, and what
    /// libmpg123 outputs of them through `window` (the Xing/Info header's gapless window).
    mutating func count(from offset: Int, budget: Int, window: GaplessWindow? = nil) -> Count {
        var count = Count()
        var position = offset
        var failedReads = 0
        var freeGuesses = 0
        let fileEnd = source.count
        let stop = offset + budget
        while position + 4 <= fileEnd {
            if position >= stop {
                let walked = Int64(position - offset)
                let all = Int64(fileEnd - offset)
                count.frames = count.frames * all / max(1, walked)
                count.samples = count.samples * all / max(1, walked)
                count.isEstimate = true
                return count
            }
            let four = source.bytes(at: position, count: 4)
            guard four.count == 4 else { break }
            if let header = MPEGFrameHeader(four[0], four[1], four[2], four[3]) {
                if header.isFreeFormat && freeSize == nil && freeGuesses < Self.freeGuessesPerFrame {
                    freeGuesses += 1
                    switch Self.measureFreeFormat(source, at: position) {
                    case .size(let size): freeSize = size
                    case .none: break
                    case .endOfFile: return count
                    }
                }
                if let length = header.length(freeSize: freeSize) {
                    guard position + length <= fileEnd else { break }
                    let decoded = Int64(header.samplesPerFrame)
                    let kept = window?.kept(frame: count.frames, samples: decoded) ?? decoded
                    count.samples += kept * Int64(first.sampleRate) / Int64(header.sampleRate)
                    count.frames += 1
                    failedReads = 0
                    freeGuesses = 0
                    position += length
                    continue
                }
            }
            if let skipped = skipTag(at: position, four) {
                position = skipped
                continue
            }
            if let next = nextHeader(after: position, within: Self.resyncLimit) {
                position = next
                continue
            }
            failedReads += 1
            if failedReads >= Self.failedReadsToEnd { break }
            position += Self.resyncLimit
        }
        return count
    }

    /// Where a tag libmpg123 recognises mid-stream ends, when one starts at `position`.
    private func skipTag(at position: Int, _ four: [UInt8]) -> Int? {
        if four[0] == 0x54, four[1] == 0x41, four[2] == 0x47 { return position + 128 }  // "TAG": ID3v1
        if four[0] == 0x49, four[1] == 0x44, four[2] == 0x33 {  // "ID3": libmpg123 skips the tag by its size
            let head = source.bytes(at: position, count: 10)
            guard head.count == 10, head[6..<10].allSatisfy({ $0 < 0x80 }) else { return nil }
            let size = Int(head[6]) << 21 | Int(head[7]) << 14 | Int(head[8]) << 7 | Int(head[9])
            return position + 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
        }
        guard four == Array("APET".utf8) else { return nil }
        // An APEv2 header: version 2000, 8 zero bytes at the end; libmpg123 skips its size after the header.
        let head = source.bytes(at: position, count: 32)
        guard head.count == 32, head[4..<8].elementsEqual("AGEX".utf8),
            Self.littleEndian(head, 8) == 2000, head[24..<32].allSatisfy({ $0 == 0 })
        else { return nil }
        return position + 32 + Int(Self.littleEndian(head, 12))
    }

    /// The first offset after `position`, within `limit` bytes, whose four bytes pass `head_check`.
    func nextHeader(after position: Int, within limit: Int) -> Int? {
        Self.nextHeader(in: source, from: position + 1, before: min(source.count, position + limit))
    }

    /// The first offset in `from..<before` whose four bytes pass `head_check`; reads in chunks.
    static func nextHeader(in source: ByteSource, from: Int, before: Int) -> Int? {
        var base = from
        let chunk = 16 * 1024
        while base < before {
            let window = source.bytes(at: base, count: min(chunk, before - base) + 3)
            guard window.count >= 4 else { return nil }
            var index = 0
            while index + 4 <= window.count && base + index < before {
                if window[index] == 0xFF, MPEGFrameHeader(in: window, at: index) != nil { return base + index }
                index += 1
            }
            base += window.count - 3
        }
        return nil
    }

    /// What measuring a free-format frame found.
    enum FreeGuess: Equatable {
        /// The size of the stream's free-format frames without padding.
        case size(Int)
        /// No header of the same kind within libmpg123's largest frame: not a frame after all.
        case none
        /// The file ended first: libmpg123 has read to its end looking, and the stream ends there.
        case endOfFile
    }

    /// Measures free-format frames like the one at `offset`: the distance to the next header of the same kind
    /// within libmpg123's largest frame (`guess_freeformat_framesize`, which leaves the reader at the end of
    /// the file when it runs into it).
    static func measureFreeFormat(_ source: ByteSource, at offset: Int) -> FreeGuess {
        let window = source.bytes(at: offset, count: MPEGFrameHeader.maxBodySize + 8)
        guard let header = MPEGFrameHeader(in: window, at: 0) else { return .none }
        var distance = 5
        while distance <= MPEGFrameHeader.maxBodySize + 4 {
            guard distance + 4 <= window.count else { return .endOfFile }
            if window[distance] == 0xFF, let next = MPEGFrameHeader(in: window, at: distance),
                next.isSameKind(as: header)
            {
                return .size(distance - (header.padded ? 1 : 0))
            }
            distance += 1
        }
        return .none
    }

    /// libmpg123 guesses a free-format size at most this often while looking for one frame.
    static let freeGuessesPerFrame = 5

    /// A little-endian 32-bit value at `offset` (the caller checked the bounds).
    private static func littleEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
