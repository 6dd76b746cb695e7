/// ID3v2 chapter frames (ID3v2 Chapter Frame Addendum) for tests built byte by byte.
extension MP3Builder {
    /// A `CHAP` payload: `id`, start and end in milliseconds, byte offsets unset (all ones), then `frames` with
    /// headers of ID3v2 version `major` (3 or 4); `claimedSize` overrides the first frame's size field.
    static func chap(
        _ id: String, start: UInt32, end: UInt32 = 0, frames: [(String, [UInt8])] = [], major: UInt8 = 3,
        claimedSize: UInt32? = nil
    ) -> [UInt8] {
        var out = Array(id.utf8) + [0] + be32(start) + be32(end) + be32(.max) + be32(.max)
        for (index, (frameID, payload)) in frames.enumerated() {
            let size = index == 0 ? claimedSize ?? UInt32(payload.count) : UInt32(payload.count)
            out += Array(frameID.utf8) + (major == 4 ? syncsafe(Int(size)) : be32(size)) + [0, 0] + payload
        }
        return out
    }

    /// A `CTOC` payload: `id`, `flags` (1 top level, 2 ordered), the entry count (`count`, else the entries'),
    /// then the entries' element ids.
    static func ctoc(_ id: String, flags: UInt8 = 3, count: Int? = nil, entries: [String]) -> [UInt8] {
        Array(id.utf8) + [0, flags, UInt8(count ?? entries.count)] + entries.flatMap { Array($0.utf8) + [0] }
    }
}
