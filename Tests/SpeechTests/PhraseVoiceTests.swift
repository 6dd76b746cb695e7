import ShuffleCore
import Speech
import Testing

/// Phrases rendered in process: joined segments, voice fallback, and the cache. (espeak-ng's renderings of
/// one text differ by a few samples from call to call, so lengths are compared within 1 %.)
@Suite(.serialized) struct PhraseVoiceTests {
    private static func close(_ a: Int, _ b: Int) -> Bool { abs(a - b) <= max(a, b) / 100 }

    @Test func aPhraseIsItsSegmentsRenderedInTurn() throws {
        let voice = try PhraseVoice()
        let halo = try voice.render([SpokenSegment("Halo,", voice: "en")])
        let kino = try voice.render([SpokenSegment("Кино", voice: "ru")])
        let both = try voice.render([SpokenSegment("Halo,", voice: "en"), SpokenSegment("Кино", voice: "ru")])
        let joined = Self.close(both.count, halo.count + kino.count)
        #expect(joined, "\(both.count) samples, segments \(halo.count) + \(kino.count)")
        #expect(halo.count > voice.sampleRate / 10, "a word is more than a tenth of a second")
    }

    @Test func aVoiceEspeakDoesNotHaveFallsBackToEnglish() throws {
        let voice = try PhraseVoice()
        let english = try voice.render([SpokenSegment("Maximum volume", voice: "en")])
        let unknown = try voice.render([SpokenSegment("Maximum volume", voice: "xq")])
        let same = Self.close(unknown.count, english.count) && unknown.contains { abs(Int($0)) > 1_000 }
        #expect(same, "\(unknown.count) samples for an unknown voice, \(english.count) in English")
    }

    @Test func aPhraseSaidAgainComesFromTheCache() throws {
        let voice = try PhraseVoice()
        let phrase = [SpokenSegment("Loading music, cached", voice: "en")]
        #expect(!voice.isCached(phrase))
        let first = try voice.render(phrase)
        #expect(voice.isCached(phrase))
        let again = try voice.render(phrase) == first
        #expect(again)
    }
}
