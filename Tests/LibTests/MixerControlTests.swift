import LibALSA
import Testing

/// The hardware mixer cannot be reached without a sound card; these check that asking for one that is
/// not there fails with an error a person can act on, and never crashes.
@Suite struct MixerControlTests {
    @Test func aCardThatDoesNotExistNamesTheCard() {
        #expect(throws: ALSAError.self) { try MixerControl(card: "hw:97", name: "PCM") }
        do {
            _ = try MixerControl(card: "hw:97", name: "PCM")
        } catch {
            #expect(error.description.contains("hw:97"))
            #expect(error.function == "snd_mixer_attach")
        }
    }
}
