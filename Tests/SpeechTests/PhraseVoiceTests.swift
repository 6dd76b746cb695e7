import Foundation
import Glibc
import HelperWire
import ShuffleCore
import ShuffleTestSupport
import Speech
import Testing

/// Phrases rendered by the real `shufflebox-speech` built beside these tests: joined segments, voice fallback,
/// the cache, and the renderer kept apart from the player. (espeak-ng's renderings of
/// one text differ by a few samples from call to call, so lengths are compared within 1 %.)
@Suite(.serialized) struct PhraseVoiceTests {
    private static func close(_ a: Int, _ b: Int) -> Bool { abs(a - b) <= max(a, b) / 100 }

    @Test func aPhraseIsItsSegmentsRenderedInTurn() throws {
        let voice = PhraseVoice()
        let halo = try voice.render([SpokenSegment("Halo,", voice: "en")]).samples
        let kino = try voice.render([SpokenSegment("Кино", voice: "ru")]).samples
        let both = try voice.render([SpokenSegment("Halo,", voice: "en"), SpokenSegment("Кино", voice: "ru")]).samples
        let joined = Self.close(both.count, halo.count + kino.count)
        #expect(joined, "\(both.count) samples, segments \(halo.count) + \(kino.count)")
        #expect(halo.count > 22_050 / 10, "a word is more than a tenth of a second")
    }

    @Test func aVoiceEspeakDoesNotHaveFallsBackToEnglish() throws {
        let voice = PhraseVoice()
        let english = try voice.render([SpokenSegment("Maximum volume", voice: "en")]).samples
        let unknown = try voice.render([SpokenSegment("Maximum volume", voice: "xq")]).samples
        let same = Self.close(unknown.count, english.count) && unknown.contains { abs(Int($0)) > 1_000 }
        #expect(same, "\(unknown.count) samples for an unknown voice, \(english.count) in English")
    }

    /// The children of this process whose command is `shufflebox-speech` (the kernel's name is cut at 15 bytes).
    private static func speechHelpers() -> [Int32] {
        let me = getpid()
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = Int32(entry),
                let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                status.contains("Name:\tshufflebox-spee"), status.contains("\nPPid:\t\(me)\n")
            else { return nil }
            return pid
        }
    }

    /// espeak-ng runs in `shufflebox-speech`, started for a phrase and ended (and reaped) with it: nothing of
    /// it stays beside the player once the phrase is rendered.
    @Test func theRendererIsAProcessThatLastsOnePhrase() throws {
        let voice = PhraseVoice()
        let rendering = try voice.render([SpokenSegment("Кино, by Anna", voice: "ru"), SpokenSegment("again", voice: "en")])
        #expect(rendering.sampleRate == 22_050)
        #expect(rendering.samples.contains { abs(Int($0)) > 1_000 }, "it speaks")
        #expect(Self.speechHelpers().isEmpty, "no shufflebox-speech left running: \(Self.speechHelpers())")
    }

    @Test func aMissingRendererSaysWhatToDo() throws {
        let folder = try TemporaryDirectory()
        let voice = PhraseVoice(program: folder.appending("no-such-renderer").path)
        #expect {
            try voice.render([SpokenSegment("Maximum volume", voice: "en")])
        } throws: { error in
            "\(error)".contains("cannot start the speech renderer") && "\(error)".contains("reinstall Shufflebox")
        }
    }

    /// A renderer that never answers (espeak-ng stuck on a crafted title) costs that phrase after the time
    /// allowed, and is ended: the next phrase starts a new one.
    @Test func aRendererThatHangsIsEndedAfterItsTime() throws {
        let folder = try TemporaryDirectory()
        let stuck = folder.appending("stuck-renderer")
        try "#!/bin/sh\nexec sleep 30\n".write(to: stuck, atomically: true, encoding: .utf8)
        chmod(stuck.path, 0o755)
        let voice = PhraseVoice(program: stuck.path, timeoutMs: 300)
        #expect {
            try voice.render([SpokenSegment("Maximum volume", voice: "en")])
        } throws: { error in
            "\(error)".contains("did not answer within 0.3 s and was ended") && "\(error)".contains("'Maximum volume'")
        }
    }

    /// The player's executable does not load libespeak-ng (the renderer does): espeak-ng's code and the
    /// libraries it brings (PulseAudio's client, X11's, systemd's) stay out of the daemon's memory.
    @Test func espeakIsLinkedByTheRendererAndNotByThePlayer() throws {
        let player = try Run.program("/usr/bin/ldd", [HelperProcess.besideExecutable("shufflebox")])
        let renderer = try Run.program("/usr/bin/ldd", [HelperProcess.besideExecutable("shufflebox-speech")])
        #expect(player.status == 0 && renderer.status == 0, "\(player.stderr) \(renderer.stderr)")
        #expect(renderer.stdout.contains("libespeak-ng"), "\(renderer.stdout)")
        #expect(!player.stdout.contains("libespeak-ng"), "\(player.stdout)")
        #expect(!player.stdout.contains("libpulse"), "\(player.stdout)")
    }

    @Test func theRendererRefusesToRunByHand() throws {
        let run = try Run.program(HelperProcess.besideExecutable("shufflebox-speech"), [])
        #expect(run.status == 2)
        #expect(run.stderr.contains("not to be run by hand"))
    }

    @Test func aPhraseSaidAgainComesFromTheCache() throws {
        let voice = PhraseVoice()
        let phrase = [SpokenSegment("Loading music, cached", voice: "en")]
        #expect(!voice.isCached(phrase))
        let first = try voice.render(phrase)
        #expect(voice.isCached(phrase))
        let again = try voice.render(phrase) == first
        #expect(again)
    }
}
