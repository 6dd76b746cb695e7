import ShuffleCore
import Testing

/// What the box says and when: every message, its limits, and the configuration's say over it.
@Suite struct AnnouncerTests {
    private static func text(_ effects: [Announcer.Effect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .say(let phrase, _): phrase.map(\.text).joined(separator: " | ")
            case .stop: "<stop>"
            }
        }
    }

    private static func run(
        _ events: [(Double, Announcer.Event)], settings: Announcer.Settings = .init()
    ) -> [[String]] {
        var announcer = Announcer(settings: settings)
        return events.map { time, event in text(announcer.handle(event, at: .milliseconds(Int(time * 1000)))) }
    }

    @Test func theSpeakGestureSaysTitleAndArtistAndASecondPressStopsIt() {
        let track = Announcer.NowPlaying(title: "Halo", artist: "Beyoncé", fileName: "01 Halo.mp3")
        let said = Self.run([
            (0, .speakRequested(track)), (1, .speakRequested(track)), (2, .speakRequested(track)),
            (3, .phraseEnded), (4, .speakRequested(track)),
        ])
        #expect(said == [["Halo, by Beyoncé"], ["<stop>"], ["Halo, by Beyoncé"], [], ["Halo, by Beyoncé"]])
    }

    @Test func withoutTagsTheFileNameIsSpokenAndWithNothingPlayingNothing() {
        let untagged = Announcer.NowPlaying(title: nil, artist: nil, fileName: "Track 07.flac")
        #expect(Self.run([(0, .speakRequested(untagged)), (1, .phraseEnded), (2, .speakRequested(nil))])
            == [["Track 07"], [], []])
    }

    @Test func titleAndArtistInOtherScriptsAreSpokenEachInItsVoice() {
        var announcer = Announcer()
        let effects = announcer.handle(
            .speakRequested(.init(title: "海辺のカフカ", artist: "Мумий Тролль", fileName: "x.mp3")), at: .zero)
        #expect(
            effects == [
                .say(
                    [
                        SpokenSegment("海辺", voice: "cmn"), SpokenSegment("のカフカ,", voice: "ja"),
                        SpokenSegment("by", voice: "en"), SpokenSegment("Мумий Тролль", voice: "ru"),
                    ], .nowPlaying)
            ])
    }

    @Test func aNewStickIsAnnouncedAndItsSongsCountedEveryThousandAtMostEveryTenSeconds() {
        let said = Self.run([
            (0, .indexingStarted(volumeID: "uuid:A")),
            (1, .indexProgress(volumeID: "uuid:A", playable: 999)),
            (2, .indexProgress(volumeID: "uuid:A", playable: 1_000)),  // within 10 s of the start: quiet
            (11, .indexProgress(volumeID: "uuid:A", playable: 1_500)),  // 1,000 not said yet: said now
            (12, .indexProgress(volumeID: "uuid:A", playable: 2_100)),  // only 1 s later
            (30, .indexProgress(volumeID: "uuid:A", playable: 2_200)),
            (31, .indexProgress(volumeID: "uuid:A", playable: 2_300)),  // same thousand
            (45, .indexed(volumeID: "uuid:A", playable: 2_345)),
        ])
        #expect(
            said == [
                ["Loading music"], [], [], ["1000 songs"], [], ["2000 songs"], [], ["2345 songs"],
            ])
    }

    @Test func aStickWithNothingPlayableSaysSoAndOneSongIsSingular() {
        #expect(
            Self.run([(0, .indexed(volumeID: "a", playable: 0)), (1, .indexed(volumeID: "b", playable: 1))])
                == [["No music found on this stick"], ["1 song"]])
    }

    @Test func switchingOffSaysGoodbyeUnlessTheConfigurationSilencesIt() {
        #expect(Self.run([(0, .poweringOff)]) == [["Goodbye"]])
        #expect(Self.run([(0, .batteryLow)]) == [["Battery low. Goodbye"]])
        var silent = Announcer.Settings()
        silent.texts.updateValue(nil, forKey: .poweringOff)  // `say-power-off = off`
        #expect(Self.run([(0, .poweringOff)], settings: silent) == [[]])
    }

    @Test func maximumVolumeIsSaidOncePerPressNotOnEveryRepeatStep() {
        let said = Self.run([
            (0, .volumeAtCap(press: 7)), (0.2, .volumeAtCap(press: 7)), (0.4, .volumeAtCap(press: 7)),
            (2, .volumeAtCap(press: 8)),
        ])
        #expect(said == [["Maximum volume"], [], [], ["Maximum volume"]])
    }

    @Test func aSkippedFileIsReportedAtMostOnceAMinuteAndAPulledStickAlways() {
        let said = Self.run([
            (0, .fileSkipped), (30, .fileSkipped), (59.9, .fileSkipped), (60, .fileSkipped),
            (61, .stickPulled), (62, .stickPulled),
        ])
        #expect(
            said == [
                ["Skipped a damaged song"], [], [], ["Skipped a damaged song"], ["The music stick was removed"],
                ["The music stick was removed"],
            ])
    }

    @Test func theLockAndTheSleepTimerSayWhatTheyDid() {
        let said = Self.run([
            (0, .lockChanged(locked: true)), (5, .lockChanged(locked: false)), (10, .sleepTimer(minutes: 30)),
            (11, .sleepTimer(minutes: 1)), (12, .sleepTimer(minutes: 0)), (13, .sleepTimer(minutes: nil)),
        ])
        #expect(
            said == [
                ["Buttons locked"], ["Buttons unlocked"], ["Sleep timer, 30 minutes"], ["Sleep timer, 1 minute"],
                ["Sleep timer, 1 minute"], ["Sleep timer off"],
            ])
    }

    @Test func messagesCanBeReplacedOrSwitchedOffAndSpeechAsAWhole() {
        var settings = Announcer.Settings()
        settings.language = "de"
        settings.texts[.loading] = "Musik wird geladen"
        settings.texts[.songs] = "{count} Lieder"
        settings.texts[.maximumVolume] = .some(nil)
        settings.texts[.nowPlaying] = "von"
        let track = Announcer.NowPlaying(title: "Halo", artist: "Beyoncé", fileName: "x.mp3")
        #expect(
            Self.run(
                [
                    (0, .indexingStarted(volumeID: "a")), (1, .indexed(volumeID: "a", playable: 1)),
                    (2, .volumeAtCap(press: 1)), (3, .speakRequested(track)),
                ], settings: settings)
                == [["Musik wird geladen"], ["1 Lieder"], [], ["Halo, von Beyoncé"]])
        var announcer = Announcer(settings: settings)
        let loading = announcer.handle(.indexingStarted(volumeID: "a"), at: .zero)
        #expect(loading == [.say([SpokenSegment("Musik wird geladen", voice: "de")], .loading)])

        settings.enabled = false
        #expect(
            Self.run([(0, .indexingStarted(volumeID: "a")), (1, .speakRequested(track)), (2, .fileSkipped)],
                settings: settings) == [[], [], []])
    }
}
