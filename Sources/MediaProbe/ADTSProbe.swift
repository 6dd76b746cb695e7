import ShuffleCore

/// Measures a raw AAC stream in ADTS frames (`.aac`) by walking its frame headers, as the MPEG scanner
/// walks MP3 frames: each frame holds 1024 samples per raw data block. ADTS carries no priming or padding,
/// so a decoder yields every frame's samples. Past the source's `walkBudget` bytes the count is scaled up (an
/// estimate).
enum ADTSProbe {
    /// Frames in a row that prove a stream.
    static let framesToProve = 3

    /// One ADTS frame header.
    struct Header: Equatable {
        let rateIndex: Int
        let channels: Int
        let length: Int
        let blocks: Int
        /// The header's own bytes: 7, or 9 with a CRC (`protection_absent` 0).
        let size: Int
        var sampleRate: Int { ESDescriptor.rates[rateIndex] }
        /// Whether the frame carries raw data after its header (a decoder gets no samples from one that
        /// does not: FFmpeg fails on a stream of header-only frames).
        var hasPayload: Bool { length > size }

        /// The header at the start of `bytes` (7 bytes), if valid.
        init?(_ bytes: ArraySlice<UInt8>) {
            guard bytes.count >= 7 else { return nil }
            let b = Array(bytes.prefix(7))
            guard b[0] == 0xFF, b[1] & 0xF6 == 0xF0 else { return nil }  // sync, layer 0
            rateIndex = Int((b[2] >> 2) & 0x0F)
            channels = Int((b[2] & 1) << 2 | b[3] >> 6)
            length = Int(b[3] & 3) << 11 | Int(b[4]) << 3 | Int(b[5] >> 5)
            blocks = Int(b[6] & 3) + 1
            size = b[1] & 1 == 1 ? 7 : 9
            guard rateIndex < ESDescriptor.rates.count, length >= 7 else { return nil }
        }

        /// Whether `other` belongs to the same stream.
        func isCompatible(with other: Header) -> Bool { rateIndex == other.rateIndex && channels == other.channels }
    }

    /// Whether an ADTS stream of `framesToProve` frames starts at `start`.
    static func starts(_ source: ByteSource, at start: Int, end: Int) -> Bool {
        var position = start
        var first: Header?
        for index in 0..<framesToProve {
            guard let header = Header(source.bytes(at: position, count: 7)[...]) else { return false }
            if let first, !header.isCompatible(with: first) { return false }
            first = first ?? header
            position += header.length
            if position == end { return index > 0 || position - start == header.length }
            if position > end { return false }
        }
        return true
    }

    /// Measures the ADTS stream from `start` to `end`; `tags` are the ID3 tags around it.
    static func probe(_ source: ByteSource, from start: Int, to end: Int, tags: TagInfo) -> ProbeOutcome {
        guard let first = Header(source.bytes(at: start, count: 7)[...]) else {
            return .unplayable(reason: "not AAC audio")
        }
        var position = start
        var samples: Int64 = 0
        let stop = start + min(end - start, source.walkBudget)
        var isEstimate = false
        while position < end {
            if position >= stop {
                samples = samples * Int64(end - start) / Int64(max(1, position - start))
                isEstimate = true
                break
            }
            guard let header = Header(source.bytes(at: position, count: 7)[...]), header.isCompatible(with: first)
            else {
                break
            }
            if position + header.length > end {
                return .unplayable(
                    reason: "audio is cut short: the last frame holds \(end - position) of \(header.length) bytes")
            }
            if header.hasPayload { samples += Int64(header.blocks * 1024) }
            position += header.length
        }
        guard samples > 0, first.channels > 0 else { return .unplayable(reason: "not AAC audio") }
        return .audio(
            tags,
            StreamInfo(
                codec: "aac", sampleRate: first.sampleRate, channels: first.channels, frames: samples,
                isEstimate: isEstimate))
    }
}
