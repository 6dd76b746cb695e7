import MediaProbe
import ShuffleCore
import Testing

/// APEv2 and ID3v1 tags at the end of the file, and the per-field precedence ID3v2 > APE > ID3v1.
@Suite struct TailTagTests {
    /// The tags the probe reads from `head` + audio + `tail`.
    func tags(head: [UInt8] = [], tail: [UInt8], name: String = "Tail.mp3") -> TagInfo? {
        let bytes = head + MP3Builder.frames(6) + tail
        guard case .audio(let tags, let stream) = MediaProbe.probe(bytes: bytes, fileName: name) else {
            Issue.record("not audio")
            return nil
        }
        #expect(stream.frames == 6 * 1152, "tail tags must not count as frames")
        return tags
    }

    @Test func readsID3v11WithTrackAndGenreByte() {
        let info = tags(
            tail: MP3Builder.id3v1(
                title: "Café Song   ", artist: "Ärtist", album: "LP", year: "1987", track: 9, genre: 17))
        #expect(info == TagInfo(title: "Café Song", artist: "Ärtist", album: "LP", track: 9, year: 1987, genre: "Rock"))
    }

    @Test func ignoresAnUnknownID3v1GenreAndAZeroTrack() {
        let info = tags(tail: MP3Builder.id3v1(title: "T", track: 0, genre: 255))
        #expect(info?.genre == nil)
        #expect(info?.track == nil)
    }

    @Test(arguments: [false, true])
    func readsAPEv2WithCaseInsensitiveKeys(header: Bool) {
        let ape = MP3Builder.ape(
            [
                ("TITLE", "Ape Title"), ("artist", "Ape Artist"), ("Album", "Ape Album"), ("Album Artist", "Ape AA"),
                ("Track", "2/10"), ("Disc", "1/3"), ("Year", "2015-02-02"), ("Genre", "Trip-Hop"),
                ("REPLAYGAIN_TRACK_GAIN", "-8.12 dB"), ("replaygain_album_gain", "-7.00 dB"),
                ("Replaygain_Track_Peak", "1.02"),
                ("Cover Art (Front)", "binary-ish"),
            ], header: header)
        let expected = TagInfo(
            title: "Ape Title", artist: "Ape Artist", album: "Ape Album", albumArtist: "Ape AA", track: 2,
            trackTotal: 10,
            disc: 1, discTotal: 3, year: 2015, genre: "Trip-Hop", replayGainTrack: -8.12, replayGainAlbum: -7.0,
            replayGainTrackPeak: 1.02)
        #expect(tags(tail: ape) == expected)
        #expect(tags(tail: ape + MP3Builder.id3v1(title: "Loser")) == expected)
    }

    @Test func prefersID3v2ThenAPEThenID3v1PerField() {
        let id3 = MP3Builder.id3v2(major: 3, [("TIT2", MP3Builder.text("From ID3v2", encoding: 0))])
        let ape = MP3Builder.ape([("Title", "From APE"), ("Artist", "APE Artist")])
        let v1 = MP3Builder.id3v1(title: "From v1", artist: "v1 Artist", album: "v1 Album", year: "1970")
        let info = tags(head: id3, tail: ape + v1)
        #expect(info?.title == "From ID3v2")
        #expect(info?.artist == "APE Artist")
        #expect(info?.album == "v1 Album")
        #expect(info?.year == 1970)
    }

    @Test func skipsALyrics3BlockBetweenAudioAndID3v1() {
        let lyrics = Array("LYRICSBEGININD0000200".utf8)
        let size = String(lyrics.count)
        let block = lyrics + Array((String(repeating: "0", count: 6 - size.count) + size + "LYRICS200").utf8)
        #expect(tags(tail: block + MP3Builder.id3v1(title: "With Lyrics"))?.title == "With Lyrics")
    }

    @Test func survivesAbsurdAPESizesAndCounts() {
        var ape = MP3Builder.ape([("Title", "Sized")])
        // Claim a 4 GB tag: not believed, so no APE tag at all (and the footer is not audio either).
        var huge = ape
        huge.replaceSubrange(huge.count - 20..<huge.count - 16, with: [0xFF, 0xFF, 0xFF, 0x7F])
        guard case .audio(let hugeTags, _) = MediaProbe.probe(bytes: MP3Builder.frames(6) + huge, fileName: "Huge.mp3")
        else {
            Issue.record("not audio")
            return
        }
        #expect(hugeTags.title == "Huge")
        // Claim 1,000,000 items and a value longer than the tag: reading stops, nothing breaks.
        ape.replaceSubrange(ape.count - 16..<ape.count - 12, with: [0x40, 0x42, 0x0F, 0])
        #expect(tags(tail: ape)?.title == "Sized")
        var longValue = MP3Builder.ape([("Title", "Oops")])
        longValue.replaceSubrange(0..<4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(tags(tail: longValue)?.title == "Tail")
    }
}
