public import ShuffleCore
public import HelperWire
import LibPThread

/// A phrase rendered: 16-bit mono samples at `sampleRate` frames per second.
public struct Rendering: Equatable, Sendable {
    public var samples: [Int16]
    public var sampleRate: Int

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }
}

/// Why a phrase could not be rendered, as a sentence (what failed, on which words, what to do).
public struct SpeechFailure: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// Spoken phrases as PCM: each segment rendered in its own voice by `shufflebox-speech` (espeak-ng in a
/// process of its own, started for the phrase and ended with it: its own file says why) and joined. Keeps
/// the phrases said last (up to `cacheLimit` samples in all), so a message said again, or the title rendered
/// ahead when a track starts, costs nothing at the gesture.
///
/// Rendering takes ~10-30 ms (the helper's start, espeak-ng's data, the synthesis): call `render` from a
/// thread of its own, never the event loop's.
public final class PhraseVoice: Sendable {
    /// The most samples the cache holds (about 6 s of speech, 256 KiB): the title of the track playing, rendered
    /// as it starts, and the messages said last. (1 MiB put the daemon at 24.4 MiB with 10,000 tracks.)
    public static let cacheLimit = 128 * 1024
    /// The longest phrase taken from the helper (a minute at espeak-ng's 22,050 Hz): an absurd title
    /// is refused, not held in memory.
    public static let maxSamples = 60 * 22_050
    /// The renderer's executable (`shufflebox-speech` beside this one).
    public let program: String
    private let timeoutMs: Int32
    private let cache = PThreadMutex<[(phrase: [SpokenSegment], rendering: Rendering)]>([])

    /// A voice whose phrases `program` renders, each within `timeoutMs`. Nothing starts until a phrase.
    public init(program: String = HelperProcess.besideExecutable("shufflebox-speech"), timeoutMs: Int32 = 10_000) {
        self.program = program
        self.timeoutMs = timeoutMs
    }

    /// The samples of `phrase`, from the cache or rendered now. A voice espeak-ng does not have falls back
    /// to its base language (`en-gb` to `en`), then to English, so a phrase is never silent for want of one.
    public func render(_ phrase: [SpokenSegment]) throws(SpeechFailure) -> Rendering {
        if let hit = cached(phrase) { return hit }
        let helper = HelperProcess(program: program, role: "the speech renderer", timeoutMs: timeoutMs)
        defer { helper.end() }
        var rendering = Rendering(samples: [], sampleRate: 0)
        for segment in phrase {
            try render(segment, with: helper, into: &rendering)
        }
        store(phrase, rendering)
        return rendering
    }

    /// Whether `phrase` is in the cache.
    public func isCached(_ phrase: [SpokenSegment]) -> Bool { cached(phrase) != nil }

    /// A `speak` request for `segment`: the voices to try in turn and the text (its zero bytes dropped), each
    /// ended by a zero byte but the last.
    static func request(_ segment: SpokenSegment) -> WireMessage {
        var voices = [segment.voice]
        if let dash = segment.voice.firstIndex(of: "-") { voices.append(String(segment.voice[..<dash])) }
        if !voices.contains(VoiceChoice.defaultLanguage) { voices.append(VoiceChoice.defaultLanguage) }
        var payload: [UInt8] = []
        for voice in voices { payload += voice.utf8.filter { $0 != 0 } + [0] }
        payload += segment.text.utf8.prefix(WireMessage.maxPayload - payload.count).filter { $0 != 0 }
        return WireMessage(.speak, a: 175, payload: payload)
    }

    /// Appends `segment`'s samples, as the helper sends them (each batch checked before it is read).
    private func render(_ segment: SpokenSegment, with helper: HelperProcess, into rendering: inout Rendering)
        throws(SpeechFailure)
    {
        let words = "'\(segment.text)'"
        var reply = try Self.asking { () throws(HelperFailure) in try helper.ask(Self.request(segment), file: words) }
        while reply.kind == .samples {
            let frames = Int(clamping: reply.a)
            guard reply.b == 2, frames > 0, reply.length == frames * 2, (8_000...192_000).contains(reply.c),
                rendering.sampleRate == 0 || rendering.sampleRate == Int(reply.c)
            else {
                helper.end()
                throw SpeechFailure(
                    description: "the speech renderer (\(program)) sent \(reply.a) samples of \(reply.b) bytes at "
                        + "\(reply.c) Hz in \(reply.length) bytes for \(words) and was ended")
            }
            guard rendering.samples.count + frames <= Self.maxSamples else {
                throw SpeechFailure(description: "\(words) is longer than a minute of speech: not said")
            }
            rendering.sampleRate = Int(reply.c)
            let start = rendering.samples.count
            rendering.samples.append(contentsOf: repeatElement(0, count: frames))
            try Self.asking { () throws(HelperFailure) in
                try rendering.samples.withUnsafeMutableBytes { bytes in
                    Result { () throws(HelperFailure) in
                        try helper.receiveSamples(
                            into: UnsafeMutableRawBufferPointer(rebasing: bytes[(start * 2)..<((start + frames) * 2)]),
                            file: words)
                    }
                }.get()
            }
            reply = try Self.asking { () throws(HelperFailure) in try helper.next(file: words) }
        }
        switch reply.kind {
        case .done: return
        case .failure:
            throw SpeechFailure(description: "cannot say \(words): " + String(decoding: reply.payload, as: UTF8.self))
        default:
            helper.end()
            throw SpeechFailure(
                description: "the speech renderer (\(program)) answered \(reply.kind) out of turn and was ended")
        }
    }

    /// `body`'s failure to reach the helper as the phrase's.
    private static func asking<T>(_ body: () throws(HelperFailure) -> T) throws(SpeechFailure) -> T {
        do throws(HelperFailure) { return try body() } catch { throw SpeechFailure(description: error.description) }
    }

    private func cached(_ phrase: [SpokenSegment]) -> Rendering? {
        cache.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.phrase == phrase }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.rendering
        }
    }

    private func store(_ phrase: [SpokenSegment], _ rendering: Rendering) {
        guard rendering.samples.count <= Self.cacheLimit else { return }
        // A copy of exactly its samples: the rendering grew by doubling, and the limit counts samples.
        let rendering = Rendering(samples: rendering.samples.withUnsafeBufferPointer { Array($0) }, sampleRate: rendering.sampleRate)
        cache.withLock { entries in
            entries.removeAll { $0.phrase == phrase }
            entries.append((phrase, rendering))
            var total = entries.reduce(0) { $0 + $1.rendering.samples.count }
            while total > Self.cacheLimit, !entries.isEmpty {
                total -= entries.removeFirst().rendering.samples.count
            }
        }
    }
}
