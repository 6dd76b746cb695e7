import ShuffleCore

/// Finds the MPEG audio stream of a file and measures it without decoding, so that the verdict and the
/// length are the player's: a file is playable exactly when libmpg123 (1.31, gapless on, the player's
/// `MP3Decoder` settings) decodes samples from it, and the length is what it decodes.
///
/// - The stream starts where libmpg123 starts it (`read_frame`, `skip_junk`, `do_readahead` in `parse.c`):
///   the first header within 64 KiB of junk whose whole frame is in the file and is followed by a compatible
///   header. A first frame with nothing after it (a lone frame, a file cut inside its second header) gives
///   no audio at all.
/// - A Xing/Info header in that first frame is never decoded; its frame count `T`, with a LAME extension's
///   delay and padding, sets libmpg123's gapless window (`GaplessWindow`). The count is a hint: it is
///   trusted only when the header's byte count is exactly the audio between the tags, the count fits that
///   byte count and the stream ends on a whole frame at the tags; otherwise the frames are walked
///   (`MPEGFrameWalk`) and `N`, the frames really there, goes into the window. An over-claiming header so
///   never becomes the duration, and one with no audio after it (a lone Xing frame) is unplayable.
/// - Without a Xing/Info header (plain CBR, or Fraunhofer VBRI, which libmpg123 ignores and decodes as an
///   ordinary, silent frame) every frame is decoded, and the walk counts them.
struct MPEGStreamScanner {
    /// What the scan found.
    enum Result: Equatable {
        /// A playable stream.
        case stream(StreamInfo)
        /// No run of valid frames.
        case noStream
        /// Frames that hold no decodable audio; the reason is for a person.
        case truncated(String)
    }

    /// How far past the expected start libmpg123 looks for the first frame (`skip_junk`: 64 KiB, or the
    /// resync limit when that is larger; the player's is 64 KiB too).
    static let searchLimit = 65_536
    /// How far from the audio's start the search for the first frame reads at most (see `findFirstFrame`).
    static let searchCap = 16 * searchLimit
    // The most bytes of a stream a frame walk reads is `source.walkBudget` (24 MiB at index time): past it,
    // the frame count is estimated from the bytes walked, so that no file, however large it claims to be (a
    // sparse file of 8 GB), holds the indexer for longer than reading this much.
    /// How many bytes before the tags the check for a whole last frame looks at.
    static let tailWindow = 8 * 1024
    /// A VBR stream up to this size is always walked: trusting its header saves little.
    static let trustedWalk = 256 * 1024
    /// How many frames at its start a long VBR stream's declared mean frame length is checked against.
    static let sampledFrames = 64
    /// How far from the first audio frame that sample reaches (about what the first block read holds).
    static let sampledBytes = 16 * 1024

    /// The file.
    let source: ByteSource
    /// Where the audio should start by the tag reader (after any ID3v2 tag): the floor of the end-of-stream
    /// checks and of a first frame cut short. The search for the first frame does not begin here but where
    /// libmpg123 begins it (`findFirstFrame`), which can be past a tag footer the tag reader does not count.
    let start: Int
    /// Where the audio ends (before APE, Lyrics3 and ID3v1 tags).
    let end: Int

    /// The first frame of the stream.
    struct First {
        /// Its offset.
        var offset: Int
        /// Its header.
        var header: MPEGFrameHeader
        /// Its length in bytes.
        var length: Int
        /// The free-format frame size (without padding), when the stream is free format.
        var freeSize: Int?
    }

    /// Scans for the stream and measures it.
    /// `end` does not bound the search: libmpg123 reads to the end of the file, and decodes frames it finds
    /// inside what look like tags at the end (an APE tag whose size claims the whole file).
    func scan() -> Result {
        guard let first = findFirstFrame() else {
            if let cut = truncatedAtStart() { return cut }
            return .noStream
        }
        let header = first.header
        var walk = MPEGFrameWalk(source: source, first: header, freeSize: first.freeSize)
        let frames: Int64
        var isEstimate = false
        if let xing = XingHeader(source: source, frameAt: first.offset, length: first.length, header: header) {
            let declared = Int64(xing.frames ?? 0)
            let delay = xing.encoderDelay.map(Int64.init)
            let padding = xing.encoderPadding.map(Int64.init)
            let spf = Int64(header.samplesPerFrame)
            func output(_ decoded: Int64) -> Int64 {
                GaplessWindow.output(
                    declared: declared, delay: delay, padding: padding, decoded: decoded, samplesPerFrame: spf)
            }
            if trusts(xing, first: first) {
                frames = output(declared)
            } else {
                let window = GaplessWindow(declared: declared, delay: delay, padding: padding, samplesPerFrame: spf)
                let count = walk.count(from: first.offset + first.length, budget: source.walkBudget, window: window)
                guard count.frames > 0 else { return .truncated("no audio after the Xing/Info header") }
                // Past the budget, a count that fits the estimate is the better guess (libmpg123 uses it).
                let fits = declared > 0 && declared <= count.frames + count.frames / 8
                frames = count.isEstimate && fits ? output(declared) : count.samples
                isEstimate = count.isEstimate
            }
            guard frames > 0 else { return .truncated("the LAME header's delay and padding leave no audio") }
        } else {
            let count = walk.count(from: first.offset, budget: source.walkBudget)
            frames = count.samples
            isEstimate = count.isEstimate
            guard frames > 0 else { return .noStream }
        }
        return .stream(
            StreamInfo(
                codec: "mp3", sampleRate: header.sampleRate, channels: header.channels, frames: frames,
                isEstimate: isEstimate))
    }

    // MARK: - Finding the stream

    /// The first frame libmpg123 starts the stream with (`read_frame` before its first header, `skip_junk`,
    /// `wetwork` and `do_readahead` in `parse.c`), step by step:
    ///
    /// - at the reading position, four bytes that pass `head_check` are decoded; four that do not start a
    ///   junk search (`skip_junk`), after an ID3v2 tag is skipped, that steps one byte at a time and stops at
    ///   the first header that passes and decodes; the bytes stepped over count against 64 KiB for the whole
    ///   search;
    /// - a header that does not decode (a free-format size that cannot be measured, Layer III side information
    ///   that does not fit) starts a resync to the next bytes that pass `head_check`, within the resync limit;
    /// - a decoded header is the first frame when its whole frame is in the file and a compatible header
    ///   follows it; otherwise the search goes on one byte after it;
    /// - a free-format size is guessed at most 5 times with each of two counters: the junk search's, new with
    ///   every junk search, and the one of the frame being read, kept for the whole search. Once measured, the
    ///   size is kept for the stream, even when the frame it was measured on turns out not to start it.
    ///
    /// A chain of headers that fail their readahead, each followed by a resync, is bounded only by the file in
    /// libmpg123; this search stops `searchCap` bytes from where it began, far past any real stream's start.
    private func findFirstFrame() -> First? {
        // From the file's first byte, not `start`: libmpg123 skips ID3v2 tags its own way (a footer of 10
        // bytes whenever the footer flag is set, which only ID3v2.4 defines).
        var position = afterID3Headers(from: 0)
        let cap = min(source.count, position + Self.searchCap)
        var frameGuesses = 0
        var junkStepped = 0
        var freeSize: Int?

        /// What `decode_header` makes of a header that passed `head_check`.
        enum Decoded { case length(Int), bad, endOfFile }
        func decode(_ header: MPEGFrameHeader, at offset: Int, guesses: inout Int) -> Decoded {
            if header.isFreeFormat && freeSize == nil {
                guesses += 1
                guard guesses <= MPEGFrameWalk.freeGuessesPerFrame else { return .bad }
                switch MPEGFrameWalk.measureFreeFormat(source, at: offset) {
                case .size(let size): freeSize = size
                case .none: return .bad
                case .endOfFile: return .endOfFile
                }
            }
            return header.length(freeSize: freeSize).map(Decoded.length) ?? .bad
        }

        while position < cap {
            let four = source.bytes(at: position, count: 4)
            guard four.count == 4 else { return nil }
            var candidate = position
            var found = MPEGFrameHeader(four[0], four[1], four[2], four[3])
            if found == nil {
                if four[0] == 0x49, four[1] == 0x44, four[2] == 0x33 {
                    position = max(position + 1, afterID3Headers(from: position))
                    continue
                }
                // skip_junk: the first header after `position` that decodes, with a guess counter of its own.
                var junkGuesses = 0
                var scan = position
                junking: while true {
                    guard
                        let next = MPEGFrameWalk.nextHeader(
                            in: source, from: scan + 1, before: min(cap, position + Self.searchLimit - junkStepped))
                    else { return nil }
                    scan = next
                    guard let header = headerAt(next) else { continue }
                    switch decode(header, at: next, guesses: &junkGuesses) {
                    case .length:
                        found = header
                        break junking
                    case .bad: continue
                    case .endOfFile: return nil
                    }
                }
                junkStepped += scan - position
                candidate = scan
            }
            guard let header = found else { return nil }
            let length: Int
            switch decode(header, at: candidate, guesses: &frameGuesses) {
            case .length(let decoded): length = decoded
            case .endOfFile: return nil
            case .bad:
                // wetwork: resync to the next bytes that pass head_check, then decode those.
                guard
                    let next = MPEGFrameWalk.nextHeader(
                        in: source, from: candidate + 1, before: min(cap, candidate + MPEGFrameWalk.resyncLimit))
                else { return nil }
                position = next
                continue
            }
            // do_readahead: the frame must be whole and followed by a compatible header.
            let next = candidate + length
            if next + 4 > source.count { return nil }
            if let following = headerAt(next), following.isCompatible(with: header) {
                return First(offset: candidate, header: header, length: length, freeSize: freeSize)
            }
            position = candidate + 1
        }
        return nil
    }

    /// Where libmpg123 goes on after what starts with "ID3" at `offset` (`parse_new_id3`): past the tag by its
    /// size whatever its version and flags (plus a 10-byte footer whenever the footer flag is set, even in
    /// ID3v2.2 and 2.3, which define none), or, when the header is malformed (version or revision 0xFF, a size
    /// that is not syncsafe), just past the bytes of the header it read.
    private func afterID3Headers(from offset: Int) -> Int {
        var position = offset
        for _ in 0..<8 {
            let head = source.bytes(at: position, count: 10)
            guard head.count >= 4, head[0] == 0x49, head[1] == 0x44, head[2] == 0x33 else { break }
            guard head[3] != 0xFF, head.count == 10 else { return position + (head[3] == 0xFF ? 4 : head.count) }
            guard head[4] != 0xFF, head[6..<10].allSatisfy({ $0 < 0x80 }) else { return position + 10 }
            let size = Int(head[6]) << 21 | Int(head[7]) << 14 | Int(head[8]) << 7 | Int(head[9])
            position += 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
        }
        return position
    }

    /// When the audio starts at `start` with a valid frame that does not fit before the end: the cut.
    private func truncatedAtStart() -> Result? {
        guard end > start, let header = headerAt(start), let length = header.length(freeSize: nil), start + length > end
        else {
            return nil
        }
        return .truncated("audio is cut short: holds \(end - start) of \(length) bytes of its first frame")
    }

    /// The valid frame header at `offset`, if any.
    private func headerAt(_ offset: Int) -> MPEGFrameHeader? {
        let four = source.bytes(at: offset, count: 4)
        guard four.count == 4 else { return nil }
        return MPEGFrameHeader(four[0], four[1], four[2], four[3])
    }

    // MARK: - When the header's count can be trusted

    /// Whether the Xing/Info frame count can stand for the frames really there without walking them: the
    /// declared byte count is exactly the audio between the tags (a copy cut short, a tag written over the
    /// end or a stream joined on all change that), the count fits those bytes (no frame shorter or longer
    /// than the stream's bit rates allow; an Info (CBR) count exactly), and a whole frame ends at the tags.
    private func trusts(_ xing: XingHeader, first: First) -> Bool {
        guard let declared = xing.frames, declared > 0, let bytes = xing.streamBytes, bytes == end - first.offset,
            !first.header.isFreeFormat
        else { return false }
        let audio = bytes - first.length
        let count = Int(declared)
        guard let audioHeader = headerAt(first.offset + first.length), let audioLength = audioHeader.frameLength
        else { return false }
        if xing.isInfo {
            // CBR: every frame is the first audio frame's length, give or take its padding byte.
            let plain = audioLength - (audioHeader.padded ? 1 : 0)
            guard audio >= count * plain, audio <= count * (plain + 1) else { return false }
        } else {
            let (shortest, longest) = lengthRange(of: first.header)
            guard audio >= count * shortest, audio <= count * longest else { return false }
            // VBR: a short stream is walked (it costs little more than the reads already made); a long one
            // must have the declared mean frame length near the mean of the frames at its start.
            guard audio > Self.trustedWalk, let sampled = meanFrameLength(from: first.offset + first.length),
                audio * 3 >= count * sampled * 2, audio * 2 <= count * sampled * 3
            else { return false }
        }
        return endsOnAWholeFrame(like: first.header)
    }

    /// The mean length of up to `sampledFrames` frames in `sampledBytes` from `offset`, if at least 8.
    private func meanFrameLength(from offset: Int) -> Int? {
        var position = offset
        var frames = 0
        while frames < Self.sampledFrames, position - offset < Self.sampledBytes, let header = headerAt(position),
            let length = header.frameLength
        {
            position += length
            frames += 1
        }
        return frames >= 8 ? (position - offset) / frames : nil
    }

    /// The shortest and longest frame a stream of `header`'s version, layer and rate can have.
    private func lengthRange(of header: MPEGFrameHeader) -> (Int, Int) {
        var shortest = Int.max
        var longest = 0
        for index in 1...14 {
            for padding: UInt8 in [0, 2] {
                let b1: UInt8 = 0xE0 | header.versionBits << 3 | UInt8(4 - header.layer) << 1 | 1
                let b2 = UInt8(index) << 4 | UInt8(header.rateIndex) << 2 | padding
                guard let sample = MPEGFrameHeader(0xFF, b1, b2, 0), let length = sample.frameLength else { continue }
                shortest = min(shortest, length)
                longest = max(longest, length)
            }
        }
        return (shortest, longest)
    }

    /// Whether a chain of compatible frames found in the last `tailWindow` bytes before the tags ends exactly
    /// at them.
    private func endsOnAWholeFrame(like first: MPEGFrameHeader) -> Bool {
        let from = max(start, end - Self.tailWindow)
        let window = source.bytes(at: from, count: end - from)
        guard window.count == end - from else { return false }
        var index = 0
        while index + 4 <= window.count {
            if window[index] == 0xFF, let header = MPEGFrameHeader(in: window, at: index),
                header.isCompatible(with: first)
            {
                var position = index
                var current = header
                var links = 0
                while let length = current.frameLength {
                    position += length
                    links += 1
                    if position == window.count { return links >= 2 || from == start }
                    guard let next = MPEGFrameHeader(in: window, at: position), next.isCompatible(with: first) else {
                        break
                    }
                    current = next
                }
            }
            index += 1
        }
        return false
    }
}
