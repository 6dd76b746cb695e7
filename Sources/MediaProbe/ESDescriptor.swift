/// Reads the MPEG-4 elementary stream descriptor (`esds`) of an `mp4a` sample entry: which codec the
/// track holds and, for AAC, its AudioSpecificConfig (rate, channels, SBR for HE-AAC).
enum ESDescriptor {
    /// What the descriptor says.
    enum Config: Equatable {
        /// AAC with its core rate, output rate (twice the core with SBR) and channel configuration.
        case aac(AACConfig)
        /// Another codec in `mp4a` (MP3, MPEG-2 audio): named for the reason.
        case unsupported(String)
        /// Damaged or missing: trust the sample entry.
        case unknown
    }

    /// AAC's AudioSpecificConfig, as far as needed.
    struct AACConfig: Equatable {
        var sampleRate: Int
        var outputRate: Int
        var channels: Int
    }

    /// The sampling frequencies of AAC's 4-bit index.
    static let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// Parses an `esds` payload (version and flags first).
    static func audioConfig(_ bytes: ArraySlice<UInt8>) -> Config {
        var offset = 4
        guard let (tag, length, body) = descriptor(bytes, at: offset), tag == 3 else { return .unknown }
        offset = body
        let end = min(bytes.count, body + length)
        guard offset + 3 <= end else { return .unknown }
        let flags = bytes[bytes.startIndex + offset + 2]
        offset += 3
        if flags & 0x80 != 0 { offset += 2 }  // depends-on ES id
        if flags & 0x40 != 0 {  // URL
            guard offset < end else { return .unknown }
            offset += 1 + Int(bytes[bytes.startIndex + offset])
        }
        if flags & 0x20 != 0 { offset += 2 }  // OCR ES id
        guard let (configTag, configLength, configBody) = descriptor(bytes, at: offset), configTag == 4,
            configBody < bytes.count
        else { return .unknown }
        let objectType = bytes[bytes.startIndex + configBody]
        switch objectType {
        case 0x40, 0x66, 0x67, 0x68: break
        case 0x69, 0x6B: return .unsupported("MP3 in MP4")
        case 0xA9, 0xA5, 0xA6: return .unsupported("AC-3 in MP4")
        case 0xAD: return .unsupported("Opus in MP4")
        default: return .unsupported("MP4 audio of object type 0x\(String(objectType, radix: 16))")
        }
        guard let (specificTag, specificLength, specificBody) = descriptor(bytes, at: configBody + 13),
            specificTag == 5, specificBody + specificLength <= min(bytes.count, configBody + configLength)
        else { return .unknown }
        let asc = bytes[(bytes.startIndex + specificBody)..<(bytes.startIndex + specificBody + specificLength)]
        return audioSpecificConfig(asc).map(Config.aac) ?? .unknown
    }

    /// An AudioSpecificConfig (ISO 14496-3 §1.6.2.1): object type, frequency, channels, SBR extension.
    static func audioSpecificConfig(_ bytes: ArraySlice<UInt8>) -> AACConfig? {
        var reader = BitReader(bytes)
        func objectType() -> Int? {
            guard let type = reader.read(5) else { return nil }
            guard type == 31 else { return type }
            return reader.read(6).map { 32 + $0 }
        }
        func frequency() -> Int? {
            guard let index = reader.read(4) else { return nil }
            if index == 15 { return reader.read(24) }
            return index < rates.count ? rates[index] : nil
        }
        guard var type = objectType(), let rate = frequency(), let channels = reader.read(4) else { return nil }
        var output = rate
        if type == 5 || type == 29 {
            guard let extensionRate = frequency() else { return nil }
            output = extensionRate
            type = objectType() ?? type
        }
        return AACConfig(sampleRate: rate, outputRate: output, channels: channels)
    }

    /// The descriptor at `offset`: its tag, length (1 to 4 bytes of 7 bits) and where its body starts.
    private static func descriptor(_ bytes: ArraySlice<UInt8>, at offset: Int) -> (UInt8, Int, Int)? {
        guard offset >= 0, offset < bytes.count else { return nil }
        let tag = bytes[bytes.startIndex + offset]
        var length = 0
        var position = offset + 1
        for _ in 0..<4 {
            guard position < bytes.count else { return nil }
            let byte = bytes[bytes.startIndex + position]
            length = length << 7 | Int(byte & 0x7F)
            position += 1
            if byte & 0x80 == 0 { return (tag, length, position) }
        }
        return (tag, length, position)
    }
}

/// Reads bits most significant first.
struct BitReader {
    private let bytes: ArraySlice<UInt8>
    private var bit = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The next `count` bits (at most 32), or nil past the end.
    mutating func read(_ count: Int) -> Int? {
        guard count <= 32, bit + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            let byte = bytes[bytes.startIndex + bit / 8]
            value = value << 1 | Int((byte >> (7 - UInt8(bit % 8))) & 1)
            bit += 1
        }
        return value
    }
}
