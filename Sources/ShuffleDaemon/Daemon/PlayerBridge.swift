import Dispatch
import Glibc
import LibLinux
import MusicLibrary
import Playback
import ShuffleCore
import Synchronization

/// `AppliancePlayer` over `Playback.PlaybackEngine`: one engine per stick, started on plug-in and quit
/// (which saves the resume point) on unplug or shutdown.
final class PlayerBridge: AppliancePlayer, @unchecked Sendable {
    // @unchecked: the `var`s (`device`, `cap`, `engine`, `finished`, `volumeRef`, `level`, `standalone`,
    // `generation`, `cachedQueue`) are touched only on the event loop's thread; what the engine's callbacks
    // touch on other threads (`announced`, `speaking`, `live`) is behind a lock (`Locked`).
    /// How long stopping may wait for the engine to store its resume point.
    static let stopTimeout = 0.8

    private let loop: EventLoop
    private let store: LibraryStore
    /// The PCM of the output in use (`OutputService` chooses it).
    private var device: String
    /// Whether the daemon chooses among outputs (`output` lines): the engine then reports a failed device
    /// rather than trying it again by itself.
    private let choosesOutputs: Bool
    private let mixer: String?
    private let steps: Int
    /// The cap in force, as the daemon's machine decided it (`setCap`).
    private var cap: Int
    private let duckDecibels: Double
    /// How often the resume point is stored while playing (`resume-save`).
    private let saveInterval: Duration
    private let shuffle: ShuffleSettings
    private let loudness: LoudnessSettings
    private let log: Log
    private var engine: PlaybackEngine?
    private var finished: DispatchSemaphore?
    private var volumeRef: VolumeRef?
    /// The level as the daemon's machine decided it (the start ramp's target).
    private var level = 0
    private let announced = Locked<CatalogTrack?>(nil)
    /// Says phrases while no engine runs (between sticks, before the first track).
    private var standalone: SpeechOutput
    /// The phrase the engine is saying and what to call when it ends.
    private let speaking = Locked<SpeechCallbacks?>(nil)
    /// Counts engines; reports from an engine that was stopped (a number no longer `live`) are dropped, so a
    /// late "device failed" from the old engine cannot put the daemon in error after a restart.
    private var generation = 0
    private let live = Locked<Int>(0)
    /// The engine's order as last fetched, with its version (fetched again only when the version changes).
    private var cachedQueue: MPDQueue?

    /// Creates the player; nothing plays until `start`.
    init(loop: EventLoop, store: LibraryStore, config: DaemonConfig, log: Log) {
        self.loop = loop
        self.store = store
        choosesOutputs = !config.outputs.isEmpty
        // With a list, nothing until `OutputService` has chosen (an empty name opens nothing).
        self.device = choosesOutputs ? "" : config.device
        self.mixer = config.mixer
        self.steps = config.volumeSteps
        self.cap = config.maxVolume
        self.duckDecibels = Double(config.duckDecibels)
        saveInterval = .seconds(config.resumeSaveSeconds)
        self.shuffle = config.shuffle
        self.loudness = config.loudness
        self.log = log
        standalone = SpeechOutput(device: device)
    }

    func useDevice(_ pcm: String) {
        guard pcm != device else { return }
        device = pcm
        standalone.stop()
        standalone = SpeechOutput(device: pcm)
        engine?.useDevice(pcm)
    }

    func start(
        _ stick: DaemonMachine.Stick, selection: PlaySelection, paused: Bool, level: Int, rampIn: Bool,
        report: @escaping @Sendable (PlayerReport) -> Void
    ) {
        stop()
        // The music takes the device over from a phrase said without it.
        standalone.stop()
        let store = self.store
        let root = PathBytes(stick.mountPoint)
        // Records where the stick is mounted now (and that it is the latest played), so the catalog's
        // absolute paths are right even when the stick comes back under another name.
        let reference = blocking(timeout: 5) {
            try await store.perform { database throws(LibraryError) -> VolumeRef in
                try database.volume(key: stick.id, root: root, now: Int64(time(nil)))
            }
        }
        guard let reference else {
            log.error("cannot open the index of \(stick.mountPoint)")
            return
        }
        volumeRef = reference
        self.level = level
        var configuration = PlaybackConfiguration(
            device: device, mixer: mixer, volume: rampIn ? 0 : level, scale: VolumeScale(steps: steps))
        configuration.duckDecibels = duckDecibels
        configuration.paused = paused
        configuration.saveInterval = saveInterval
        // At boot the daemon starts beside udev's coldplug, and the sound card is the daemon's only once udev
        // has handed /dev/snd/* to the audio group: alsa-lib says "no such device" until then. The retries
        // come 50, 100, 150 ms ... apart, so the music follows udev closely (the image test's boot to music
        // measures it); a device that stays away is tried every 5 s.
        configuration.firstRetryDelay = .milliseconds(50)
        configuration.retriesDevice = !choosesOutputs
        let speaking = self.speaking
        configuration.shuffle = shuffle
        /// The name said when nothing of it plays (a station or a book; nil: the whole stick).
        let name: String?
        switch selection {
        case .music(let station, let mode, _):
            if let mode { configuration.shuffle.mode = mode }
            name = station?.name
        case .book(let book, _):
            // A book plays its parts in order and holds still at its end.
            configuration.shuffle.mode = .inOrder
            configuration.pausesAtEnd = true
            name = book.name
        }
        configuration.loudness = loudness.playing(configuration.shuffle.mode)
        let announced = self.announced
        announced.withLock { $0 = nil }
        generation += 1
        let mine = generation
        let live = self.live
        live.withLock { $0 = mine }
        let engine = PlaybackEngine(
            catalog: Self.catalog(of: store, for: reference, selection), configuration: configuration,
            log: log,
            notify: { notice in
                guard live.withLock({ $0 }) == mine else { return }
                switch notice {
                case .deviceFailed(let reason): report(.deviceFailed(reason))
                case .outputFailed(let device, let message, let gone):
                    report(.outputFailed(device: device, reason: message, gone: gone))
                case .deviceRecovered: report(.deviceRecovered)
                case .trackSkipped: report(.trackSkipped)
                case .reachedEnd: report(.bookFinished)
                case .speechStarted(let id, let at):
                    speaking.withLock { $0?.id == id ? $0 : nil }?.started(at)
                case .speechEnded(let id):
                    let ended = speaking.withLock { current -> SpeechCallbacks? in
                        guard let pending = current, pending.id == id else { return nil }
                        current = nil
                        return pending
                    }
                    ended?.ended()
                }
            }
        ) { track, at in
            announced.withLock { $0 = track }
            report(.trackStarted(at: at))
        }
        self.engine = engine
        cachedQueue = nil
        let finished = DispatchSemaphore(value: 0)
        self.finished = finished
        let log = self.log
        Task(executorPreference: engine.executor) {
            do {
                _ = try await engine.run()
            } catch let error as PlaybackError {
                log.warning("playing \(stick.mountPoint) stopped: \(error)")
                switch error {
                case _ where live.withLock({ $0 }) != mine: break  // stopped meanwhile: nothing to report
                case .deviceUnavailable: report(.deviceFailed("\(error)"))
                case .libraryVanished: report(.libraryVanished(mountPoint: stick.mountPoint))
                case .nothingPlayable:
                    report(name.map { PlayerReport.stationEmpty($0) } ?? .nothingPlayable(volumeID: stick.id))
                case .decoderUnavailable: break
                }
            } catch {
                log.warning("playing \(stick.mountPoint) stopped: \(error)")
            }
            finished.signal()
        }
        if rampIn { ramp(to: level, from: 0) }
    }

    /// The catalog the engine plays: the stick's music (a station's songs), or a book's parts.
    static func catalog(of store: LibraryStore, for volume: VolumeRef, _ selection: PlaySelection) -> VolumeCatalog {
        switch selection {
        case .music(let station, _, let rules):
            store.catalog(for: volume, selection: station.map { .station($0, rules) } ?? .music(rules))
        case .book(let book, let fromStart): store.catalog(for: volume, selection: .book(book, fromStart: fromStart))
        }
    }

    /// Raises the level one step at a time over about a second: start-up never jumps in loud.
    private func ramp(to target: Int, from current: Int) {
        guard current < target, let engine else {
            loop.setTimer(.ramp, at: nil)
            return
        }
        let next = current + 1
        engine.send(.setVolume(next))
        loop.setTimer(.ramp, after: .seconds(1) / max(1, target)) { [weak self] in
            guard let self, self.engine === engine else { return }
            self.ramp(to: self.level, from: next)
        }
    }

    func tracksAdded() { engine?.libraryChanged() }

    func stop() {
        loop.setTimer(.ramp, at: nil)
        guard let engine else { return }
        live.withLock { $0 = 0 }
        engine.quit()
        // quit() stores the resume point before the engine ends; wait for it, briefly.
        _ = finished?.wait(timeout: .now() + Self.stopTimeout)
        self.engine = nil
        cachedQueue = nil
        finished = nil
        volumeRef = nil
        announced.withLock { $0 = nil }
    }

    // Explicit play and pause, never a toggle: a toggle that met a player already in the other state
    // (after a skip, which plays) would invert play and pause for good.
    func pause() { engine?.send(.pause) }
    func resume() { engine?.send(.play) }
    func next() { engine?.send(.next) }
    func previous() { engine?.send(.previous(positionMs: 0)) }
    func seek(by milliseconds: Int64) { engine?.send(.seek(positionMs: 0, byMs: milliseconds, durationMs: 0)) }
    func seek(to milliseconds: Int64) { engine?.send(.seekTo(positionMs: milliseconds, durationMs: 0)) }

    func play(position: Int) { engine?.send(.jump(position: position)) }
    func setMuted(_ muted: Bool) { engine?.send(.mute(muted)) }
    func reshuffle() { engine?.send(.reshuffle) }

    func queue() -> MPDQueue? {
        guard let engine, let now = engine.snapshot() else { return nil }
        // The ids are converted once per version of the order, not on every status.
        if cachedQueue?.version == now.orderVersion {
            cachedQueue?.cursor = now.state.cursor
        } else {
            cachedQueue = MPDQueue(
                version: now.orderVersion, ids: now.state.order.map(\.rawValue), cursor: now.state.cursor)
        }
        return cachedQueue
    }

    func setLevel(_ level: Int) {
        self.level = level
        if !loop.hasTimer(.ramp) { engine?.send(.setVolume(level)) }
    }

    func setCap(_ cap: Int) { self.cap = cap }

    func speakable() -> Announcer.NowPlaying? {
        guard engine != nil, let track = announced.withLock({ $0 }) else { return nil }
        let name = track.relativePath.bytes.split(separator: UInt8(ascii: "/")).last.map {
            PathBytes(Array($0)).display
        }
        return Announcer.NowPlaying(
            title: track.tags.title, artist: track.tags.artist, fileName: name ?? track.relativePath.display)
    }

    func speak(
        _ clip: SpeechClip, started: @escaping @Sendable (ContinuousClock.Instant) -> Void,
        ended: @escaping @Sendable () -> Void
    ) {
        var clip = clip
        // With a hardware mixer the mixer already sets the level of everything, speech included.
        clip.gain = mixer != nil ? 1 : VolumeScale(steps: steps, cap: cap).speechGain(level)
        if let engine {
            speaking.withLock { $0 = SpeechCallbacks(id: clip.id, started: started, ended: ended) }
            engine.speak(clip)
        } else {
            let log = self.log
            standalone.say(clip, started: started) { error in
                if let error { log.warning("cannot speak: \(error.message)") }
                ended()
            }
        }
    }

    func stopSpeaking() {
        speaking.withLock { $0 = nil }
        engine?.stopSpeaking()
        standalone.stop()
    }

    func now() -> NowPlaying? {
        guard let engine, let track = announced.withLock({ $0 }) else { return nil }
        // Under a lock, never a wait for the engine's executor: status answers come at the loop's own pace.
        guard let snapshot = engine.snapshot() else { return nil }
        let state = snapshot.state
        let output = snapshot.outputPaused
        let position = state.currentTrack == track.id ? state.positionMs : 0
        // The track heard and its place in the order, together: between a jump and the new track's first
        // samples the cursor is already on the new place while the old track still plays.
        let cursor = state.order.indices.contains(state.cursor) ? state.cursor : max(0, state.order.count - 1)
        let place =
            state.order.isEmpty || state.order[cursor] == track.id
            ? cursor : state.order.firstIndex(of: track.id) ?? cursor
        return NowPlaying(
            song: SongInfo(
                id: track.id.rawValue, path: track.relativePath.display, title: track.tags.title,
                artist: track.tags.artist, album: track.tags.album, durationMs: track.stream.durationMs,
                albumArtist: track.tags.albumArtist, genre: track.tags.genre, track: track.tags.track,
                disc: track.tags.disc, year: track.tags.year, format: track.stream.mpdFormat),
            positionMs: position, queuePosition: place, queueLength: state.order.count,
            sampleRate: track.stream.sampleRate, channels: track.stream.channels, playerPaused: state.paused,
            outputPaused: output, chapters: track.tags.chapters)
    }
}

/// What to call as the phrase the engine says starts and ends.
private struct SpeechCallbacks: Sendable {
    var id: UInt64
    var started: @Sendable (ContinuousClock.Instant) -> Void
    var ended: @Sendable () -> Void
}
