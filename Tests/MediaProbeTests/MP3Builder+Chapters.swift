/// ID3v2 chapter frames (ID3v2 Chapter Frame Addendum) for tests built byte by byte.
extension MP3Builder {
    /// A `CHAP` payload: `id`, start and end in milliseconds, byte offsets unset (all ones), then `frames` with
    /// headers of ID3v2 version `major` (3 or 4); `claimedSize` overrides the first frame's size field.
    static func chap(
        _ id: String, start: UInt32, end: UInt32 = 0, frames: [(String, [UInt8])] = [], major: UInt8 = 3,
        claimedSize: UInt32? = nil
    ) -> [UInt8] {
        // Appended piece by piece: Swift 6.0.3's type checker gives up on one long sum of arrays.
        var out: [UInt8] = Array(id.utf8)
        out.append(0)
        for field in [start, end, UInt32.max, UInt32.max] { out += be32(field) }
        for (index, (frameID, payload)) in frames.enumerated() {
            let size = index == 0 ? claimedSize ?? UInt32(payload.count) : UInt32(payload.count)
            let sizeField: [UInt8] = major == 4 ? syncsafe(Int(size)) : be32(size)
            out += Array(frameID.utf8)
            out += sizeField
            out += [0, 0]
            out += payload
        }
        return out
    }

    /// A `CTOC` payload: `id`, `flags` (1 top level, 2 ordered), the entry count (`count`, else the entries'),
    /// then the entries' element ids.
    static func ctoc(_ id: String, flags: UInt8 = 3, count: Int? = nil, entries: [String]) -> [UInt8] {
        var out: [UInt8] = Array(id.utf8)
        out += [0, flags, UInt8(count ?? entries.count)]
        for entry in entries { out += Array(entry.utf8) + [0] }
        return out
    }
}
