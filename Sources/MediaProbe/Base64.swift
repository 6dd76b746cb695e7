/// Standard base64 (RFC 4648, `+/`, `=` padding), as Vorbis comments carry pictures
/// (`METADATA_BLOCK_PICTURE`). Whitespace is not allowed; anything else that is not of the alphabet, or
/// padding in the wrong place, makes the whole value invalid. (Foundation's decoder is not linked into the
/// shipped binary.)
enum Base64 {
    /// The 6-bit value of each byte, 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// The bytes `text` encodes, nil when it is not base64.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var body = text
        var padding = 0
        while padding < 2, body.last == UInt8(ascii: "=") {
            body = body.dropLast()
            padding += 1
        }
        // Padding, where present, completes the last group; some taggers leave it out.
        guard body.count % 4 != 1, padding == 0 || (body.count + padding) % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(body.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in body {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}
