import Playback
import Testing

/// The speech stage on its own: ducking depth and ramps, the phrase resampled and added at its gain,
/// the music's return, and S32 buffers.
@Suite struct SpeechMixTests {
    /// Runs `frames` of steady music at `level` through `mix` in periods of 49 frames, two channels.
    private static func run(
        _ mix: inout SpeechMix, frames: Int, level: Int16 = 10_000
    ) -> (left: [Int16], endedAt: Int?) {
        var left: [Int16] = []
        var endedAt: Int?
        while left.count < frames {
            var period = [Int16](repeating: level, count: 49 * 2)
            if mix.mix(into: &period, frames: 49, channels: 2), endedAt == nil { endedAt = left.count }
            for frame in 0..<49 {
                #expect(period[frame * 2] == period[frame * 2 + 1], "both channels alike")
                left.append(period[frame * 2])
            }
        }
        return (left, endedAt)
    }

    @Test func withoutSpeechTheMusicPassesUntouched() {
        var mix = SpeechMix()
        var period: [Int16] = [1, -1, 32_767, -32_768]
        #expect(!mix.mix(into: &period, frames: 2, channels: 2))
        #expect(period == [1, -1, 32_767, -32_768])
    }

    @Test(arguments: [-15.0, -6.0, -30.0])
    func theMusicDucksByTheConfiguredAmountAndComesBackAfterThePhrase(_ decibels: Double) {
        var mix = SpeechMix(duckDecibels: decibels)
        mix.setSampleRate(44_100)
        // Half a second of silence as the phrase: what is heard is the music alone, ducked.
        mix.start([Int16](repeating: 0, count: 11_025), sampleRate: 22_050, gain: 1)
        let (left, endedAt) = Self.run(&mix, frames: 44_100)
        let expected = 10_000 * SpeechMix.linear(decibels)
        let duckFrames = 44_100 * SpeechMix.duckMilliseconds / 1000
        #expect(abs(Double(left[duckFrames + 100]) - expected) <= 2, "ducked to \(decibels) dB")
        #expect(abs(Double(left[20_000]) - expected) <= 2)
        let end = try! #require(endedAt)
        #expect((22_000...22_100).contains(end), "the phrase lasts its length at the device rate: \(end)")
        let restore = 44_100 * SpeechMix.restoreMilliseconds / 1000
        #expect(left[end + restore + 441] == 10_000, "the music is back at its level")
        #expect(!mix.isActive)
        // Ramps, never jumps.
        for index in 1..<left.count { #expect(abs(Int(left[index]) - Int(left[index - 1])) <= 200) }
    }

    @Test func thePhraseIsAddedAtItsGainAndResampledToTheDeviceRate() {
        var mix = SpeechMix(duckDecibels: -20)
        mix.setSampleRate(44_100)
        // A ramp 0, 100, 200, ... at 22,050 Hz: at 44,100 Hz every other sample is interpolated.
        let phrase = (0..<200).map { Int16($0 * 100) }
        mix.start(phrase, sampleRate: 22_050, gain: 0.5)
        var period = [Int16](repeating: 0, count: 400)
        _ = mix.mix(into: &period, frames: 400, channels: 1)
        #expect(Array(period[0..<6]) == [0, 25, 50, 75, 100, 125])
        #expect(period[398] == (199 * 100) / 2, "the last sample is said")
    }

    @Test func aCutOffPhraseStopsAtOnceAndTheMusicReturns() {
        var mix = SpeechMix()
        mix.setSampleRate(48_000)
        mix.start([Int16](repeating: 8_000, count: 100_000), sampleRate: 22_050, gain: 1)
        _ = Self.run(&mix, frames: 4_410)
        mix.stop()
        #expect(!mix.isSpeaking)
        let (left, _) = Self.run(&mix, frames: 48_000)
        #expect(left.last == 10_000)
        #expect(!mix.isActive)
    }

    @Test func aLoudPhraseOverLoudMusicClipsInsteadOfWrapping() {
        var mix = SpeechMix(duckDecibels: 0)
        mix.setSampleRate(22_050)
        mix.start([Int16](repeating: 30_000, count: 1_000), sampleRate: 22_050, gain: 1)
        var period = [Int16](repeating: 30_000, count: 500)
        _ = mix.mix(into: &period, frames: 500, channels: 1)
        #expect(period.allSatisfy { $0 == Int16.max })
    }

    @Test func in32BitBuffersTheSpeechIsScaledToTheBufferDepth() {
        var mix = SpeechMix(duckDecibels: 0)
        mix.setSampleRate(22_050)
        mix.start([Int16](repeating: 1_000, count: 1_000), sampleRate: 22_050, gain: 1)
        var period = [Int32](repeating: 5, count: 100)
        _ = mix.mix(into: &period, frames: 100, channels: 1)
        #expect(period[50] == 5 + 1_000 << 16, "S32: 16-bit speech sits in the top 16 bits, the music's low bits stay")
        var deep = SpeechMix(duckDecibels: 0)
        deep.setSampleRate(22_050)
        deep.start([Int16](repeating: 1_000, count: 1_000), sampleRate: 22_050, gain: 1)
        var s24 = [Int32](repeating: 5, count: 100)
        _ = deep.mix(into: &s24, frames: 100, channels: 1, bits: 24)
        #expect(s24[50] == 5 + 1_000 << 8, "S24 in 32-bit words")
    }
}
