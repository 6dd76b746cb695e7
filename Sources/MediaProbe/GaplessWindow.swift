/// libmpg123 1.31's gapless trimming, frame by frame (`kept`) and as arithmetic (`output`): how many PCM frames it outputs from a stream whose
/// Xing/Info header declares `T` frames, with a LAME extension's encoder delay `d` and padding `p`, when `N`
/// frames after the header are really decoded.
///
/// From `frame_gapless_init`/`frame_gapless_realinit`/`frame_set_frameseek` (frame.c) and
/// `frame_buffercheck` (gapless.h): with `T > 0` the output window is `[d + 529, T * spf - p + 529)`; frames
/// before the window's first frame are skipped, the first frame loses its leading part, frames from the
/// window's end on are cut (the one holding the end keeps its head; an end at or below 0 cuts nothing), and
/// frames numbered `T` or more, "supposedly attached to the stream after the fact", are kept whole. With
/// `T == 0` (no count, or a count of 0) nothing is trimmed. This covers the odd cases too: a header that
/// over-claims (the end lies past the decoded frames), one that under-claims, and LAME fields whose delay
/// and padding leave nothing.
struct GaplessWindow {
    /// libmpg123's decoder delay (`GAPLESS_DELAY`), added to both ends of the window.
    static let decoderDelay: Int64 = 529

    /// The declared frame count `T` (0: no window).
    let declared: Int64
    /// The first frame with output, and how many of its samples are cut.
    let firstFrame: Int64
    let firstOffset: Int64
    /// The frame holding the window's end and how many of its samples are kept (-1: no end).
    let lastFrame: Int64
    let lastOffset: Int64

    /// The window of a header declaring `declared` frames of `samplesPerFrame` (the first frame's) samples.
    init(declared: Int64, delay: Int64?, padding: Int64?, samplesPerFrame spf: Int64) {
        self.declared = max(0, declared)
        let begin = (delay ?? 0) + Self.decoderDelay
        let end = declared * spf - (padding ?? 0) + Self.decoderDelay
        firstFrame = declared > 0 ? begin / spf : 0
        firstOffset = declared > 0 ? begin % spf : 0
        lastFrame = declared > 0 && end > 0 ? end / spf : -1
        lastOffset = declared > 0 && end > 0 ? end % spf : 0
    }

    /// What libmpg123 outputs of frame `number` (0: the first after the header), which decodes to `samples`.
    func kept(frame number: Int64, samples: Int64) -> Int64 {
        guard declared > 0 else { return samples }
        if number < firstFrame { return 0 }
        if number >= declared { return samples }
        var fill = samples
        if lastFrame >= 0 && number >= lastFrame { fill = min(fill, number == lastFrame ? lastOffset : 0) }
        if firstOffset > 0 && number == firstFrame { fill = fill > firstOffset ? fill - firstOffset : 0 }
        return fill
    }

    /// The PCM frames libmpg123 outputs from `decoded` frames of `samplesPerFrame` samples each.
    static func output(
        declared: Int64, delay: Int64?, padding: Int64?, decoded: Int64, samplesPerFrame spf: Int64
    ) -> Int64 {
        guard declared > 0, decoded > 0, spf > 0 else { return max(0, decoded) * max(0, spf) }
        let begin = (delay ?? 0) + decoderDelay
        let end = declared * spf - (padding ?? 0) + decoderDelay
        let firstFrame = begin / spf
        let firstOffset = begin % spf
        guard firstFrame < decoded else { return 0 }
        let lastFrame: Int64 = end > 0 ? end / spf : -1
        let lastOffset: Int64 = end > 0 ? end % spf : 0
        /// What the end cut leaves of frame `number` (before the start cut).
        func kept(_ number: Int64) -> Int64 {
            if lastFrame < 0 || number < lastFrame { return spf }
            return number == lastFrame ? lastOffset : 0
        }
        let trimmed = min(decoded, declared)
        var total: Int64 = 0
        if firstFrame < trimmed {
            if lastFrame < 0 {
                total = (trimmed - firstFrame) * spf
            } else {
                total = max(0, min(trimmed, lastFrame) - firstFrame) * spf
                if lastFrame >= firstFrame && lastFrame < trimmed { total += lastOffset }
            }
            if firstOffset > 0 {
                let first = kept(firstFrame)
                total -= first > firstOffset ? firstOffset : first
            }
        }
        total += max(0, decoded - max(firstFrame, declared)) * spf
        return total
    }
}
