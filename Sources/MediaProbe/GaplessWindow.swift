/// libmpg123 1.31's gapless trimming, as arithmetic: how many PCM frames it outputs from a stream whose
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
enum GaplessWindow {
    /// libmpg123's decoder delay (`GAPLESS_DELAY`), added to both ends of the window.
    static let decoderDelay: Int64 = 529

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
