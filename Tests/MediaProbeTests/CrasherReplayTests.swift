import Foundation
import MediaProbe
import ShuffleCore
import Testing

/// Replays every input `make fuzz` ever crashed on (Fixtures/crashers) and a few hostile shapes.
@Suite struct CrasherReplayTests {
    /// Every file in Fixtures/crashers.
    static let crashers: [URL] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/crashers")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    @Test(arguments: crashers)
    func fuzzerCrasherNoLongerCrashes(_ file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        // The fuzzer calls the probe with the name "fuzz.mp3": that path must not crash.
        _ = MediaProbe.probe(bytes: bytes, fileName: "fuzz.mp3")
        // Same bytes and name, same answer, whether read from memory or with pread.
        let fromMemory = MediaProbe.probe(bytes: bytes, fileName: file.lastPathComponent)
        #expect(MediaProbe.probe(path: PathBytes(file.path)) == fromMemory)
    }

    @Test func hostileHeadersDoNotCrash() {
        let hostile: [[UInt8]] = [
            [0x49, 0x44, 0x33],
            [0x49, 0x44, 0x33, 4, 0, 0xFF, 0, 0, 0, 0],
            [0x49, 0x44, 0x33, 3, 0, 0x40, 0, 0, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x49, 0x44, 0x33, 4, 0, 0x40, 0, 0, 0, 4, 0, 0, 0, 1],
            [0x49, 0x44, 0x33, 2, 0, 0, 0, 0, 0, 7, 0x54, 0x54, 0x32, 0xFF, 0xFF, 0xFF, 0],
            [0xFF, 0xFB, 0x90, 0x44],
            [0xFF, 0xFB, 0x90, 0x44] + [UInt8](repeating: 0, count: 32) + Array("Xing".utf8) + [
                0xFF, 0xFF, 0xFF, 0xFF,
            ],
            Array("APETAGEX".utf8) + [UInt8](repeating: 0xFF, count: 24),
            Array("TAG".utf8) + [UInt8](repeating: 0xFF, count: 125),
        ]
        for bytes in hostile {
            let outcome = MediaProbe.probe(bytes: bytes, fileName: "h.mp3")
            if case .audio = outcome { Issue.record("hostile bytes probed as audio: \(bytes.prefix(16))") }
        }
    }
}
