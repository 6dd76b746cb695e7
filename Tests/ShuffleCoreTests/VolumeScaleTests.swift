import ShuffleCore
import Testing

@Suite struct VolumeScaleTests {
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
