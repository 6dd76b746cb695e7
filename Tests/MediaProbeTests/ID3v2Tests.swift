import MediaProbe
import ShuffleCore
import Testing

/// ID3v2.2/2.3/2.4 tags built byte by byte, in front of a few silent frames.
@Suite struct ID3v2Tests {
    /// The tags the probe reads from `tag` followed by audio (fails the test when not audio).
    func tags(_ tag: [UInt8], name: String = "x.mp3") -> TagInfo? {
        guard case .audio(let tags, _) = MediaProbe.probe(bytes: tag + MP3Builder.frames(5), fileName: name) else {
            Issue.record("not audio")
            return nil
        }
        return tags
    }

    @Test func readsID3v22ThreeCharacterFrames() {
        let tag = MP3Builder.id3v2(
            major: 2,
            [
                ("TT2", MP3Builder.text("Old Title", encoding: 0)), ("TP1", MP3Builder.text("Old Artist", encoding: 0)),
                ("TAL", MP3Builder.text("Old Album", encoding: 0)), ("TP2", MP3Builder.text("Band", encoding: 0)),
                ("TRK", MP3Builder.text("4/12", encoding: 0)), ("TPA", MP3Builder.text("1/2", encoding: 0)),
                ("TYE", MP3Builder.text("1999", encoding: 0)), ("TCO", MP3Builder.text("(17)", encoding: 0)),
                ("TXX", MP3Builder.txxx("replaygain_track_gain", "-7.25 dB", encoding: 0)),
            ])
        let expected = TagInfo(
            title: "Old Title", artist: "Old Artist", album: "Old Album", albumArtist: "Band", track: 4, trackTotal: 12,
            disc: 1, discTotal: 2, year: 1999, genre: "Rock", replayGainTrack: -7.25)
        #expect(tags(tag) == expected)
    }

    @Test(arguments: [false, true])
    func readsID3v23UTF16WithEitherByteOrderMark(bigEndian: Bool) {
        let tag = MP3Builder.id3v2(
            major: 3,
            [
                ("TIT2", MP3Builder.text("夜明け Straße", encoding: 1, bigEndianBOM: bigEndian)),
                ("TPE1", MP3Builder.text("Zoë 🎸", encoding: 1, bigEndianBOM: bigEndian)),
                ("TYER", MP3Builder.text("2004", encoding: 1, bigEndianBOM: bigEndian)),
            ])
        let info = tags(tag)
        #expect(info?.title == "夜明け Straße")
        #expect(info?.artist == "Zoë 🎸")
        #expect(info?.year == 2004)
    }

    @Test func readsUTF16BigEndianWithoutBOMAndLatin1() {
        let tag = MP3Builder.id3v2(
            major: 4,
            [
                ("TIT2", MP3Builder.text("Ελλάδα", encoding: 2)), ("TPE1", MP3Builder.text("Café Noir", encoding: 0)),
            ])
        #expect(tags(tag)?.title == "Ελλάδα")
        #expect(tags(tag)?.artist == "Café Noir")
    }

    @Test func readsID3v24UTF8WithPerFrameUnsynchronisation() {
        // "ÿ" is C3 BF in UTF-8; "\u{FFE0}" gives EF BF A0; a raw FF E0 pair needs the 00 inserted.
        let raw = MP3Builder.text("ÿes\u{FFE0}", encoding: 3) + [0xFF, 0xE0]
        let unsynced = MP3Builder.unsynchronise(raw)
        #expect(unsynced.count > raw.count)
        let tag = MP3Builder.id3v2(
            major: 4, [("TIT2", unsynced), ("TPE1", MP3Builder.text("Plain"))], frameFlags: [0, 0x02])
        let title = tags(tag)?.title
        #expect(title?.hasPrefix("ÿes\u{FFE0}") == true)
        #expect(tags(tag)?.artist == "Plain")
    }

    @Test func readsID3v23WithTagLevelUnsynchronisation() {
        let frames: [(String, [UInt8])] = [
            ("TIT2", [0] + Array("Sync".utf8) + [0xFF, 0xFB] + Array("Title".utf8)),
            ("TPE1", MP3Builder.text("Artist", encoding: 0)),
        ]
        let plain = MP3Builder.id3v2(major: 3, frames)
        let body = MP3Builder.unsynchronise(Array(plain[10...]))
        #expect(body.count > plain.count - 10)
        let tag = [0x49, 0x44, 0x33, 3, 0, 0x80] + MP3Builder.syncsafe(body.count) + body
        #expect(tags(tag)?.title == "Sync\u{FF}\u{FB}Title")
        #expect(tags(tag)?.artist == "Artist")
    }

    @Test func skipsExtendedHeadersOfV23AndV24() {
        let frames: [(String, [UInt8])] = [("TIT2", MP3Builder.text("After Extended", encoding: 0))]
        let v23 = MP3Builder.id3v2(major: 3, frames, flags: 0x40, extendedHeader: [0, 0, 0, 6, 0, 0, 0, 0, 0, 0])
        let v24 = MP3Builder.id3v2(major: 4, frames, flags: 0x40, extendedHeader: [0, 0, 0, 6, 1, 0])
        #expect(tags(v23)?.title == "After Extended")
        #expect(tags(v24)?.title == "After Extended")
    }

    @Test func toleratesITunesPlainFrameSizesInV24() {
        let long = String(repeating: "a", count: 200)  // 201 bytes: 0x000000C9 is not a valid syncsafe reading
        let tag = MP3Builder.id3v2(
            major: 4, [("TIT2", MP3Builder.text(long)), ("TPE1", MP3Builder.text("Next"))], plainSizes: true)
        #expect(tags(tag)?.title == long)
        #expect(tags(tag)?.artist == "Next")
    }

    @Test(
        arguments: [
            ("(17)", "Rock"), ("17", "Rock"), ("(17)Rock", "Rock"), ("(4)Eurodisco", "Eurodisco"), ("(RX)", "Remix"),
            ("(CR)", "Cover"), ("((Brackets)", "(Brackets)"), ("Synthwave", "Synthwave"), ("(255)", nil),
            ("52", "Electronic"),
        ] as [(String, String?)])
    func resolvesNumericGenres(raw: String, name: String?) {
        let tag = MP3Builder.id3v2(major: 3, [("TCON", MP3Builder.text(raw, encoding: 0))])
        #expect(tags(tag)?.genre == name)
    }

    @Test func splitsNumberAndTotalAndKeepsTheFirstOfSeveralValues() {
        let tag = MP3Builder.id3v2(
            major: 4,
            [
                ("TRCK", MP3Builder.text("07/15")), ("TPOS", MP3Builder.text("2")),
                ("TPE1", MP3Builder.text("First\u{0}Second")), ("TCON", MP3Builder.text("Pop\u{0}Rock")),
                ("TDRC", MP3Builder.text("2011-04-05T10:00")),
            ])
        let info = tags(tag)
        #expect(info?.track == 7)
        #expect(info?.trackTotal == 15)
        #expect(info?.disc == 2)
        #expect(info?.discTotal == nil)
        #expect(info?.artist == "First")
        #expect(info?.genre == "Pop")
        #expect(info?.year == 2011)
    }

    @Test func readsReplayGainFromTXXXWhateverTheCase() {
        let tag = MP3Builder.id3v2(
            major: 3,
            [
                ("TXXX", MP3Builder.txxx("REPLAYGAIN_TRACK_GAIN", "-6.50 dB", encoding: 0)),
                ("TXXX", MP3Builder.txxx("replaygain_album_gain", "+1.25 dB", encoding: 1)),
                ("TXXX", MP3Builder.txxx("ReplayGain_Track_Peak", "0.988235", encoding: 0)),
                ("TXXX", MP3Builder.txxx("SOMETHING_ELSE", "12", encoding: 0)),
            ])
        let info = tags(tag)
        #expect(info?.replayGainTrack == -6.5)
        #expect(info?.replayGainAlbum == 1.25)
        #expect(info?.replayGainTrackPeak == 0.988235)
    }

    @Test func stripsTrailingNULsAndTurnsEmptyValuesIntoNil() {
        let tag = MP3Builder.id3v2(
            major: 3,
            [
                ("TIT2", MP3Builder.text("Padded\u{0}\u{0}", encoding: 0)),
                ("TPE1", MP3Builder.text("   ", encoding: 0)),
                ("TALB", [0]), ("TCON", MP3Builder.text("", encoding: 1)),
            ])
        let info = tags(tag, name: "fallback.mp3")
        #expect(info?.title == "Padded")
        #expect(info?.artist == nil)
        #expect(info?.album == nil)
        #expect(info?.genre == nil)
    }

    @Test func skipsCompressedAndEncryptedFramesButReadsTheRest() {
        let compressed = MP3Builder.id3v2(major: 3, [("TIT2", [0, 0x78, 0x9C, 1, 2])], frameFlags: [0, 0x80])
        let body =
            Array(compressed[10...])
            + Array(MP3Builder.id3v2(major: 3, [("TPE1", MP3Builder.text("Clear", encoding: 0))])[10...])
        let tag = [0x49, 0x44, 0x33, 3, 0, 0] + MP3Builder.syncsafe(body.count) + body
        #expect(tags(tag, name: "Song Name.mp3")?.title == "Song Name")
        #expect(tags(tag)?.artist == "Clear")
    }

    @Test func survivesAbsurdFrameSizesInsideTheTag() {
        var tag = MP3Builder.id3v2(
            major: 3, [("TIT2", MP3Builder.text("Kept", encoding: 0)), ("TPE1", MP3Builder.text("Lost", encoding: 0))])
        // Make TPE1 claim 4 GB.
        let tpe1 = tag.count - (4 + 1 + 10)
        tag.replaceSubrange(tpe1 + 4..<tpe1 + 8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let info = tags(tag)
        #expect(info?.title == "Kept")
        #expect(info?.artist == nil)
    }

    @Test func readsITunesPodcastFlagWhenItIsNotZero() {
        #expect(tags(MP3Builder.id3v2(major: 3, [("PCST", MP3Builder.be32(1))]))?.story == .podcast)
        #expect(tags(MP3Builder.id3v2(major: 4, [("PCST", MP3Builder.be32(0))]))?.story == nil)
        #expect(tags(MP3Builder.id3v2(major: 2, [("PCS", [0, 0, 0, 1])]))?.story == .podcast)
        #expect(tags(MP3Builder.id3v2(major: 3, [("PCST", [])]))?.story == nil)
        #expect(tags(MP3Builder.id3v2(major: 3, [("TCON", MP3Builder.text("Podcast"))]))?.story == nil)
    }

    @Test func usesTheFileNameWhenNoTagGivesATitle() {
        #expect(tags([], name: "Music/01 - Intro.Mp3")?.title == "01 - Intro")
        #expect(tags([], name: "noext")?.title == "noext")
    }
}
