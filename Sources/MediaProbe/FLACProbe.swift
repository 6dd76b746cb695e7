import ShuffleCore

/// Reads a native FLAC stream (`fLaC`, metadata blocks, frames) without decoding it.
///
/// STREAMINFO gives the rate, channels, bit depth and total samples; VORBIS_COMMENT the tags (pictures
/// and other blocks are skipped by offset). The length is what a decoder decodes (libFLAC and FFmpeg
/// alike): from the first frame header after the metadata (a damaged first frame is skipped, as the
/// decoders resync past it, within `tailWindow` bytes) to the end of the last whole frame. The end is
/// found the way a decoder finds it: the last frame header in the file's last `tailWindow` bytes must
/// carry a valid CRC-8 and the frame it starts must end on the file's last byte with a valid CRC-16, else
/// the stream is cut short and ends with the frame before. Never more than STREAMINFO's total; a stream
/// that does not say its total (0: a live encoder) gets it from its last frame.
enum FLACProbe {
    /// The most metadata blocks looked at.
    static let maxBlocks = 1024
    /// How much of the end of the audio is read to find the last frame (a 16-bit stereo frame of 4096
    /// samples is at most ~16 KiB; 24-bit 8-channel frames of 16384 samples still fit).
    static let tailWindow = 512 * 1024

    /// Probes the FLAC stream whose `fLaC` marker is at `start`.
    static func probe(_ source: ByteSource, at start: Int) -> ProbeOutcome {
        var offset = start + 4
        var info: (rate: Int, channels: Int, bits: Int, total: UInt64, maxBlock: Int)?
        var tags = RawTags()
        var last = false
        var blocks = 0
        while !last {
            guard blocks < maxBlocks else { return .unplayable(reason: "FLAC metadata has too many blocks") }
            blocks += 1
            let head = source.bytes(at: offset, count: 4)
            guard head.count == 4 else { return .unplayable(reason: "FLAC metadata is cut short") }
            last = head[0] & 0x80 != 0
            let type = head[0] & 0x7F
            let length = Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            let body = offset + 4
            guard length <= source.count - body else { return .unplayable(reason: "FLAC metadata is cut short") }
            switch type {
            case 0:
                let bytes = source.bytes(at: body, count: 34)[...]
                guard length >= 34, bytes.count == 34 else { return .unplayable(reason: "FLAC STREAMINFO is damaged") }
                info = streamInfo(bytes)
            case 4 where tags.isEmpty:
                tags = VorbisComment.read(source.bytes(at: body, count: length)[...])
            case 127:
                return .unplayable(reason: "FLAC metadata is damaged")
            default: break
            }
            if blocks == 1 && type != 0 { return .unplayable(reason: "FLAC file does not start with STREAMINFO") }
            offset = body + length
        }
        guard let info, info.rate > 0 else { return .unplayable(reason: "FLAC STREAMINFO is damaged") }
        let end = TailTags(source: source, floor: offset).audioEnd
        guard end > offset else { return .unplayable(reason: "FLAC file holds no audio frames") }
        guard let (audioStart, skipped) = firstFrame(source, from: offset, to: end, fixedBlockSize: info.maxBlock)
        else {
            return .unplayable(reason: "FLAC audio is damaged: no frame after the metadata")
        }
        // Where the decoded samples end: a stream cut short (or cut inside its last frame) plays up to its
        // last whole frame.
        var lastSample = info.total
        switch lastFrameEnd(source, from: audioStart, to: end, fixedBlockSize: info.maxBlock) {
        case .complete(let samples):
            lastSample = info.total == 0 ? samples : min(samples, info.total)
        case .cut(let samples):
            lastSample = info.total == 0 ? samples : min(samples, info.total)
            if lastSample <= skipped {
                let total = info.total > 0 ? " of \(info.total)" : ""
                return .unplayable(
                    reason: "audio is cut short: the last frame is incomplete (\(samples)\(total) samples)")
            }
        case .unknown:
            if info.total == 0 {
                return .unplayable(reason: "FLAC stream of unknown length: no frame found at its end")
            }
        }
        guard lastSample > skipped, let count = Int64(file: lastSample - skipped) else {
            return .unplayable(reason: "FLAC stream holds no samples")
        }
        return .audio(
            tags.tagInfo(resolveGenre: false),
            StreamInfo(
                codec: "flac", sampleRate: info.rate, channels: info.channels, frames: count, bitsPerSample: info.bits))
    }

    /// The first frame header from `start` (within `tailWindow` bytes, before `end`): where it is and the
    /// sample it starts at (0 unless frames before it are damaged); nil when there is none.
    static func firstFrame(_ source: ByteSource, from start: Int, to end: Int, fixedBlockSize: Int) -> (Int, UInt64)? {
        let bytes = source.bytes(at: start, count: min(end - start, tailWindow))[...]
        var index = 0
        while index + 1 < bytes.count {
            let base = bytes.startIndex + index
            if bytes[base] == 0xFF, bytes[base + 1] & 0xFE == 0xF8, let header = FLACFrameHeader(bytes, at: index),
                let first = header.firstSample(fixedBlockSize: fixedBlockSize)
            {
                return (start + index, first)
            }
            index += 1
        }
        return nil
    }

    /// Rate, channels, bits per sample, total samples and maximum block size from STREAMINFO's 34 bytes.
    static func streamInfo(_ b: ArraySlice<UInt8>) -> (
        rate: Int, channels: Int, bits: Int, total: UInt64, maxBlock: Int
    ) {
        let i = b.startIndex
        let maxBlock = Int(b[i + 2]) << 8 | Int(b[i + 3])
        let rate = Int(b[i + 10]) << 12 | Int(b[i + 11]) << 4 | Int(b[i + 12] >> 4)
        let channels = Int((b[i + 12] >> 1) & 7) + 1
        let bits = Int((b[i + 12] & 1) << 4 | b[i + 13] >> 4) + 1
        var total = UInt64(b[i + 13] & 0x0F)
        for k in 14..<18 { total = total << 8 | UInt64(b[i + k]) }
        return (rate, channels, bits, total, maxBlock)
    }

    /// What the end of the audio holds.
    enum Tail: Equatable {
        /// The last frame is whole: the stream holds this many samples.
        case complete(UInt64)
        /// The last frame is cut (its CRC-16 fails): the complete frames before it hold this many samples.
        case cut(UInt64)
        /// No frame header was found at the end.
        case unknown
    }

    /// Finds the last frame header before `end` and checks the frame it starts runs to `end`, whole.
    /// Reads the last 64 KiB first and the last `tailWindow` bytes only when that holds no frame header.
    /// A header whose frame fails the CRC-16 may be a false sync inside the real last frame, so a few
    /// earlier headers are tried too before the stream is called cut.
    static func lastFrameEnd(_ source: ByteSource, from floor: Int, to end: Int, fixedBlockSize: Int) -> Tail {
        for window in [64 * 1024, tailWindow] {
            let start = max(floor, end - window)
            let bytes = source.bytes(at: start, count: end - start)[...]
            guard bytes.count == end - start, bytes.count >= 8 else { return .unknown }
            let stored = UInt16(bytes[bytes.count - 2]) << 8 | UInt16(bytes[bytes.count - 1])
            var index = bytes.count - 8
            var cut: UInt64?
            var tried = 0
            while index >= 0, tried < 4 {
                if bytes[index] == 0xFF, bytes[index + 1] & 0xFE == 0xF8,
                    let header = FLACFrameHeader(bytes, at: index),
                    let first = header.firstSample(fixedBlockSize: fixedBlockSize)
                {
                    tried += 1
                    let frame = bytes[index..<bytes.count - 2]
                    if frame.count > header.headerLength, Checksums.crc16(frame) == stored {
                        return .complete(first + UInt64(header.blockSize))
                    }
                    cut = cut ?? first
                }
                index -= 1
            }
            if let cut { return .cut(cut) }
            if start == floor { break }
        }
        return .unknown
    }
}
