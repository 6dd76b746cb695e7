import Glibc
import ShuffleCore
import Testing

@Suite struct VolumeScaleTests {
    /// (steps, cap, volume step, the voice's level in dB): the volume's, raised to step 8's (-24 dB), never
    /// above the cap's.
    @Test(arguments: [
        (20, 20, 14, -12.0), (20, 20, 8, -24.0), (20, 20, 3, -24.0), (20, 20, 0, -24.0), (20, 12, 12, -16.0),
        (20, 6, 6, -28.0), (20, 6, 2, -28.0), (20, 20, 20, 0.0),
    ])
    func theVoiceFollowsTheVolumeAboveItsFloorAndNeverAboveTheCap(
        _ steps: Int, _ cap: Int, _ step: Int, _ decibels: Double
    ) {
        let gain = VolumeScale(steps: steps, cap: cap).speechGain(step)
        let level = 20 * log10(gain)
        #expect(abs(level - decibels) < 0.01, "step \(step) of \(steps), cap \(cap): \(level) dB")
    }

    @Test func stepsAreTwoDecibelsApartWithMuteAtZeroAndUnityAtTheTop() {
        let scale = VolumeScale()
        #expect(scale.gain(0) == 0)
        #expect(scale.gain(20) == 1)
        #expect(scale.decibels(10) == -20)
        for step in 1..<20 {
            let ratio = scale.gain(step) / scale.gain(step + 1)
            #expect(abs(ratio - 0.794_328_234_724_281_5) < 1e-9)
        }
    }

    @Test(arguments: [0, 3, 12, 20])
    func theCapHoldsWhateverIsAsked(cap: Int) {
        let scale = VolumeScale(cap: cap)
        for asked in [-5, 0, 7, 19, 20, 21, 1000] {
            #expect(scale.clamp(asked) <= cap)
            #expect(scale.gain(asked) <= scale.gain(cap))
        }
    }
}
