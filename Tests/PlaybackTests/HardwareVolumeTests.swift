import ShuffleCore
import Synchronization
import Testing

@testable import Playback

@Suite struct HardwareVolumeTests {
    @Test(arguments: [
        ("hw:1,0", "hw:1"), ("plughw:1,0", "hw:1"), ("hw:CARD=DAC,DEV=0", "hw:CARD=DAC"), ("hw:0", "hw:0"),
        ("default", "default"), ("dmix", "default"), ("hw:", "default"),
    ])
    func theMixerOfAPCMIsItsCard(_ pcm: String, _ card: String) {
        #expect(HardwareVolume.card(forPCM: pcm) == card)
    }

    /// Without a sound card no mixer control exists: asking for one must warn once, naming the control,
    /// and leave the engine on software volume (nil), never fail playback.
    @Test func aMissingControlFallsBackToSoftwareVolumeWithAWarning() {
        let lines = Mutex<[String]>([])
        let log = Log(label: "test", minimum: .debug) { line in lines.withLock { $0.append(line) } }
        #expect(HardwareVolume(device: "hw:97,0", control: "PCM", log: log) == nil)
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.contains("hardware volume control 'PCM' of hw:97") == true)
        #expect(logged.first?.contains("using software volume") == true)
    }
}
