import ShuffleCore
import ShuffleTestSupport
import Testing

@Suite struct ManifestTests {
    static let sample = """
        # make-testlib 1 seed=7 tracks=2 formats=mixed broken=1 extras=yes seconds=default; samples = PCM frames per channel decoded by mpg123
        # clip 0: 44.1k stereo CBR128, 33017 bytes of frames, 88200 samples decoded (input 88200)
        path\tkind\tbroken\tsamples\trate\tchannels\tcodec\tclip\ttag\ttitle\tartist\talbum\talbumartist\ttrack\ttracktotal\tdisc\tdisctotal\tyear\tgenre\trg_track_gain\tnote
        Caf\\xe9/01 Back\\\\Slash\\tTab.mp3\ttrack\tno\t88200\t44100\t2\tmp3\t0\tid3v23\tBack\\\\Slash\tBeyoncé\t日本語\t\t1\t12\t2\t2\t1999\tRock\t-6.54 dB\tinvalid-utf8-name,utf16
        Zero.mp3\tbroken\tyes\tbroken\t44100\t2\tmp3\t0\t-\t\t\t\t\t\t\t\t\t\t\t\tzero-byte
        cover.jpg\tnonaudio\t-\t-\t-\t-\t-\t-\t-\t\t\t\t\t\t\t\t\t\t\t\tcover

        """

    @Test func decodesEscapedPathsToTheirBytes() throws {
        let manifest = try Manifest.parse(Self.sample)
        let row = try #require(manifest.rows.first)
        let expected: [UInt8] = Array("Caf".utf8) + [0xE9] + Array("/01 Back\\Slash\tTab.mp3".utf8)
        #expect(row.path == PathBytes(expected))
        #expect(!row.path.isValidUTF8)
        #expect(ManifestEscapes.encode(row.path) == "Caf\\xe9/01 Back\\\\Slash\\tTab.mp3")
        #expect(manifest.row(for: PathBytes(expected)) == row)
    }

    @Test func readsEveryColumnAndTreatsEmptyAsAbsent() throws {
        let manifest = try Manifest.parse(Self.sample)
        let row = manifest.rows[0]
        #expect(row.kind == .track && row.broken == false && row.samples == 88200)
        #expect(row.stream == StreamInfo(codec: "mp3", sampleRate: 44100, channels: 2, frames: 88200))
        #expect(
            row.tags
                == TagInfo(
                    title: "Back\\Slash", artist: "Beyoncé", album: "日本語", track: 1, trackTotal: 12, disc: 2,
                    discTotal: 2, year: 1999, genre: "Rock", replayGainTrack: -6.54))
        #expect(row.albumArtist == nil && row.notes == ["invalid-utf8-name", "utf16"])
        let zero = manifest.rows[1]
        #expect(zero.kind == .broken && zero.broken == true && zero.samples == nil && zero.tag == nil)
        #expect(zero.title == nil && zero.stream == nil)
        let cover = manifest.rows[2]
        #expect(cover.kind == .nonaudio && cover.broken == nil && cover.rate == nil)
        #expect(manifest.playable.count == 1 && manifest.broken.count == 1)
        #expect(manifest.parameter("seed") == "7" && manifest.parameter("formats") == "mixed")
        #expect(manifest.clipSamples == [0: 88200])
    }

    @Test func roundTripsEveryByteThroughTheEscapes() throws {
        let bytes: [UInt8] = Array(0...255)
        let path = PathBytes(bytes.filter { $0 != 0 })
        #expect(try PathBytes(ManifestEscapes.decode(ManifestEscapes.encode(path))) == path)
        let nfd = PathBytes("Beyonce\u{301}/Zoe\u{308}.mp3")
        #expect(try PathBytes(ManifestEscapes.decode(ManifestEscapes.encode(nfd))) == nfd)
    }

    @Test(arguments: [
        ("path\tkind\nx.mp3\tsong\n", 2, "unknown kind"),
        ("path\tkind\nbad\\q.mp3\ttrack\n", 2, "unknown escape"),
        ("path\tkind\tsamples\nx.mp3\ttrack\tmany\n", 2, "not a number"),
        ("title\tkind\n", 1, "header row"),
    ])
    func saysWhichLineIsWrong(text: String, line: Int, message: String) {
        #expect {
            try Manifest.parse(text)
        } throws: { error in
            guard let error = error as? ManifestError else { return false }
            return error.line == line && error.message.contains(message)
        }
    }
}
