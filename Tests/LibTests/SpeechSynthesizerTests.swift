import Foundation
import LibEspeakNG
import ShuffleCore
import ShuffleTestSupport
import Testing

/// libespeak-ng in process: what it renders is espeak-ng's own speech (compared with the `espeak-ng
/// --stdout` rendering of the same text by the correlation of their envelopes, not by length alone), in
/// the voice the text's script asks for.
@Suite(.serialized, .enabled(if: ExternalTool.find("espeak-ng") != nil, "needs espeak-ng (apt-get install espeak-ng)"))
struct SpeechSynthesizerTests {
    /// The 16-bit samples of `espeak-ng -v VOICE --stdout TEXT`.
    static func reference(_ text: String, voice: String) throws -> [Int16] {
        try SpeechReference.espeak(text, voice: voice)
    }

    static func rms(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    @Test func itReadsItsDataWhereTheLibraryWasBuiltToLook() throws {
        let speech = try SpeechSynthesizer.shared()
        #expect(speech.sampleRate == 22_050)
        #expect(speech.version.hasPrefix("1."), "\(speech.version)")
        #expect(speech.dataPath.hasSuffix("espeak-ng-data"), "\(speech.dataPath)")
        #expect(FileManager.default.fileExists(atPath: speech.dataPath + "/phontab"))
    }

    @Test func inProcessSpeechIsEspeakNgsOwnRendering() throws {
        let speech = try SpeechSynthesizer.shared()
        let text = "Title, by Artist"
        let ours = try speech.render(text, voice: "en")
        let theirs = try Self.reference(text, voice: "en")
        #expect(Self.rms(ours) > 500, "speech, not silence")
        let ratio = Double(ours.count) / Double(max(1, theirs.count))
        #expect(ratio > 0.95 && ratio < 1.05, "\(ours.count) samples against \(theirs.count)")
        let same = SpeechComparison.correlation(ours, theirs)
        #expect(same > 0.98, "correlation \(same)")
        // The comparison tells phrases apart: the same words in another order, or said twice, do not match.
        for other in ["Artist, by Title", "Title, by Artist. Title, by Artist", "Halo, by Beyoncé"] {
            let reference = try Self.reference(other, voice: "en")
            let different = SpeechComparison.correlation(ours, reference)
            #expect(different < 0.75, "correlation with '\(other)': \(different)")
        }
    }

    @Test(arguments: [("海辺のカフカ, by 村上", 4), ("Кино, by Виктор Цой", 3), ("Halo, by Beyoncé", 1)])
    func eachSegmentIsSpokenInTheVoiceItsScriptChose(_ phrase: String, _ count: Int) throws {
        let speech = try SpeechSynthesizer.shared()
        let parts = phrase.components(separatedBy: ", by ")
        let segments = VoiceChoice.nowPlaying(title: parts[0], artist: parts[1], fileName: "x.mp3")
        #expect(segments.count == count, "\(segments)")
        for segment in segments {
            let ours = try speech.render(segment.text, voice: segment.voice)
            let theirs = try Self.reference(segment.text, voice: segment.voice)
            let score = SpeechComparison.correlation(ours, theirs)
            #expect(score > 0.95, "\(segment): correlation \(score)")
            // In another voice the same text is other speech.
            let otherVoice = segment.voice == "en" ? "ru" : "en"
            let elsewhere = try Self.reference(segment.text, voice: otherVoice)
            let wrong = SpeechComparison.correlation(ours, elsewhere)
            #expect(wrong < score, "\(segment) against \(otherVoice): \(wrong)")
        }
    }

    @Test func aVoiceThatDoesNotExistIsAnErrorNamingIt() throws {
        let speech = try SpeechSynthesizer.shared()
        var caught: EspeakError?
        do { _ = try speech.render("hello", voice: "no-such-voice") } catch { caught = error }
        #expect(caught?.isVoiceNotFound == true, "\(String(describing: caught))")
        #expect(caught?.description.contains("no-such-voice") == true)
        // And the synthesizer still works afterwards.
        let after = try speech.render("hello", voice: "en")
        #expect(Self.rms(after) > 500)
    }
}
