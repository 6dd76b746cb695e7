import Playback
import Testing

@Suite struct VolumeStageTests {
    @Test func unityGainPassesSamplesThroughBitExact() {
        var stage = VolumeStage(gain: 1, sampleRate: 44_100)
        var samples: [Int16] = [0, 1, -1, 32_767, -32_768, 12_345]
        let original = samples
        stage.apply(to: &samples, frames: 3, channels: 2)
        #expect(samples == original)
    }

    @Test(arguments: [(0.0, 1.0), (1.0, 0.0), (0.25, 0.9), (0.8, 0.1)])
    func aRampNeverJumpsMoreThanTheRampAllows(from: Double, to: Double) {
        let rate = 48_000
        var stage = VolumeStage(gain: from, sampleRate: rate)
        let level: Int16 = 30_000
        stage.setGain(to, ramp: true)
        let frames = stage.framesPerRamp * 3
        var samples = [Int16](repeating: level, count: frames * 2)
        stage.apply(to: &samples, frames: frames, channels: 2)
        let allowed = Double(level) * abs(to - from) / Double(stage.framesPerRamp) + 1
        var previous = Double(level) * from
        for frame in 0..<frames {
            let left = Double(samples[frame * 2])
            #expect(abs(left - previous) <= allowed, "frame \(frame): \(previous) → \(left)")
            #expect(samples[frame * 2] == samples[frame * 2 + 1], "both channels get the same gain")
            previous = left
        }
        #expect(abs(Double(samples.last!) - Double(level) * to) <= 1, "the ramp ends at the target")
        #expect(stage.framesPerRamp == rate * VolumeStage.rampMilliseconds / 1000)
    }

    @Test func muteWithoutARampSilencesAtOnce() {
        var stage = VolumeStage(gain: 1, sampleRate: 44_100)
        stage.setGain(0, ramp: false)
        var samples = [Int16](repeating: -20_000, count: 64)
        stage.apply(to: &samples, frames: 32, channels: 2)
        #expect(samples.allSatisfy { $0 == 0 })
    }

    /// A quiet track raised above unity (a loudness gain times the volume): exact where it fits, saturated at
    /// full scale where a wrong peak would have let it wrap, in both depths and along a ramp.
    @Test(arguments: [2.0, 3.98, 4.0, 9.0])
    func aGainAboveOneRaisesAndSaturatesInsteadOfWrapping(_ gain: Double) {
        let expected = min(gain, VolumeStage.maximumGain)
        var stage = VolumeStage(gain: gain, sampleRate: 48_000)
        var narrow: [Int16] = [1000, -1000, 5000, -5000, 30_000, -30_000]
        stage.apply(to: &narrow, frames: 3, channels: 2)
        #expect(abs(Double(narrow[0]) - 1000 * expected) <= 2)
        #expect(abs(Double(narrow[1]) + 1000 * expected) <= 2)
        #expect(narrow[4] == Int16.max && narrow[5] == Int16.min)
        var wide: [Int32] = [1 << 20, -(1 << 20), Int32.max - 5, Int32.min + 5]
        stage.apply(to: &wide, frames: 2, channels: 2)
        #expect(abs(Double(wide[0]) - Double(1 << 20) * expected) <= 2)
        #expect(wide[2] == Int32.max && wide[3] == Int32.min)

        var ramped = VolumeStage(gain: 0.5, sampleRate: 48_000)
        ramped.setGain(gain, ramp: true)
        let frames = ramped.framesPerRamp * 2
        var samples = [Int16](repeating: 20_000, count: frames)
        ramped.apply(to: &samples, frames: frames, channels: 1)
        #expect(samples.allSatisfy { $0 >= 9_999 })
        #expect(samples.last == Int16.max)
    }
}
