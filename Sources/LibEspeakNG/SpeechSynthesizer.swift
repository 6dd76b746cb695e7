internal import CEspeakNG
import LibPThread

/// libespeak-ng in the calling process (`shufflebox-speech`), synchronous: text and a voice in, 16-bit mono
/// PCM out. No process of espeak-ng's own, no audio device, no file (`ENOUTPUT_MODE_SYNCHRONOUS`: `espeak_ng_Synthesize` returns when
/// the text is spoken, having handed every buffer to the callback on the calling thread).
///
/// libespeak-ng keeps its state in globals (one voice, one callback, one output), so there is one
/// synthesizer per process (`shared`), and each call holds its lock. Synthesis takes tens of
/// milliseconds for a phrase: never call it on the event loop's thread.
public final class SpeechSynthesizer: Sendable {
    /// The samples per second of every rendering (22,050 for espeak-ng's own voices).
    public let sampleRate: Int
    /// The folder the voices and dictionaries are read from.
    public let dataPath: String
    /// The library's version (`1.51`).
    public let version: String
    private let lock = PThreadMutex<Void>(())

    private init(sampleRate: Int, dataPath: String, version: String) {
        self.sampleRate = sampleRate
        self.dataPath = dataPath
        self.version = version
    }

    /// The process's synthesizer, initialised on first use from espeak-ng's built-in data folder (or
    /// `$ESPEAK_DATA_PATH`, which the library itself reads). Wraps `espeak_ng_InitializePath`,
    /// `espeak_ng_Initialize` and `espeak_ng_InitializeOutput`.
    public static func shared() throws(EspeakError) -> SpeechSynthesizer { try initialized.get() }

    private static let initialized: Result<SpeechSynthesizer, EspeakError> = {
        espeak_ng_InitializePath(nil)
        var context: espeak_ng_ERROR_CONTEXT?
        let status = espeak_ng_Initialize(&context)
        espeak_ng_ClearErrorContext(&context)
        var path: UnsafePointer<CChar>?
        let version = String(cString: espeak_Info(&path))
        let dataPath = path.map { String(cString: $0) } ?? ""
        guard status == ENS_OK else {
            return .failure(EspeakError(code: status.rawValue, function: "espeak_ng_Initialize", context: dataPath))
        }
        let output = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
        guard output == ENS_OK else {
            return .failure(EspeakError(code: output.rawValue, function: "espeak_ng_InitializeOutput"))
        }
        espeak_SetSynthCallback(collect)
        return .success(
            SpeechSynthesizer(sampleRate: Int(espeak_ng_GetSampleRate()), dataPath: dataPath, version: version))
    }()

    /// Renders `text` (UTF-8, plain, not SSML) in `voice` (an espeak-ng voice or language name: `en`,
    /// `ja`, `cmn`) at `wordsPerMinute` (80-450; espeak-ng's default is 175), with the pause espeak-ng
    /// puts after a sentence. Wraps `espeak_ng_SetVoiceByName`, `espeak_ng_SetParameter` and
    /// `espeak_ng_Synthesize`.
    public func render(_ text: String, voice: String, wordsPerMinute: Int = 175) throws(EspeakError) -> [Int16] {
        let result: Result<[Int16], EspeakError> = lock.withLock { _ in
            do throws(EspeakError) {
                try check(espeak_ng_SetVoiceByName(voice), "espeak_ng_SetVoiceByName", voice)
                let rate = max(80, min(450, wordsPerMinute))
                try check(espeak_ng_SetParameter(espeakRATE, Int32(rate), 0), "espeak_ng_SetParameter", "rate")
                let sink = PCMCollector()
                let box = Unmanaged.passRetained(sink)
                defer { box.release() }
                let flags = UInt32(espeakCHARS_UTF8 | espeakENDPAUSE)
                let status = text.withCString { pointer in
                    espeak_ng_Synthesize(
                        pointer, text.utf8.count + 1, 0, POS_CHARACTER, 0, flags, nil, box.toOpaque())
                }
                try check(status, "espeak_ng_Synthesize", voice)
                return .success(sink.samples)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension SpeechSynthesizer {
    /// Makes `voice` the current one without saying anything (wraps `espeak_ng_SetVoiceByName`). espeak-ng
    /// holds the dictionary of the current voice only, in the heap: switching frees the last one.
    public func select(voice: String) throws(EspeakError) {
        let result: Result<Void, EspeakError> = lock.withLock { _ in
            do throws(EspeakError) {
                try check(espeak_ng_SetVoiceByName(voice), "espeak_ng_SetVoiceByName", voice)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// The current voice's identifier, its file under espeak-ng's `voices` folder (`gmw/en`, `zle/ru`), or
    /// nil before any voice was chosen (wraps `espeak_GetCurrentVoice`).
    public func currentVoice() -> String? {
        lock.withLock { _ in
            guard let voice = espeak_GetCurrentVoice(), let identifier = voice.pointee.identifier else { return nil }
            return String(cString: identifier)
        }
    }
}

/// Where one rendering's samples land. Touched only inside `render`, under the lock, on its thread.
private final class PCMCollector {
    var samples: [Int16] = []
}

/// The synthesis callback: espeak-ng hands each buffer here, with the `user_data` given to
/// `espeak_ng_Synthesize` in every event (the list ends with an event of type 0). Returns 0: go on.
private func collect(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?)
    -> Int32
{
    guard let wav, count > 0, let data = events?.pointee.user_data else { return 0 }
    let sink = Unmanaged<PCMCollector>.fromOpaque(data).takeUnretainedValue()
    sink.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    return 0
}
