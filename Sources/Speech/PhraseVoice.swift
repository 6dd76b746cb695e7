public import ShuffleCore
import LibEspeakNG
import LibPThread

/// Spoken phrases as PCM: each segment rendered by libespeak-ng in its own voice and joined, 16-bit mono at
/// `sampleRate`. Keeps the phrases said last (up to `cacheLimit` samples in all), so a message said again,
/// or the title rendered ahead when a track starts, costs nothing at the gesture.
///
/// Rendering takes tens of milliseconds: call `render` from a thread of its own, never the event loop's.
public final class PhraseVoice: Sendable {
    /// Samples per second of every rendering.
    public let sampleRate: Int
    /// The most samples the cache holds (about 6 s of speech, 256 KiB): the title of the track playing, rendered
    /// as it starts, and the messages said last. (1 MiB put the daemon at 24.4 MiB with 10,000 tracks.)
    public static let cacheLimit = 128 * 1024
    /// The voice espeak-ng is left in between phrases: the one for Latin script and the messages. A phrase in
    /// another script loads that language's dictionary into the heap (Russian 2.0 MB, Mandarin 1.6 MB, English
    /// 0.2 MB), and espeak-ng keeps it until the voice changes, so it would otherwise stay for as long as the
    /// next title is in another script.
    public let restingVoice: String
    private let synthesizer: SpeechSynthesizer
    private let cache = PThreadMutex<[(phrase: [SpokenSegment], samples: [Int16])]>([])

    /// Opens the process's espeak-ng synthesizer.
    public init(restingVoice: String = VoiceChoice.defaultLanguage) throws(EspeakError) {
        synthesizer = try SpeechSynthesizer.shared()
        sampleRate = synthesizer.sampleRate
        self.restingVoice = restingVoice
    }

    /// The espeak-ng library's version and data folder, for logs.
    public var description: String { "espeak-ng \(synthesizer.version) (\(synthesizer.dataPath))" }

    /// The samples of `phrase`, from the cache or rendered now. A voice espeak-ng does not have falls back
    /// to its base language (`en-gb` to `en`), then to English, so a phrase is never silent for want of one.
    public func render(_ phrase: [SpokenSegment]) throws(EspeakError) -> [Int16] {
        if let hit = cached(phrase) { return hit }
        var samples: [Int16] = []
        for segment in phrase {
            samples += try renderSegment(segment)
        }
        if phrase.contains(where: { $0.voice != restingVoice }) {
            // Best effort: a resting voice espeak-ng lacks only leaves the last dictionary loaded.
            try? synthesizer.select(voice: restingVoice)
        }
        store(phrase, samples)
        return samples
    }

    /// The identifier of the voice espeak-ng is in now (`gmw/en`), for tests and logs.
    public var currentVoice: String? { synthesizer.currentVoice() }

    /// Whether `phrase` is in the cache.
    public func isCached(_ phrase: [SpokenSegment]) -> Bool { cached(phrase) != nil }

    private func renderSegment(_ segment: SpokenSegment) throws(EspeakError) -> [Int16] {
        var voices = [segment.voice]
        if let dash = segment.voice.firstIndex(of: "-") { voices.append(String(segment.voice[..<dash])) }
        if !voices.contains(VoiceChoice.defaultLanguage) { voices.append(VoiceChoice.defaultLanguage) }
        var lastError: EspeakError?
        for voice in voices {
            do throws(EspeakError) {
                return try synthesizer.render(segment.text, voice: voice)
            } catch where error.isVoiceNotFound {
                lastError = error
            }
        }
        throw lastError ?? EspeakError(code: 0, function: "espeak_ng_SetVoiceByName", context: segment.voice)
    }

    private func cached(_ phrase: [SpokenSegment]) -> [Int16]? {
        cache.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.phrase == phrase }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.samples
        }
    }

    private func store(_ phrase: [SpokenSegment], _ samples: [Int16]) {
        guard samples.count <= Self.cacheLimit else { return }
        // A copy of exactly its samples: the rendering grew by doubling, and the limit counts samples.
        let samples = samples.withUnsafeBufferPointer { Array($0) }
        cache.withLock { entries in
            entries.removeAll { $0.phrase == phrase }
            entries.append((phrase, samples))
            var total = entries.reduce(0) { $0 + $1.samples.count }
            while total > Self.cacheLimit, !entries.isEmpty {
                total -= entries.removeFirst().samples.count
            }
        }
    }
}
