import ShuffleCore

/// Finds the MPEG audio stream between the tags of a file and measures it without decoding.
///
/// The frame count follows libmpg123 1.31 with gapless decoding on (its default), so the
/// result equals what the player will actually produce:
/// - a Xing/Info frame is never decoded; with its frame count `T` and a LAME extension giving
///   encoder delay `d` and padding `p`, the output is `T * spf - d - p` (libmpg123 skips `d + 529`
///   samples at the start and stops `p - 529` before the end: the same net length; when `p < 529`
///   the end is clipped to the decoded frames, giving `T * spf - d - 529`);
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
    /// The most bytes of a stream a frame walk reads (a 10-minute 192 kbit/s track is 14 MB): past it, the
    /// frame count is estimated from the bytes walked, so that no file, however large it claims to be (a
    /// sparse file of 8 GB), holds the indexer for longer than reading this much.
    static let walkBudget = 24 * 1024 * 1024

    /// The file.
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
        if let declared = vbriStreamBytes(at: offset), declared > end - offset, declared != end,
            declared != source.count
        {
            return .truncated("audio is cut short: holds \(end - offset) of \(declared) bytes")
        }
        return walk(from: offset, first: header)
    }

    /// The stream size a Fraunhofer VBRI header (32 bytes after the frame header) declares, if any.
    /// libmpg123 ignores VBRI (its frame is decoded like any other), so only the size is used.
    private func vbriStreamBytes(at offset: Int) -> Int? {
        let vbri = source.bytes(at: offset + 36, count: 18)
        guard vbri.count == 18, vbri[0..<4].elementsEqual("VBRI".utf8) else { return nil }
        return Int(vbri[10]) << 24 | Int(vbri[11]) << 16 | Int(vbri[12]) << 8 | Int(vbri[13])
    }

    // MARK: - Finding the stream

    /// The offset and header of the first frame that starts a proven run of frames. Reads in
    /// small chunks, since the first frame nearly always sits right at `start`.
    private func findFirstFrame() -> (Int, MPEGFrameHeader)? {
        let limit = min(end, start + Self.searchLimit)
        var base = start
        var chunk = 4096
        while base < limit {
            let window = source.bytes(at: base, count: min(chunk, limit - base) + 3)
            guard window.count >= 4 else { return nil }
            var index = 0
            while index + 4 <= window.count && base + index < limit {
                if window[index] == 0xFF, let header = MPEGFrameHeader(in: window, at: index),
                    proves(from: base + index, header: header)
                {
                    return (base + index, header)
                }
                index += 1
            }
            base += window.count - 3
            chunk = min(chunk * 4, 64 * 1024)
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
    ///
    /// libmpg123 sets its gapless window from the declared frame count `T` (begin `delay + 529`,
    /// end `T * spf - padding + 529`), clips the end to what it really decodes (`N` frames after
    /// the Info frame), and moves the end out when the stream turns out longer than declared.
    /// Measured with mpg123 1.31 on streams with `T` smaller, equal and larger than `N`.
    private func measure(xing: XingHeader, at offset: Int, header: MPEGFrameHeader) -> Result {
        let available = end - offset
        // LAME counts the stream from this frame on; some encoders count the whole file instead.
        if let declared = xing.streamBytes, declared > available, declared != end, declared != source.count {
            return .truncated("audio is cut short: holds \(available) of \(declared) bytes")
        }
        let declaredFrames = Int64(xing.frames ?? 0)
        var actualFrames = declaredFrames
        var isEstimate = false
        if declaredFrames == 0 || xing.streamBytes != available {
            switch countFrames(from: offset, first: header) {
            case .failure(let cut): return .truncated(cut.reason)
            case .success(let walk):
                actualFrames = max(0, walk.frames - 1)
                // An estimate past the budget: the declared count is as good a guess, and libmpg123 uses it.
                if walk.isEstimate && declaredFrames > 0 { actualFrames = declaredFrames }
                isEstimate = walk.isEstimate
            }
        }
        let spf = Int64(header.samplesPerFrame)
        let decoded = actualFrames * spf
        let frames: Int64
        if declaredFrames > 0 {
            let delay = Int64(xing.encoderDelay ?? 0) + Int64(Self.decoderDelay)
            let padding = Int64(xing.encoderPadding ?? 0) - Int64(Self.decoderDelay)
            let stop = min(max(declaredFrames, actualFrames) * spf - padding, decoded)
            frames = max(0, stop - delay)
        } else {
            frames = decoded
        }
        guard actualFrames > 0 else { return .noStream }
        return .stream(
            StreamInfo(
                codec: "mp3", sampleRate: header.sampleRate, channels: header.channels, frames: frames,
                isEstimate: isEstimate))
    }

    /// Measures a stream without a Xing/Info frame: every frame is decoded.
    private func walk(from offset: Int, first: MPEGFrameHeader) -> Result {
        switch countFrames(from: offset, first: first) {
        case .failure(let cut): return .truncated(cut.reason)
        case .success(let walk):
            guard walk.frames > 0 else { return .noStream }
            let frames = walk.frames * Int64(first.samplesPerFrame)
            return .stream(
                StreamInfo(
                    codec: "mp3", sampleRate: first.sampleRate, channels: first.channels, frames: frames,
                    isEstimate: walk.isEstimate))
        }
    }

    /// A reason a stream is unplayable.
    struct Cut: Error {
        /// What is wrong, for a person.
        let reason: String
    }

    /// What a frame walk found: the frames, and whether that is an estimate (the walk stopped at the budget).
    struct Walk {
        var frames: Int64
        var isEstimate: Bool
    }

    /// Counts frames from `offset` to the end of the audio, resyncing over junk as libmpg123 does;
    /// fails when the last frame is incomplete. Past `walkBudget` bytes the count is scaled up from the
    /// frames found so far to the rest of the audio (an estimate).
    private func countFrames(from offset: Int, first: MPEGFrameHeader) -> Swift.Result<Walk, Cut> {
        var position = offset
        var count: Int64 = 0
        let stop = end - offset > Self.walkBudget ? offset + Self.walkBudget : end
        while position < end {
            if position >= stop {
                let walked = Int64(position - offset)
                let estimate = count * Int64(end - offset) / max(1, walked)
                return .success(Walk(frames: max(count, estimate), isEstimate: true))
            }
            guard let header = headerAt(position), header.isCompatible(with: first) else {
                guard let next = resync(after: position, like: first, before: stop) else { break }
                position = next
                continue
            }
            let length = header.frameLength
            if position + length > end {
                return .failure(
                    Cut(reason: "audio is cut short: the last frame holds \(end - position) of \(length) bytes"))
            }
            count += 1
            position += length
        }
        return .success(Walk(frames: count, isEstimate: false))
    }

    /// The next offset after `position` where two compatible frames follow each other (or one ends
    /// exactly at the end of the audio); nil when there is none.
    private func resync(after position: Int, like first: MPEGFrameHeader, before stop: Int) -> Int? {
        var base = position + 1
        let chunk = 16 * 1024
        while base < end - 3 {
            // Out of budget: hand back where the search got to, so the walk ends there with an estimate.
            if base >= stop { return base }
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
