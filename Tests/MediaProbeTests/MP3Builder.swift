/// Builds MP3 files byte by byte for tests: silent MPEG frames, Xing/LAME and VBRI headers,
/// ID3v2/APE/ID3v1 tags. libmpg123 decodes these frames (all-zero main data is silence).
enum MP3Builder {
    // MARK: - Frames

    /// One silent MPEG-1 Layer III frame (44.1 kHz, 128 kbit/s: 417 bytes; 32 kHz: 576 bytes).
    static func frame(rate: Int = 44100, mono: Bool = false) -> [UInt8] {
        let rateBits: UInt8 = rate == 48000 ? 1 : (rate == 32000 ? 2 : 0)
        let header: [UInt8] = [0xFF, 0xFB, 0x90 | rateBits << 2, mono ? 0xC4 : 0x44]
        return header + [UInt8](repeating: 0, count: 144 * 128_000 / rate - 4)
    }

    /// One silent MPEG-2 Layer III frame (22.05 kHz, 64 kbit/s, 576 samples, 208 bytes).
    static func mpeg2Frame(mono: Bool = false) -> [UInt8] {
        let header: [UInt8] = [0xFF, 0xF3, 0x80, mono ? 0xC4 : 0x44]
        return header + [UInt8](repeating: 0, count: 72 * 64_000 / 22050 - 4)
    }

    /// `count` silent frames back to back.
    static func frames(_ count: Int, rate: Int = 44100, mono: Bool = false) -> [UInt8] {
        Array((0..<count).map { _ in frame(rate: rate, mono: mono) }.joined())
    }

    /// A 44.1 kHz stereo Info frame declaring `frames` frames and `bytes` bytes, with a LAME
    /// extension carrying `delay` and `padding` when given.
    static func infoFrame(frames: Int, bytes: Int, delay: Int? = nil, padding: Int = 0, tag: String = "Info") -> [UInt8]
    {
        var out = frame()
        let xing = 4 + 32
        out.replaceSubrange(xing..<xing + 4, with: Array(tag.utf8))
        out.replaceSubrange(xing + 4..<xing + 8, with: be32(0x0F))
        out.replaceSubrange(xing + 8..<xing + 12, with: be32(UInt32(frames)))
        out.replaceSubrange(xing + 12..<xing + 16, with: be32(UInt32(bytes)))
        if let delay {
            let lame = xing + 120
            out.replaceSubrange(lame..<lame + 9, with: Array("LAME3.100".utf8))
            out[lame + 21] = UInt8(delay >> 4)
            out[lame + 22] = UInt8((delay & 0x0F) << 4 | padding >> 8)
            out[lame + 23] = UInt8(padding & 0xFF)
        }
        return out
    }

    /// A 44.1 kHz stereo frame holding a Fraunhofer VBRI header.
    static func vbriFrame(frames: Int, bytes: Int, delay: Int) -> [UInt8] {
        var out = frame()
        let at = 4 + 32
        out.replaceSubrange(at..<at + 4, with: Array("VBRI".utf8))
        out.replaceSubrange(at + 4..<at + 6, with: [0, 1])
        out.replaceSubrange(at + 6..<at + 8, with: [UInt8(delay >> 8), UInt8(delay & 0xFF)])
        out.replaceSubrange(at + 10..<at + 14, with: be32(UInt32(bytes)))
        out.replaceSubrange(at + 14..<at + 18, with: be32(UInt32(frames)))
        return out
    }

    // MARK: - ID3v2

    /// A text frame payload: encoding byte then `text` encoded (0 Latin-1, 1 UTF-16 LE with BOM,
    /// 2 UTF-16BE, 3 UTF-8); `bigEndianBOM` writes a big-endian BOM for encoding 1.
    static func text(_ text: String, encoding: UInt8 = 3, bigEndianBOM: Bool = false) -> [UInt8] {
        [encoding] + encode(text, encoding: encoding, bigEndianBOM: bigEndianBOM)
    }

    /// `text` in an ID3 encoding, without terminator.
    static func encode(_ text: String, encoding: UInt8, bigEndianBOM: Bool = false) -> [UInt8] {
        switch encoding {
        case 0: return text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        case 1:
            let units = Array(text.utf16)
            if bigEndianBOM { return [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
            return [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case 2: return Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        default: return Array(text.utf8)
        }
    }

    /// A TXXX payload (`description` NUL `value`) in `encoding`.
    static func txxx(_ description: String, _ value: String, encoding: UInt8 = 3) -> [UInt8] {
        let terminator: [UInt8] = encoding == 1 || encoding == 2 ? [0, 0] : [0]
        return [encoding] + encode(description, encoding: encoding) + terminator + encode(value, encoding: encoding)
    }

    /// An ID3v2 tag of version `major` (2, 3 or 4) holding `frames`; `plainSizes` writes v2.4 frame
    /// sizes as plain big-endian numbers (as iTunes did); `padding` zero bytes follow the frames.
    static func id3v2(
        major: UInt8, _ frames: [(String, [UInt8])], flags: UInt8 = 0, padding: Int = 0, plainSizes: Bool = false,
        frameFlags: [UInt8] = [0, 0], extendedHeader: [UInt8] = []
    ) -> [UInt8] {
        var body = extendedHeader
        for (id, payload) in frames {
            body += Array(id.utf8)
            switch major {
            case 2:
                body += [
                    UInt8(payload.count >> 16 & 0xFF), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF),
                ]
            case 3: body += be32(UInt32(payload.count)) + frameFlags
            default: body += (plainSizes ? be32(UInt32(payload.count)) : syncsafe(payload.count)) + frameFlags
            }
            body += payload
        }
        body += [UInt8](repeating: 0, count: padding)
        return [0x49, 0x44, 0x33, major, 0, flags] + syncsafe(body.count) + body
    }

    /// Applies unsynchronisation: a 00 after every FF.
    static func unsynchronise(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            out.append(byte)
            if byte == 0xFF && (index + 1 == bytes.count || bytes[index + 1] == 0 || bytes[index + 1] >= 0xE0) {
                out.append(0)
            }
        }
        return out
    }

    // MARK: - Tail tags

    /// An APEv2 tag (footer, optional header) with UTF-8 text items.
    static func ape(_ items: [(String, String)], header: Bool = false) -> [UInt8] {
        var body: [UInt8] = []
        for (key, value) in items {
            body += le32(UInt32(value.utf8.count)) + le32(0) + Array(key.utf8) + [0] + Array(value.utf8)
        }
        let flags: UInt32 = header ? 0x8000_0000 : 0
        func block(_ isHeader: Bool) -> [UInt8] {
            Array("APETAGEX".utf8) + le32(2000) + le32(UInt32(body.count + 32)) + le32(UInt32(items.count))
                + le32(flags | (isHeader ? 0x2000_0000 : 0)) + [UInt8](repeating: 0, count: 8)
        }
        return (header ? block(true) : []) + body + block(false)
    }

    /// An ID3v1.1 tag.
    static func id3v1(
        title: String, artist: String = "", album: String = "", year: String = "", track: UInt8 = 0, genre: UInt8 = 255
    ) -> [UInt8] {
        func field(_ text: String, _ length: Int) -> [UInt8] {
            let bytes = Array(encode(text, encoding: 0).prefix(length))
            return bytes + [UInt8](repeating: 0, count: length - bytes.count)
        }
        let fields: [[UInt8]] = [field(title, 30), field(artist, 30), field(album, 30), field(year, 4), field("", 28)]
        return Array("TAG".utf8) + fields.joined() + [0, track, genre]
    }

    // MARK: - Numbers

    /// A 28-bit syncsafe integer.
    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }

    /// Big-endian 32 bits.
    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Little-endian 32 bits.
    static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
