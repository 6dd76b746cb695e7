/// The header of one FLAC audio frame: where in the stream it starts and how many samples it holds.
///
/// Only what the tail check needs is read; the header's CRC-8 must match, so a stray sync pattern
/// inside compressed audio is not taken for a frame.
struct FLACFrameHeader {
    /// Whether the stream numbers its frames by sample (variable block size) rather than by frame.
    let variableBlockSize: Bool
    /// The frame number (fixed block size) or first sample number (variable).
    let number: UInt64
    /// Samples per channel in this frame.
    let blockSize: Int

    /// The header at `offset` of `bytes`, if one is there and its CRC-8 matches.
    init?(_ bytes: ArraySlice<UInt8>, at offset: Int) {
        let base = bytes.startIndex + offset
        guard offset >= 0, base + 6 <= bytes.endIndex, bytes[base] == 0xFF, bytes[base + 1] & 0xFE == 0xF8 else {
            return nil
        }
        variableBlockSize = bytes[base + 1] & 1 == 1
        let sizeCode = Int(bytes[base + 2] >> 4)
        let rateCode = Int(bytes[base + 2] & 0x0F)
        let channelCode = Int(bytes[base + 3] >> 4)
        let depthCode = Int((bytes[base + 3] >> 1) & 7)
        guard sizeCode != 0, rateCode != 15, channelCode <= 10, depthCode != 3, bytes[base + 3] & 1 == 0 else {
            return nil
        }
        // The frame or sample number, coded like UTF-8 (up to 7 bytes, 36 bits).
        var position = base + 4
        let lead = bytes[position]
        var extra = 0
        var value: UInt64
        switch lead {
        case 0x00...0x7F: value = UInt64(lead)
        case 0xC0...0xDF: (extra, value) = (1, UInt64(lead & 0x1F))
        case 0xE0...0xEF: (extra, value) = (2, UInt64(lead & 0x0F))
        case 0xF0...0xF7: (extra, value) = (3, UInt64(lead & 0x07))
        case 0xF8...0xFB: (extra, value) = (4, UInt64(lead & 0x03))
        case 0xFC...0xFD: (extra, value) = (5, UInt64(lead & 0x01))
        case 0xFE: (extra, value) = (6, 0)
        default: return nil
        }
        position += 1
        guard position + extra <= bytes.endIndex else { return nil }
        for _ in 0..<extra {
            let next = bytes[position]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt64(next & 0x3F)
            position += 1
        }
        number = value
        var size: Int
        switch sizeCode {
        case 1: size = 192
        case 2...5: size = 576 << (sizeCode - 2)
        case 6, 7:
            let width = sizeCode == 6 ? 1 : 2
            guard let raw = bytes.bigEndian(at: position - bytes.startIndex, width: width) else { return nil }
            size = Int(raw) + 1
            position += width
        default: size = 256 << (sizeCode - 8)
        }
        switch rateCode {
        case 12: position += 1
        case 13, 14: position += 2
        default: break
        }
        guard position < bytes.endIndex, Checksums.crc8(bytes[base..<position]) == bytes[position] else { return nil }
        blockSize = size
        headerLength = position + 1 - base
    }

    /// Bytes of the header, CRC-8 included.
    let headerLength: Int

    /// The first sample of this frame, given the stream's fixed block size (STREAMINFO's maximum).
    func firstSample(fixedBlockSize: Int) -> UInt64? {
        if variableBlockSize { return number }
        let (product, overflow) = number.multipliedReportingOverflow(by: UInt64(max(0, fixedBlockSize)))
        return overflow ? nil : product
    }
}
