import Testing

@testable import Playback

/// Which decoder a file goes to, told by its first bytes: the table `DecoderSet` dispatches on.
@Suite struct ContentKindTests {
    private static func head(_ parts: [UInt8]...) -> ArraySlice<UInt8> { ArraySlice(parts.joined()) }
    private static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    /// An Ogg page header whose first packet (after one segment-table entry) begins with `packet`.
    private static func ogg(_ packet: [UInt8]) -> ArraySlice<UInt8> {
        var page = text("OggS") + [UInt8](repeating: 0, count: 22) + [1, UInt8(packet.count)]
        page += packet
        return ArraySlice(page)
    }

    @Test func wavAndAIFFGoToLibsndfileAndMP4ToFFmpeg() {
        #expect(ContentKind.classify(Self.head(Self.text("RIFF"), [0x24, 0, 0, 0], Self.text("WAVEfmt "))) == .pcm)
        let rf64 = Self.head(Self.text("RF64"), [0xFF, 0xFF, 0xFF, 0xFF], Self.text("WAVEds64"))
        #expect(ContentKind.classify(rf64) == .pcm)
        #expect(ContentKind.classify(Self.head(Self.text("FORM"), [0, 0, 0, 0x2E], Self.text("AIFFCOMM"))) == .pcm)
        #expect(ContentKind.classify(Self.head(Self.text("FORM"), [0, 0, 0, 0x2E], Self.text("AIFCFVER"))) == .pcm)
        #expect(ContentKind.classify(Self.head([0, 0, 0, 0x20], Self.text("ftypM4A "))) == .container)
        // A RIFF that is not WAVE (an AVI, a WebP) is not PCM for libsndfile.
        #expect(ContentKind.classify(Self.head(Self.text("RIFF"), [0, 0, 0, 0], Self.text("AVI LIST"))) != .pcm)
    }

    @Test func theOtherFormatsKeepTheirDecoders() {
        #expect(ContentKind.classify(Self.head(Self.text("fLaC"), [0, 0, 0, 0x22])) == .flac)
        #expect(ContentKind.classify(Self.ogg(Self.text("OpusHead"))) == .opus)
        #expect(ContentKind.classify(Self.ogg([1] + Self.text("vorbis"))) == .vorbis)
        #expect(ContentKind.classify(Self.ogg(Self.text("Speex   "))) == .unsupported("Speex"))
        let ape = Self.head(Self.text("MAC "), [0x96, 0x0F])
        #expect(ContentKind.classify(ape) == .unsupported("Monkey's Audio (APE)"))
        #expect(ContentKind.classify(Self.head([0xFF, 0xFB, 0x90, 0x64])) == .mpeg)
    }
}
