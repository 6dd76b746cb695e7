import Foundation

/// Sparse files that claim huge tags: what a hostile (or damaged) stick can hold. Each is a few KB on
/// disk, however large it says it is, so a reader that believes a length and allocates it shows up as
/// gigabytes of memory, not of disk.
public enum HostileFiles {
    /// One kind of hostile file.
    public struct Case: Sendable, CustomStringConvertible {
        /// The file name to write (ends in `.mp3`).
        public let name: String
        /// Whether a probe must still find playable audio in it (else it must be `unplayable`).
        public let isPlayable: Bool
        /// The pieces of the file (offset, bytes); everything between them is a hole.
        let pieces: [(Int, [UInt8])]
        /// The file's size (bytes after the last piece are a hole).
        let size: Int

        public var description: String { name }

        /// Writes the file into `folder`; returns its URL.
        @discardableResult
        public func write(in folder: URL) throws -> URL {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw TestSupportError("cannot create \(url.path)")
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            for (offset, bytes) in pieces {
                try handle.seek(toOffset: UInt64(offset))
                try handle.write(contentsOf: Data(bytes))
            }
            try handle.truncate(atOffset: UInt64(size))
            return url
        }
    }

    /// Silent MPEG-1 Layer III frames (44.1 kHz, 128 kbit/s, 417 bytes each) that libmpg123 decodes.
    public static func silentFrames(_ count: Int) -> [UInt8] {
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x44] + [UInt8](repeating: 0, count: 413)
        return Array((0..<count).map { _ in frame }.joined())
    }

    /// Frames in each playable case.
    public static let framesPerFile = 40

    /// A gibibyte: the size each hostile tag claims (the APE size field holds up to 4 GiB).
    public static let claimed = 1 << 30

    /// Every case.
    public static let all: [Case] = [
        apeTagClaimingAGibibyte, apeTagClaimingAGibibyteWithHeader, id3TagClaimingMaximumSize,
        unsynchronisedID3TagOf256MiB, id3TextFrameClaiming200MiB, id3ExtendedHeaderClaiming4GiB,
        id3TagCutShortOfItsClaim,
    ]

    /// Audio, then a gibibyte of hole, then an APEv2 footer whose tag spans the hole and claims 2^32-1 items.
    public static var apeTagClaimingAGibibyte: Case {
        let audio = silentFrames(framesPerFile)
        let size = audio.count + claimed
        let footer = apeBlock(size: claimed, items: 0xFFFF_FFFF, isHeader: false, hasHeader: false)
        return Case(name: "ape-1gib.mp3", isPlayable: true, pieces: [(0, audio), (size - 32, footer)], size: size)
    }

    /// The same with an APE header block in front (a footer flag says so) and one real item at the start.
    public static var apeTagClaimingAGibibyteWithHeader: Case {
        let audio = silentFrames(framesPerFile)
        let size = audio.count + 32 + claimed
        let header = apeBlock(size: claimed, items: 3, isHeader: true, hasHeader: true)
        let title = Array("Hostile APE".utf8)
        // One text item, then a binary "cover" claiming nearly the whole tag: skipped, never read.
        let pieces: [[UInt8]] = [
            le32(UInt32(title.count)), le32(0), Array("Title".utf8), [0], title,
            le32(UInt32(claimed - 200)), le32(2), Array("Cover Art (Front)".utf8), [0],
        ]
        let items = Array(pieces.joined())
        let footer = apeBlock(size: claimed, items: 3, isHeader: false, hasHeader: true)
        return Case(
            name: "ape-1gib-header.mp3", isPlayable: true,
            pieces: [(0, audio), (audio.count, header + items), (size - 32, footer)], size: size)
    }

    /// An ID3v2.3 tag of the largest size the header can say (256 MiB), mostly hole, audio after it.
    public static var id3TagClaimingMaximumSize: Case {
        let body = 0x0FFF_FFFF
        let title = [0] + Array("Big Tag".utf8)
        let frames = Array("TIT2".utf8) + be32(UInt32(title.count)) + [0, 0] + title
        let head = id3Header(major: 3, flags: 0, bodySize: body) + frames
        return Case(
            name: "id3-256mib.mp3", isPlayable: true,
            pieces: [(0, head), (10 + body, silentFrames(framesPerFile))], size: 10 + body + 417 * framesPerFile)
    }

    /// An ID3v2.3 tag with tag-level unsynchronisation (read into memory to be undone) of 256 MiB.
    public static var unsynchronisedID3TagOf256MiB: Case {
        let body = 0x0FFF_FFFF
        return Case(
            name: "id3-unsync-256mib.mp3", isPlayable: true,
            pieces: [(0, id3Header(major: 3, flags: 0x80, bodySize: body)), (10 + body, silentFrames(framesPerFile))],
            size: 10 + body + 417 * framesPerFile)
    }

    /// An ID3v2.3 text frame claiming 200 MiB inside a 256 MiB tag.
    public static var id3TextFrameClaiming200MiB: Case {
        let body = 0x0FFF_FFFF
        let frame = Array("TIT2".utf8) + be32(200 << 20) + [0, 0, 3] + Array("Huge".utf8)
        return Case(
            name: "id3-frame-200mib.mp3", isPlayable: true,
            pieces: [
                (0, id3Header(major: 3, flags: 0, bodySize: body) + frame), (10 + body, silentFrames(framesPerFile)),
            ],
            size: 10 + body + 417 * framesPerFile)
    }

    /// An ID3v2.3 extended header whose size field says 4 GiB.
    public static var id3ExtendedHeaderClaiming4GiB: Case {
        let body = 1 << 20
        let extended: [UInt8] = [0xFF, 0xFF, 0xFF, 0xF0, 0, 0]
        return Case(
            name: "id3-exthdr-4gib.mp3", isPlayable: true,
            pieces: [
                (0, id3Header(major: 3, flags: 0x40, bodySize: body) + extended),
                (10 + body, silentFrames(framesPerFile)),
            ], size: 10 + body + 417 * framesPerFile)
    }

    /// An ID3v2.4 tag claiming 256 MiB in a file of a few KB: cut short, so unplayable.
    public static var id3TagCutShortOfItsClaim: Case {
        Case(
            name: "id3-cut-short.mp3", isPlayable: false,
            pieces: [(0, id3Header(major: 4, flags: 0, bodySize: 0x0FFF_FFFF) + silentFrames(4))],
            size: 10 + 417 * 4)
    }

    /// A stream that claims 8 GiB: real frames at the start, then a hole to the end (what a frame walk
    /// would read in full to count the frames).
    public static var eightGiBStream: Case {
        Case(name: "sparse-8gib.mp3", isPlayable: true, pieces: [(0, silentFrames(framesPerFile))], size: 8 << 30)
    }

    /// A real-sized 200 MiB ID3v2.3 tag (its padding a hole) in front of the audio.
    public static var id3TagOf200MiBBeforeTheAudio: Case {
        let body = 200 << 20
        let title = [0] + Array("Behind A Big Tag".utf8)
        let head =
            id3Header(major: 3, flags: 0, bodySize: body) + Array("TIT2".utf8) + be32(UInt32(title.count))
            + [0, 0] + title
        return Case(
            name: "id3-200mib-tag.mp3", isPlayable: true,
            pieces: [(0, head), (10 + body, silentFrames(framesPerFile))], size: 10 + body + 417 * framesPerFile)
    }

    // MARK: - Bytes

    /// A 10-byte ID3v2 header.
    static func id3Header(major: UInt8, flags: UInt8, bodySize: Int) -> [UInt8] {
        let size: [UInt8] = (0..<4).map { UInt8((bodySize >> (21 - 7 * $0)) & 0x7F) }
        return [0x49, 0x44, 0x33, major, 0, flags] + size
    }

    /// An APEv2 header or footer block.
    static func apeBlock(size: Int, items: UInt32, isHeader: Bool, hasHeader: Bool) -> [UInt8] {
        let flags: UInt32 = (hasHeader ? 0x8000_0000 : 0) | (isHeader ? 0x2000_0000 : 0)
        return Array("APETAGEX".utf8) + le32(2000) + le32(UInt32(size)) + le32(items) + le32(flags)
            + [UInt8](repeating: 0, count: 8)
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
}
