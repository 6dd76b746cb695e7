import Playback
import ShuffleCore
import Speech

/// `shufflebox say TEXT`: renders the words as the daemon would (each script in its voice) and says them
/// straight to the device, the path the daemon takes when no music plays.
enum SayCommand {
    static func run(_ options: SayOptions) -> Int32 {
        let phrase = VoiceChoice.segments(options.text, latin: options.voice)
        let rendering: Rendering
        do {
            rendering = try PhraseVoice().render(phrase)
        } catch {
            Terminal.error("shufflebox say: cannot render '\(options.text)': \(error)")
            return ExitCode.failure
        }
        let clip = SpeechClip(
            id: 1, samples: rendering.samples, sampleRate: rendering.sampleRate, gain: VolumeScale().gain(options.volume))
        if let error = SpeechOutput.play(clip, device: options.device, cancelled: { false }) {
            Terminal.error("shufflebox say: cannot play on ALSA device '\(options.device)': \(error.message)")
            return ExitCode.unavailable
        }
        return ExitCode.success
    }
}
