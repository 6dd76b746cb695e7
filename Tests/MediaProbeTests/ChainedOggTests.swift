import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Chained Ogg files (links one after another, each a stream of its own: radio recordings, files joined with
/// `cat`): libvorbisfile and libopusfile play every link, so the probe's length is theirs added up.
@Suite(
    .enabled(
        if: ExternalTool.find("oggenc") != nil && ExternalTool.find("opusenc") != nil,
        "needs vorbis-tools and opus-tools (scripts/install-deps test installs them)"))
struct ChainedOggTests {
    /// The probe's frames of `links` encoded as `format` and joined, beside the reference decoder's.
    func probeAndReference(_ format: AudioFixtures.Format, seconds: [Double]) throws -> (StreamInfo?, Int) {
        let folder = try TemporaryDirectory()
        var chain = Data()
        for (index, length) in seconds.enumerated() {
            let link = try AudioFixtures.make(.init(format, seconds: length), in: folder.url, name: "link\(index)")
            // The encoders pick a serial from the clock: two links made within the same second would share one.
            chain += Self.withSerial(UInt32(0x5B00 + index), [UInt8](try Data(contentsOf: link)))
        }
        let file = folder.appending("chain.\(format.fileExtension)")
        try chain.write(to: file)
        let reference = try AudioFixtures.reference(file, .init(format, seconds: seconds.reduce(0, +)))
        guard case .audio(_, let stream) = MediaProbe.probe(path: PathBytes(file.path)) else { return (nil, reference.frames) }
        return (stream, reference.frames)
    }

    /// `stream` with every page's serial number set to `serial` and its CRC made anew.
    static func withSerial(_ serial: UInt32, _ stream: [UInt8]) -> Data {
        var bytes = stream
        var offset = 0
        while offset + 27 <= bytes.count, bytes[offset..<offset + 4].elementsEqual(Array("OggS".utf8)) {
            let segments = Int(bytes[offset + 26])
            let length = 27 + segments + bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            for k in 0..<4 {
                bytes[offset + 14 + k] = UInt8(truncatingIfNeeded: serial >> (8 * UInt32(k)))
                bytes[offset + 22 + k] = 0
            }
            let crc = Checksums.crc32Ogg(bytes[offset..<offset + length])
            for k in 0..<4 { bytes[offset + 22 + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k))) }
            offset += length
        }
        return Data(bytes)
    }

    @Test(arguments: [AudioFixtures.Format.vorbis, .opus])
    func aChainIsAsLongAsItsLinksTogether(_ format: AudioFixtures.Format) throws {
        let (stream, reference) = try probeAndReference(format, seconds: [1.0, 0.7])
        #expect(stream?.frames == Int64(reference), "\(format): probe \(String(describing: stream)), decoder \(reference)")
        #expect(stream?.isEstimate == false)
    }

    /// The first link's last page lies before the 128 KiB the probe reads from the end for a single stream.
    @Test(arguments: [AudioFixtures.Format.vorbis, .opus])
    func aChainWhoseFirstLinkEndsFarFromTheEndIsStillPlayable(_ format: AudioFixtures.Format) throws {
        let (stream, reference) = try probeAndReference(format, seconds: [0.5, 14.0])
        #expect(stream?.frames == Int64(reference), "\(format): probe \(String(describing: stream)), decoder \(reference)")
    }
}
