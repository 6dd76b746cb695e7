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
}
