/// One decoded 4-byte MPEG audio frame header (MPEG-1, 2 and 2.5; Layers I, II and III), judged the way
/// libmpg123 1.31 judges it (`head_check` and `decode_header` in `parse.c`), since what it accepts is what
/// the player decodes.
struct MPEGFrameHeader: Equatable {
    /// The two version bits as written: 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5; libmpg123 also takes the
    /// reserved value 1 as MPEG-2.5.
    let versionBits: UInt8
    /// Layer 1, 2 or 3.
    let layer: Int
    /// Whether a 16-bit CRC follows the header.
    let hasCRC: Bool
    /// The bit-rate index: 0 is free format (the length is found from the distance to the next header).
    let bitrateIndex: Int
    /// The sample-rate index (0...2).
    let rateIndex: Int
    /// Whether the frame carries one padding slot.
    let padded: Bool
    /// Channel mode bits: 0 stereo, 1 joint stereo, 2 dual channel, 3 mono.
    let channelMode: Int

    /// MPEG version: 1 = MPEG-1, 2 = MPEG-2, 25 = MPEG-2.5.
    var version: Int { versionBits == 3 ? 1 : (versionBits == 2 ? 2 : 25) }

    /// Whether this is a free-format frame (bit-rate index 0).
    var isFreeFormat: Bool { bitrateIndex == 0 }

    /// Bit rate in kbit/s (0 for free format).
    var bitrateKbps: Int { (version == 1 ? Self.bitratesV1 : Self.bitratesV2)[layer - 1][bitrateIndex] }

    /// Samples per second per channel.
    var sampleRate: Int { Self.sampleRates[version == 1 ? 0 : (version == 2 ? 1 : 2)][rateIndex] }

    /// 1 for mono, else 2.
    var channels: Int { channelMode == 3 ? 1 : 2 }

    /// PCM frames one MPEG frame decodes to.
    var samplesPerFrame: Int {
        switch layer {
        case 1: 384
        case 2: 1152
        default: version == 1 ? 1152 : 576
        }
    }

    /// Whole frame length in bytes, header included, for a fixed bit rate (nil for free format); libmpg123's
    /// integer arithmetic.
    var frameLength: Int? {
        guard !isFreeFormat else { return nil }
        let bitrate = bitrateKbps * 1000
        switch layer {
        case 1: return (12 * bitrate / sampleRate + (padded ? 1 : 0)) * 4
        case 2: return 144 * bitrate / sampleRate + (padded ? 1 : 0)
        default: return (version == 1 ? 144 : 72) * bitrate / sampleRate + (padded ? 1 : 0)
        }
    }

    /// The frame's length when free-format frames of this stream are `freeSize` bytes long without padding
    /// (libmpg123 measures that once per stream), or its fixed length; nil when neither is known or the
    /// length is one libmpg123 refuses (Layer III side information does not fit, or over `maxBodySize`). A
    /// free-format Layer I or II frame may have no body at all: libmpg123 reads none and decodes silence.
    func length(freeSize: Int?) -> Int? {
        let total: Int
        if let fixed = frameLength {
            total = fixed
        } else if let freeSize {
            total = freeSize + (padded ? 1 : 0)
        } else {
            return nil
        }
        let body = total - 4
        if layer == 3 && body < sideInfoLength + (hasCRC ? 2 : 0) { return nil }
        guard body >= 0, body <= Self.maxBodySize else { return nil }
        return total
    }

    /// Bytes of Layer III side information after the header: where a Xing/Info tag starts.
    var sideInfoLength: Int {
        if version == 1 { return channels == 1 ? 17 : 32 }
        return channels == 1 ? 9 : 17
    }

    /// Whether `other` can follow this header in one stream without a "big change": same version, layer and
    /// sample rate, and both mono or both not (libmpg123's `head_compatible`).
    func isCompatible(with other: MPEGFrameHeader) -> Bool {
        versionBits == other.versionBits && layer == other.layer && rateIndex == other.rateIndex
            && (channelMode == 3) == (other.channelMode == 3)
    }

    /// Whether `other` has the same version, layer, bit-rate index, sample rate and channel mode: the header
    /// libmpg123 looks for to measure a free-format frame (`HDR_SAMEMASK`).
    func isSameKind(as other: MPEGFrameHeader) -> Bool {
        isCompatible(with: other) && bitrateIndex == other.bitrateIndex && channelMode == other.channelMode
    }

    /// libmpg123's largest frame body (`MAXFRAMESIZE`).
    static let maxBodySize = 3456

    private static let bitratesV1: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 0],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 0],
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0],
    ]
    private static let bitratesV2: [[Int]] = [
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256, 0],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0],
    ]
    private static let sampleRates: [[Int]] = [[44100, 48000, 32000], [22050, 24000, 16000], [11025, 12000, 8000]]

    /// Decodes the four bytes `b0...b3`; nil unless libmpg123's `head_check` passes (11 sync bits, a layer, a
    /// bit-rate index other than 15, a sample-rate index other than 3). Free format (index 0) is accepted.
    init?(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let layerBits = (b1 >> 1) & 3
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 3)
        guard layerBits != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        versionBits = (b1 >> 3) & 3
        layer = 4 - Int(layerBits)
        hasCRC = b1 & 1 == 0
        self.bitrateIndex = bitrateIndex
        self.rateIndex = rateIndex
        padded = (b2 >> 1) & 1 == 1
        channelMode = Int(b3 >> 6)
    }

    /// Decodes the header at `offset` of `bytes`, or nil when out of range or invalid.
    init?(in bytes: [UInt8], at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        self.init(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
    }
}
