import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Sparse files whose container boxes, blocks, chunks and pages claim gigabytes: every reader reads what it
/// chooses to (a bounded head, tail and a few small boxes), never what the file claims.
@Suite struct ContainerHostileTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory(prefix: "shufflebox-hostile-containers") }

    /// A file of `size` bytes holding `head` at 0 and `tail` at its end, a hole between.
    func sparse(_ name: String, head: [UInt8], tail: [UInt8] = [], size: Int = 1 << 30) throws -> PathBytes {
        let path = folder.path + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        _ = head.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        _ = tail.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(size - tail.count)) }
        _ = ftruncate(fd, off_t(size))
        return PathBytes(path)
    }

    static func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func le32(_ v: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: v >> $0) } }
    /// Latin-1 bytes (MP4 box types such as `©nam` are one byte a character).
    static func ascii(_ text: String) -> [UInt8] { text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }
    /// The parts one after the other (Swift 6.0's type checker gives up on long `+` chains of literals).
    static func join(_ parts: [UInt8]...) -> [UInt8] { parts.flatMap { $0 } }
    static func box(_ type: String, size: Int, _ payload: [UInt8] = []) -> [UInt8] {
        join(be32(size), ascii(type), payload)
    }

    /// FLAC STREAMINFO of 44.1 kHz stereo 16-bit.
    static let streamInfo: [UInt8] = join(
        [0x10, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0x0A, 0xC4, 0x42, 0xF0, 0, 0, 0x10, 0],
        [UInt8](repeating: 0, count: 16))
    static let ftyp: [UInt8] = box("ftyp", size: 16, join(ascii("M4A "), [0, 0, 0, 0]))
    static let opusHead: [UInt8] = join(ascii("OpusHead"), [1, 2, 0x38, 1, 0x80, 0xBB, 0, 0, 0, 0, 0])
    static let wavFormat: [UInt8] = [1, 0, 2, 0, 0x44, 0xAC, 0, 0, 0x10, 0xB1, 2, 0, 4, 0, 16, 0]
    static let aiffCOMM: [UInt8] = [0, 2, 0x7F, 0xFF, 0xFF, 0xFF, 0, 16, 0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]

    static let cases: [(String, [UInt8], [UInt8])] = [
        // A VORBIS_COMMENT block claiming 16 MiB, its vendor string 2 GiB.
        (
            "comment.flac",
            join(ascii("fLaC"), [0, 0, 0, 34], streamInfo, [0x84, 0xFF, 0xFF, 0xFF], le32(0x7FFF_FFFF)), []
        ),
        // Metadata, then a gigabyte hole where the frames should be.
        ("hole.flac", join(ascii("fLaC"), [0x80, 0, 0, 34], streamInfo), []),
        // moov claiming 8 GiB (64-bit size) in a 1 GiB file.
        ("moov.m4a", join(ftyp, be32(1), ascii("moov"), [0, 0, 0, 2, 0, 0, 0, 0]), []),
        // moov, udta, meta, ilst and ©nam's data each claiming most of the gigabyte; mdat at the end.
        (
            "boxes.m4a",
            join(
                ftyp, box("moov", size: 900_000_000), box("udta", size: 899_000_000),
                box("meta", size: 898_000_000, [0, 0, 0, 0]), box("ilst", size: 897_000_000),
                box("\u{A9}nam", size: 896_000_000), box("data", size: 895_000_000, [0, 0, 0, 1, 0, 0, 0, 0])),
            box("mdat", size: 16, [UInt8](repeating: 0, count: 8))
        ),
        // An Opus stream whose comment packet runs on for 255 segments of 255 bytes into the hole.
        (
            "comment.opus",
            join(
                ogg(flags: 2, segments: [19], opusHead),
                ogg(flags: 0, segments: [UInt8](repeating: 255, count: 255), ascii("OpusTags"))), []
        ),
        // A data chunk claiming 2 GiB at the end, a LIST chunk claiming most of the file.
        (
            "data.wav",
            join(
                ascii("RIFF"), le32(0x7FFF_FFFF), ascii("WAVEfmt "), le32(16), wavFormat, ascii("LIST"),
                le32(1_000_000_000), ascii("INFOINAM"), le32(60_000)),
            join(ascii("data"), le32(0x7FFF_FFF0))
        ),
        // SSND claiming 2 GiB of frames the file does not hold.
        (
            "ssnd.aiff",
            join(
                ascii("FORM"), be32(0x7FFF_FFFF), ascii("AIFFCOMM"), be32(18), aiffCOMM, ascii("SSND"),
                be32(0x7FFF_FFFF)), []
        ),
    ]

    /// One Ogg page with a wrong CRC (the head reader does not check it; the tail reader does).
    static func ogg(flags: UInt8, segments: [UInt8], _ body: [UInt8]) -> [UInt8] {
        join(
            ascii("OggS"), [0, flags], [UInt8](repeating: 0, count: 8), [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
            [UInt8(segments.count)], segments, body)
    }

    /// The names of `cases` (a closure inside `@Test(arguments:)` crashes Swift 6.0.3's type checker).
    static let names: [String] = cases.map { $0.0 }

    @Test(arguments: names)
    func aHugeClaimedLengthInAContainerIsNeverRead(_ name: String) throws {
        let (_, head, tail) = try #require(Self.cases.first { $0.0 == name })
        let path = try sparse(name, head: head, tail: tail)
        let (outcome, reads, _) = MediaProbe.measuredProbe(path: path)
        #expect(reads.largest <= ByteSource.maxRead, "\(name): one read of \(reads.largest) bytes")
        #expect(reads.total <= 4 * ByteSource.maxRead, "\(name): \(reads.total) bytes read in all")
        guard case .unplayable(let reason) = outcome else {
            Issue.record("\(name): \(outcome)")
            return
        }
        #expect(!reason.isEmpty)
    }

    /// ADTS frames that are only headers (frame length 7) carry no raw data: FFmpeg, the player's AAC decoder,
    /// finds nothing to decode in them, and the probe calls the file unplayable instead of counting 1,024
    /// samples a frame (found by the mp3diff fuzz target in a 7-byte file named `.mp3`).
    @Test func adtsFramesWithoutRawDataAreNotAudio() throws {
        // AAC LC, 44.1 kHz, stereo, no CRC, frame length 7: the header and nothing after it.
        let frame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x00, 0xFF, 0xFC]
        let bytes = Array([[UInt8]](repeating: frame, count: 4).joined())
        let outcome = MediaProbe.probe(bytes: bytes, fileName: "empty.aac")
        guard case .unplayable = outcome else {
            Issue.record("header-only ADTS frames probed as \(outcome)")
            return
        }
        let ffmpeg = try #require(ExternalTool.find("ffmpeg"), "ffmpeg is not installed")
        let file = folder.path + "/empty.aac"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let decoded = try Run.program(ffmpeg, ["-v", "error", "-i", file, "-f", "s16le", "-"])
        #expect(decoded.stdoutData.isEmpty, "FFmpeg decoded \(decoded.stdoutData.count) bytes")
    }
}
