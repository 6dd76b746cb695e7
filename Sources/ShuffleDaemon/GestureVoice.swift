import Playback
import ShuffleCore
import Speech

/// The voice of `shufflebox buttons --speak`: each gesture said aloud ("play, pin 11, click"). Live, a new
/// gesture cuts off the one being said; a replayed script says every one to its end.
final class GestureVoice: Sendable {
    private let voice = PhraseVoice()
    private let output: SpeechOutput
    private let device: String
    private let board: BoardConfig

    init(board: BoardConfig, device: String) {
        output = SpeechOutput(device: device)
        self.device = device
        self.board = board
    }

    /// Says `event` now, cutting off the phrase under way (returns at once).
    func say(_ event: GestureEvent) {
        guard let clip = clip(for: event) else { return }
        let device = self.device
        output.say(clip, ended: { error in
            if let error { Terminal.error("shufflebox buttons: cannot speak on '\(device)': \(error.message)") }
        })
    }

    /// Says `event` to its end before returning.
    func sayAndWait(_ event: GestureEvent) {
        guard let clip = clip(for: event) else { return }
        if let error = SpeechOutput.play(clip, device: device, cancelled: { false }) {
            Terminal.error("shufflebox buttons: cannot speak on '\(device)': \(error.message)")
        }
    }

    /// Waits for the phrase under way.
    func finish() { output.wait() }

    private func clip(for event: GestureEvent) -> SpeechClip? {
        let text = SpokenGesture.text(for: event, board: board)
        let rendering: Rendering
        do {
            rendering = try voice.render(VoiceChoice.segments(text))
        } catch {
            Terminal.error("shufflebox buttons: cannot speak: \(error)")
            return nil
        }
        return SpeechClip(id: 0, samples: rendering.samples, sampleRate: rendering.sampleRate, gain: VolumeScale().gain(14))
    }
}
