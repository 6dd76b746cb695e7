import ShuffleCore

/// Finds the MPEG audio stream between the tags of a file and measures it without decoding.
///
/// The frame count follows libmpg123 1.31 with gapless decoding on (its default), so the
/// result equals what the player will actually produce:
/// - a Xing/Info frame is never decoded; with its frame count `T` and a LAME extension giving
///   encoder delay `d` and padding `p`, the output is `T * spf - d - p` (libmpg123 skips `d + 529`
///   samples at the start and stops `p - 529` before the end: the same net length);
/// - a Xing/Info frame without a LAME extension still makes libmpg123 skip its 529-sample decoder
///   delay at the start (`T * spf - 529`);
/// - without a Xing/Info frame (plain CBR, or Fraunhofer VBRI, which libmpg123 ignores and decodes
///   as an ordinary, silent frame) every frame is decoded: `frames * spf`, found by walking the
///   frame headers to the end of the audio.
struct MPEGStreamScanner {
    /// What the scan found.
    enum Result: Equatable {
        /// A playable stream.
        case stream(StreamInfo)
        /// No run of valid frames.
        case noStream
        /// A stream that stops early; the reason is for a person.
        case truncated(String)
    }

    /// libmpg123's decoder delay, in samples, removed at the start when a Xing/Info frame is present.
    static let decoderDelay = 529
    /// How far past the expected start to look for the first frame (junk, stray padding).
    static let searchLimit = 128 * 1024
    /// Consecutive valid, compatible frame headers that prove a stream.
    static let framesToProve = 3

    let source: ByteSource
    /// Where the audio should start (after any ID3v2 tag).
    let start: Int
    /// Where the audio ends (before APE, Lyrics3 and ID3v1 tags).
    let end: Int

    /// Scans for the stream and measures it.
    func scan() -> Result {
        guard end > start else { return .noStream }
        guard let (offset, header) = findFirstFrame() else {
            if let cut = truncatedAtStart() { return cut }
            return .noStream
        }
        if header.layer == 3, let xing = XingHeader(source: source, frameAt: offset, header: header) {
            return measure(xing: xing, at: offset, header: header)
        }
        return walk(from: offset, first: header, skippingFirst: false)
    }

    // MARK: - Finding the stream

    /// The offset and header of the first frame that starts a proven run of frames.
    private func findFirstFrame() -> (Int, MPEGFrameHeader)? {
        let windowLength = min(end - start, Self.searchLimit)
        let window = source.bytes(at: start, count: windowLength + 3)
        var index = 0
        while index + 4 <= window.count {
            if window[index] == 0xFF, let header = MPEGFrameHeader(in: window, at: index),
                proves(from: start + index, header: header)
            {
                return (start + index, header)
            }
            index += 1
        }
        return nil
    }

    /// Whether a run of frames starts at `offset`: `framesToProve` valid compatible headers back to
    /// back, or, when the audio is shorter, a run of whole frames that starts exactly at `start`
    /// and ends exactly at `end`.
    private func proves(from offset: Int, header: MPEGFrameHeader) -> Bool {
        var position = offset
        var current = header
        var seen = 0
        while true {
            let next = position + current.frameLength
            seen += 1
            if next > end { return false }
            if seen >= Self.framesToProve { return true }
            if next == end { return offset == start }
            guard let following = headerAt(next), following.isCompatible(with: header) else { return false }
            position = next
            current = following
        }
    }

    /// When the audio starts at `start` with a valid frame that does not fit before `end`: the cut.
    private func truncatedAtStart() -> Result? {
        guard let header = headerAt(start), start + header.frameLength > end else { return nil }
        return .truncated("audio is cut short: holds \(end - start) of \(header.frameLength) bytes of its first frame")
    }

    /// The valid frame header at `offset`, if any.
    private func headerAt(_ offset: Int) -> MPEGFrameHeader? {
        guard offset >= 0, offset + 4 <= end else { return nil }
        let four = source.bytes(at: offset, count: 4)
        guard four.count == 4 else { return nil }
        return MPEGFrameHeader(four[0], four[1], four[2], four[3])
    }

    // MARK: - Measuring

    /// Length from a Xing/Info frame, checking the file holds the bytes it declares.
    private func measure(xing: XingHeader, at offset: Int, header: MPEGFrameHeader) -> Result {
        let spf = header.samplesPerFrame
        // LAME counts the stream from this frame on; some encoders count the whole file instead.
        if let declared = xing.streamBytes, declared > end - offset, declared != end, declared != source.count {
            return .truncated("audio is cut short: holds \(end - offset) of \(declared) bytes")
        }
        guard let frameCount = xing.frames, frameCount > 0 else {
            return walk(from: offset, first: header, skippingFirst: true)
        }
        let total = Int64(frameCount) * Int64(spf)
        let delay = Int64(xing.encoderDelay ?? 0)
        let padding = Int64(xing.encoderPadding ?? 0)
        // libmpg123: begin = delay + 529, end = min(total - padding + 529, total).
        let decoderDelay = Int64(Self.decoderDelay)
        let stop = min(total - padding + decoderDelay, total)
        let frames = max(0, stop - delay - decoderDelay)
        return .stream(StreamInfo(codec: "mp3", sampleRate: header.sampleRate, channels: header.channels, frames: frames))
    }

    /// Counts frames from `offset` to the end of the audio, resyncing over junk as libmpg123 does.
    private func walk(from offset: Int, first: MPEGFrameHeader, skippingFirst: Bool) -> Result {
        var position = offset
        var count: Int64 = 0
        while position < end {
            guard let header = headerAt(position), header.isCompatible(with: first) else {
                guard let next = resync(after: position, like: first) else { break }
                position = next
                continue
            }
            let length = header.frameLength
            if position + length > end {
                return .truncated("audio is cut short: the last frame holds \(end - position) of \(length) bytes")
            }
            count += 1
            position += length
        }
        if skippingFirst { count -= 1 }
        guard count > 0 else { return .noStream }
        let frames = count * Int64(first.samplesPerFrame)
        return .stream(StreamInfo(codec: "mp3", sampleRate: first.sampleRate, channels: first.channels, frames: frames))
    }

    /// The next offset after `position` where two compatible frames follow each other (or one ends
    /// exactly at the end of the audio); nil when there is none.
    private func resync(after position: Int, like first: MPEGFrameHeader) -> Int? {
        var base = position + 1
        let chunk = 16 * 1024
        while base < end - 3 {
            let window = source.bytes(at: base, count: min(chunk, end - base))
            if window.count < 4 { return nil }
            var index = 0
            while index + 4 <= window.count {
                if window[index] == 0xFF, let header = MPEGFrameHeader(in: window, at: index),
                    header.isCompatible(with: first)
                {
                    let next = base + index + header.frameLength
                    if next == end { return base + index }
                    if next < end, let following = self.headerAt(next), following.isCompatible(with: first) {
                        return base + index
                    }
                }
                index += 1
            }
            base += max(1, window.count - 3)
        }
        return nil
    }
}
