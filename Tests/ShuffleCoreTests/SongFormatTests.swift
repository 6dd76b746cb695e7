import ShuffleCore
import Testing

/// MPD's `Format` line of a song: `rate:bits:channels`, `f` for the lossy formats decoded to float.
@Suite struct SongFormatTests {
    @Test(arguments: [
        (StreamInfo(codec: "flac", sampleRate: 96000, channels: 2, frames: 1, bitsPerSample: 24), "96000:24:2"),
        (StreamInfo(codec: "mp3", sampleRate: 44100, channels: 2, frames: 1), "44100:16:2"),
        (StreamInfo(codec: "opus", sampleRate: 48000, channels: 1, frames: 1), "48000:f:1"),
        (StreamInfo(codec: "wav", sampleRate: 22050, channels: 1, frames: 1, bitsPerSample: 8), "22050:8:1"),
    ])
    func theFormatLineSaysRateBitsAndChannels(_ stream: StreamInfo, _ expected: String) {
        #expect(stream.mpdFormat == expected)
        let song = SongInfo(id: 7, path: "a.flac", durationMs: 1000, format: stream.mpdFormat)
        #expect(MPDCommands.song(song, position: 0).contains("\nFormat: \(expected)\n"))
    }

    @Test func aSongWithoutAKnownShapeHasNoFormatLine() {
        #expect(!MPDCommands.song(SongInfo(id: 1, path: "a.mp3"), position: nil).contains("Format"))
    }
}
