/// One box (atom) of an ISO base media / QuickTime file: its type and where its payload lies.
struct MP4Box {
    /// The four-character type (`moov`, `trak`, `©nam`, ...).
    let type: String
    /// First byte of the box.
    let start: Int
    /// First byte of the payload (after the 8- or 16-byte header).
    let payload: Int
    /// One past the last byte, as the box declares it (may lie past the end of the file).
    let end: Int

    /// The most boxes looked at in one container (real files hold a few dozen per level).
    static let maxChildren = 4096

    /// The boxes in `range` of `source`, in order. The walk stops at a box whose header is damaged; a box
    /// running past `range` is still returned (its `end` says how far it claims to run), as the last one.
    static func children(of source: ByteSource, in range: Range<Int>) -> [MP4Box] {
        var boxes: [MP4Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, boxes.count < maxChildren {
            let head = source.bytes(at: offset, count: 16)[...]
            guard head.count >= 8, let size32 = head.u32be(0), let type = head.fourCC(at: 4) else { break }
            var size = size32
            var header = 8
            if size32 == 1 {
                guard let large = head.bigEndian(at: 8, width: 8), large <= UInt64(Int.max / 2) else { break }
                size = Int(large)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - offset
            }
            guard size >= header else { break }
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow else { break }
            boxes.append(MP4Box(type: type, start: offset, payload: offset + header, end: end))
            if end > range.upperBound { break }
            offset = end
        }
        return boxes
    }

    /// The first child of type `type` inside this box's payload, starting `skip` bytes in.
    func child(_ type: String, in source: ByteSource, skip: Int = 0) -> MP4Box? {
        MP4Box.children(of: source, in: (payload + skip)..<min(end, source.count)).first { $0.type == type }
    }

    /// Every child inside this box's payload, starting `skip` bytes in.
    func children(in source: ByteSource, skip: Int = 0) -> [MP4Box] {
        MP4Box.children(of: source, in: (payload + skip)..<min(end, source.count))
    }

    /// The payload's first `limit` bytes (the whole payload when it is shorter).
    func bytes(in source: ByteSource, limit: Int) -> ArraySlice<UInt8> {
        source.bytes(at: payload, count: min(limit, max(0, end - payload)))[...]
    }
}
