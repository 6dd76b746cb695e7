import Dispatch
import LibLinux
import Playback
import ShuffleCore
import Speech

/// The box's voice: `Announcer` decides what to say, a serial queue of its own renders it with
/// `shufflebox-speech` (espeak-ng in a process of its own; never on the event loop's thread), and the player says it (mixed into the music, or straight
/// to the device when nothing plays). Confined to the event loop's thread, apart from the rendering.
final class Speaker: Service, @unchecked Sendable {
    // @unchecked: `announcer`, `nextID` and `speakingID` are touched only on the loop's thread; the render
    // queue hands its results back through `loop.post`.
    private var announcer: Announcer
    private let loop: EventLoop
    private let player: any AppliancePlayer
    private let log: Log
    /// Nil when speech is off.
    private let voice: PhraseVoice?
    private let queue = DispatchQueue(label: "shufflebox.speech")
    private var nextID: UInt64 = 0
    private var speakingID: UInt64?
    /// Who waits for which phrase to end (`handle(_:whenSaid:)`).
    private var afterPhrase: (id: UInt64, said: () -> Void)?
    let name = "voice"

    init(settings: Announcer.Settings, loop: EventLoop, player: any AppliancePlayer, log: Log) {
        announcer = Announcer(settings: settings)
        self.loop = loop
        self.player = player
        self.log = log
        voice = settings.enabled ? PhraseVoice() : nil
    }

    func start() throws(DaemonError) {}

    /// Tells the announcer what happened, and says what it decides. `whenSaid` is called once the phrase has
    /// been played (or could not be), at once when there is none; never when another phrase cuts it off.
    func handle(_ event: Announcer.Event, whenSaid: (() -> Void)? = nil) {
        let requestedAt = ContinuousClock.now
        var saying = false
        for effect in announcer.handle(event, at: now) {
            switch effect {
            case .stop:
                speakingID = nil
                player.stopSpeaking()
            case .say(let phrase, let message):
                saying = true
                if let whenSaid { afterPhrase = (nextID + 1, whenSaid) }
                say(phrase, message, requestedAt: requestedAt)
            }
        }
        if !saying { whenSaid?() }
    }

    /// Renders the phrase of `track` ahead (when it starts), so the speak gesture finds it in the cache.
    func prepare(_ track: Announcer.NowPlaying) {
        guard let voice, let phrase = announcer.phrase(for: track) else { return }
        queue.async { _ = try? voice.render(phrase) }
    }

    private func say(_ phrase: [SpokenSegment], _ message: Announcer.Message, requestedAt: ContinuousClock.Instant) {
        nextID += 1
        let id = nextID
        speakingID = id
        guard let voice else {
            ended(id)
            return
        }
        let log = self.log
        queue.async { [loop] in
            let rendering: Rendering
            do {
                rendering = try voice.render(phrase)
            } catch {
                log.warning("cannot say '\(phrase.map(\.text).joined(separator: " "))': \(error)")
                loop.post { [self] in self.ended(id) }
                return
            }
            loop.post { [self] in
                guard self.speakingID == id else { return }
                log.debug("saying (\(message.rawValue)) \(phrase.map(\.description).joined(separator: " | "))")
                let clip = SpeechClip(id: id, samples: rendering.samples, sampleRate: rendering.sampleRate, gain: 1)
                self.player.speak(clip) { at in
                    // The speak-latency figure (`make bench`), like the skip latency of tracks.
                    let ms = (at - requestedAt).components
                    let total = ms.seconds * 1000 + ms.attoseconds / 1_000_000_000_000_000
                    log.info(
                        "phrase \(id) (\(message.rawValue)): first samples handed to ALSA \(total) ms after the request"
                    )
                } ended: { [self] in
                    self.loop.post { self.ended(id) }
                }
            }
        }
    }

    private func ended(_ id: UInt64) {
        guard speakingID == id else { return }
        speakingID = nil
        _ = announcer.handle(.phraseEnded, at: now)
        if let waiting = afterPhrase, waiting.id == id {
            afterPhrase = nil
            waiting.said()
        }
    }

    private var now: Duration { loop.now }
}
