import Playback
import ShuffleCore
import Speech

/// `shufflebox say TEXT`: renders the words as the daemon would (each script in its voice) and says them
/// straight to the device, the path the daemon takes when no music plays.
enum SayCommand {
    static func run(_ options: SayOptions) -> Int32 {
        let voice: PhraseVoice
        do {
            voice = try PhraseVoice()
        } catch {
            Terminal.error("shufflebox say: cannot start espeak-ng: \(error); install espeak-ng-data")
            return ExitCode.unavailable
        }
        let phrase = VoiceChoice.segments(options.text, latin: options.voice)
        let samples: [Int16]
        do {
            samples = try voice.render(phrase)
        } catch {
            Terminal.error("shufflebox say: cannot render '\(options.text)': \(error)")
            return ExitCode.failure
        }
        let clip = SpeechClip(
            id: 1, samples: samples, sampleRate: voice.sampleRate, gain: VolumeScale().gain(options.volume))
        if let error = SpeechOutput.play(clip, device: options.device, cancelled: { false }) {
            Terminal.error("shufflebox say: cannot play on ALSA device '\(options.device)': \(error.message)")
            return ExitCode.unavailable
        }
        return ExitCode.success
    }
}
