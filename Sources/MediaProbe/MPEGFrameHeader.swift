/// One decoded 4-byte MPEG audio frame header (MPEG-1, 2 and 2.5; Layers I, II and III).
struct MPEGFrameHeader: Equatable {
    /// MPEG version: 1 = MPEG-1, 2 = MPEG-2, 25 = MPEG-2.5.
    let version: Int
    /// Layer 1, 2 or 3.
    let layer: Int
    /// Whether a 16-bit CRC follows the header.
    let hasCRC: Bool
    /// Bit rate in kbit/s.
    let bitrateKbps: Int
    /// Samples per second per channel.
    let sampleRate: Int
    /// Whether the frame carries one padding slot.
    let padded: Bool
    /// Channel mode bits: 0 stereo, 1 joint stereo, 2 dual channel, 3 mono.
    let channelMode: Int

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

    /// Whole frame length in bytes, header included.
    var frameLength: Int {
        let bitrate = bitrateKbps * 1000
        switch layer {
        case 1: return (12 * bitrate / sampleRate + (padded ? 1 : 0)) * 4
        case 2: return 144 * bitrate / sampleRate + (padded ? 1 : 0)
        default: return (version == 1 ? 144 : 72) * bitrate / sampleRate + (padded ? 1 : 0)
        }
    }

    /// Bytes of Layer III side information after the header (and CRC): where a Xing/Info tag starts.
    var sideInfoLength: Int {
        if version == 1 { return channels == 1 ? 17 : 32 }
        return channels == 1 ? 9 : 17
    }

    /// Whether `other` can follow this header in one stream (same version, layer and sample rate),
    /// the consistency libmpg123 insists on.
    func isCompatible(with other: MPEGFrameHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate
    }

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
    private static let sampleRates: [Int: [Int]] = [
        1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 25: [11025, 12000, 8000],
    ]

    /// Decodes the four bytes `b0...b3`; nil unless they are a valid header (sync, known version,
    /// layer, bit rate and sample rate; free-format bit rate is refused, as its length is unknown).
    init?(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let versionBits = (b1 >> 3) & 3
        let layerBits = (b1 >> 1) & 3
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 3)
        guard versionBits != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else {
            return nil
        }
        version = versionBits == 3 ? 1 : (versionBits == 2 ? 2 : 25)
        layer = 4 - Int(layerBits)
        hasCRC = b1 & 1 == 0
        let table = version == 1 ? Self.bitratesV1 : Self.bitratesV2
        bitrateKbps = table[layer - 1][bitrateIndex]
        sampleRate = Self.sampleRates[version]?[rateIndex] ?? 44100
        padded = (b2 >> 1) & 1 == 1
        channelMode = Int(b3 >> 6)
    }

    /// Decodes the header at `offset` of `bytes`, or nil when out of range or invalid.
    init?(in bytes: [UInt8], at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        self.init(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
    }
}
