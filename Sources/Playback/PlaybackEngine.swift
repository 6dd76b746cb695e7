import LibALSA
import LibPThread
import ShuffleCore

/// Plays one library: ties the shuffle order and player machine (`PlayerMachine`), the audio thread and the
/// library (`TrackCatalog`) together, and stores the resume point on every track change, pause and volume
/// change, and every `saveInterval` while playing (a timer that exists only while playing).
///
/// Every input (keys, audio-thread news, timers) goes through one stream that `run()` consumes in order,
/// so the engine's state changes one step at a time even across its `await`s on the catalog.
public actor PlaybackEngine {
    /// Where the engine runs, and the executor to start its task on (`Task(executorPreference:)`): a serial
    /// queue of its own rather than Swift's global executor, which on Linux leaves a 1 Hz timer running.
    public nonisolated let executor: QueueExecutor
    private let catalog: any TrackCatalog
    private let configuration: PlaybackConfiguration
    private let sleeper: any Sleeper
    private let log: Log
    private let announce: @Sendable (CatalogTrack, ContinuousClock.Instant) -> Void
    private let notify: @Sendable (PlaybackNotice) -> Void
    private let inputs: AsyncStream<EngineInput>
    private let continuation: AsyncStream<EngineInput>.Continuation

    private var machine: PlayerMachine?
    /// Counts changes of the shuffle order (MPD's playlist version).
    private var orderVersion = 1
    /// The tracks started or queued and not yet over, as the catalog gave them: the engine otherwise
    /// holds only ids (the order), and reads a track from the catalog when it starts or queues it.
    private var loaded: [TrackID: CatalogTrack] = [:]
    private var audio: AudioThread?
    /// The hardware volume control, when one is configured and was found; volume then never touches samples.
    private var hardwareVolume: HardwareVolume?
    private var lastToken: UInt64 = 0
    /// The start token of the machine's current track.
    private var currentToken: UInt64 = 0
    private var tokenTracks: [UInt64: TrackID] = [:]
    /// Where the current start began, until the audio thread reports a position of its own.
    private var startPositionMs: Int64 = 0
    /// Start tokens whose line is printed once their first samples reach the device.
    private var pendingAnnouncement: UInt64?
    private var saveTask: Task<Void, Never>?
    private var saveGeneration = 0
    private var deviceAttempts = 0
    private var retryPositionMs: Int64 = 0
    /// The device played through (`configuration.device` until `useDevice`).
    private var deviceName: String
    /// Whether the device failed and, not retrying by itself, the engine waits for `useDevice`.
    private var awaitingDevice = false
    /// The device failure last reported through `notify` (nil while the device works).
    private var deviceFailure: String?
    /// Where the library lives, to tell a bad file from a vanished library.
    private var presence: LibraryPresence?
    private var ending: Result<PlayerFinish?, PlaybackError>?

    /// Creates an engine. `announce` is called with each track as its first samples reach the device (a track
    /// started paused: once it is open and held); `notify` when the device fails (once per distinct reason,
    /// while it is retried) and when it works again.
    public init(
        catalog: any TrackCatalog, configuration: PlaybackConfiguration, sleeper: (any Sleeper)? = nil,
        log: Log, notify: @escaping @Sendable (PlaybackNotice) -> Void = { _ in },
        announce: @escaping @Sendable (CatalogTrack, ContinuousClock.Instant) -> Void
    ) {
        let executor = QueueExecutor(label: "shufflebox.player")
        self.executor = executor
        self.catalog = catalog
        self.configuration = configuration
        deviceName = configuration.device
        self.sleeper = sleeper ?? QueueSleeper(executor: executor)
        self.log = log
        self.notify = notify
        self.announce = announce
        (inputs, continuation) = AsyncStream.makeStream(of: EngineInput.self)
    }

    /// The engine's actor runs on `executor`.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Passes a key or button press in. `previous` and `seek` get the measured position (and `seek` the
    /// track length) filled in.
    public nonisolated func send(_ event: PlayerEvent) {
        continuation.yield(.player(event, at: .now))
    }

    /// Tells the engine the library changed (after a rescan): new tracks join the unplayed part of the order,
    /// removed ones leave it.
    public nonisolated func libraryChanged() { continuation.yield(.rescanned) }

    /// Says `clip` over the music, which ducks under it (over silence while paused: the player stays paused),
    /// cutting off a phrase under way; `notify` tells `.speechEnded` when it has been said. The clip's gain is
    /// the caller's to choose (within the cap).
    public nonisolated func speak(_ clip: SpeechClip) { continuation.yield(.speak(clip)) }

    /// Stops the phrase under way; the music comes back.
    public nonisolated func stopSpeaking() { continuation.yield(.speak(nil)) }

    /// Plays through the PCM `name` from now on, from the place heard (the owner chose another output).
    public nonisolated func useDevice(_ name: String) { continuation.yield(.useDevice(name)) }

    /// Stores the resume point and stops; `run()` then returns nil.
    public nonisolated func quit() { continuation.yield(.quit) }

    /// What `published` holds: the state after the last input the engine handled, and what the position is
    /// worked out from.
    private struct Published: Sendable {
        var state: PlaybackState
        var orderVersion: Int
        var token: UInt64
        var durationMs: Int64?
        var position: PositionBox?
    }

    /// Refreshed after every input the engine handles, so that status answers read it under a lock instead of
    /// waiting for a turn on the engine's executor (two such hops per `status` were most of the control loop's
    /// time with 50 clients asking).
    private nonisolated let published = PThreadMutex<Published?>(nil)

    /// The state as of the last input handled, with the position heard now, the order's version, and whether
    /// the audio thread holds its output paused: from any thread, without waiting for the engine (nil before
    /// it runs). The order is the engine's own array, shared, not copied.
    public nonisolated func snapshot() -> (state: PlaybackState, orderVersion: Int, outputPaused: Bool?)? {
        guard var published = published.withLock({ $0 }) else { return nil }
        var outputPaused: Bool?
        if let heard = published.position?.current {
            outputPaused = heard.paused
            // As `currentPositionMs`: a token past this track's means it was heard to its end, gaplessly.
            if heard.token == published.token {
                published.state.positionMs = max(0, heard.positionMs)
            } else if heard.token > published.token, let duration = published.durationMs {
                published.state.positionMs = duration
            }
        }
        return (published.state, published.orderVersion, outputPaused)
    }

    private func publish() {
        guard let machine else { return }
        let durationMs = machine.order.current.flatMap { loaded[$0]?.stream.durationMs }
        let value = Published(
            state: machine.state(positionMs: startPositionMs), orderVersion: orderVersion, token: currentToken,
            durationMs: durationMs, position: audio?.position)
        published.withLock { $0 = value }
    }

    /// Returns once every input sent before it (`send`, `libraryChanged`) has been handled.
    public nonisolated func settled() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            if case .terminated = continuation.yield(.barrier(done)) { done.resume() }
        }
    }

    // MARK: - Running

    /// Plays until `--once` completes its cycle (returns `.cycleComplete`) or `quit()` (returns nil).
    /// Throws `PlaybackError` when nothing is playable or the device cannot be had (with `once`).
    public func run() async throws -> PlayerFinish? {
        // Sorted and unique, so that one seed gives one order whatever order the catalog lists tracks in.
        let ids = Self.sortedUnique(try await catalog.playableTrackIDs())
        guard !ids.isEmpty else { throw PlaybackError.nothingPlayable }
        presence = LibraryPresence(root: try await catalog.libraryRoot())
        let random = SplitMix64(seed: configuration.seed ?? SplitMix64.randomSeed())
        let stored = try await catalog.loadPlaybackState()
        let shuffle = configuration.shuffle
        let groups = shuffle.mode.needsGroups ? try await catalog.shuffleGroups() : ShuffleGroups()
        let order: ShuffleOrder
        var position: Int64 = 0
        if let stored, !stored.order.isEmpty {
            order = ShuffleOrder(
                restoring: stored.order, cursor: stored.cursor, library: ids, random: random, settings: shuffle,
                groups: groups)
            if order.current == stored.currentTrack { position = stored.positionMs }
        } else {
            order = ShuffleOrder(tracks: ids, random: random, settings: shuffle, groups: groups)
        }
        let volume = configuration.scale.clamp(configuration.volume ?? stored?.volume ?? VolumeScale.defaultStart)
        machine = PlayerMachine(
            order: order, volume: volume, scale: configuration.scale, once: configuration.once,
            pausesAtEnd: configuration.pausesAtEnd)
        let continuation = self.continuation
        if let control = configuration.mixer {
            hardwareVolume = HardwareVolume(device: configuration.device, control: control, log: log)
        }
        let startGain = hardwareVolume == nil ? configuration.scale.gain(volume) : 1.0
        hardwareVolume?.apply(gain: configuration.scale.gain(volume))
        do {
            let formats = configuration.sampleFormats.map { format -> PCMSampleFormat in
                switch format {
                case .s16: .s16
                case .s24: .s24
                case .s32: .s32
                }
            }
            audio = try AudioThread(
                device: configuration.device, formats: formats, gain: startGain,
                duckDecibels: configuration.duckDecibels
            ) { event in
                continuation.yield(.audio(event))
            }
        } catch {
            throw PlaybackError.decoderUnavailable(error.description)
        }
        if position > 0, let current = order.current {
            log.info("resuming track \(current) at \(position) ms")
        }
        await apply(.begin(positionMs: position, paused: configuration.paused), cut: true, at: .now)
        publish()
        for await input in inputs {
            let finished = await handle(input)
            publish()
            if finished { break }
        }
        saveTask?.cancel()
        audio?.join()
        switch ending {
        case .failure(let error): throw error
        case .success(let finish): return finish
        case nil: return nil
        }
    }

    /// Handles one input; returns true once the audio thread has closed.
    private func handle(_ input: EngineInput) async -> Bool {
        switch input {
        case .player(let event, let at):
            guard ending == nil else { return false }
            var event = event
            if case .previous = event { event = .previous(positionMs: currentPositionMs()) }
            if case .seek(_, let delta, _) = event {
                var duration: Int64 = 0
                if let id = machine?.order.current { duration = await load(id)?.stream.durationMs ?? 0 }
                event = .seek(positionMs: currentPositionMs(), byMs: delta, durationMs: duration)
            }
            if case .seekTo(let target, _) = event {
                var duration: Int64 = 0
                if let id = machine?.order.current { duration = await load(id)?.stream.durationMs ?? 0 }
                event = .seekTo(positionMs: target, durationMs: duration)
            }
            let cut: Bool
            switch event {
            case .next, .previous, .seek, .seekTo, .jump, .reshuffle: cut = true
            default: cut = false
            }
            let cursorBefore = machine?.order.cursor
            await apply(event, cut: cut, at: at)
            // A seek within the track restarts its audio but is not a new track: no second line for it.
            switch event {
            case .seek, .seekTo: if machine?.order.cursor == cursorBefore { pendingAnnouncement = nil }
            default: break
            }
        case .audio(let event):
            return await handle(event)
        case .saveTick(let generation):
            if generation == saveGeneration && ending == nil { await save() }
        case .retryDevice(let token):
            guard token == currentToken, ending == nil, let machine, let track = machine.order.current else { break }
            await start(track, positionMs: retryPositionMs, paused: machine.paused, cut: true, at: .now)
        case .useDevice(let name):
            guard ending == nil else { break }
            let positionMs = awaitingDevice ? retryPositionMs : currentPositionMs()
            awaitingDevice = false
            deviceName = name
            audio?.post(.device(name))
            guard let machine, let track = machine.order.current else { break }
            log.info("playing through '\(name)' from \(positionMs) ms")
            await start(track, positionMs: positionMs, paused: machine.paused, cut: true, at: .now)
        case .rescanned:
            guard ending == nil else { break }
            do {
                let ids = Self.sortedUnique(try await catalog.playableTrackIDs())
                let groups = configuration.shuffle.mode.needsGroups ? try await catalog.shuffleGroups() : nil
                await apply(.libraryChanged(ids, groups: groups), cut: true, at: .now)
            } catch {
                log.warning("could not read the library again: \(error)")
            }
        case .speak(let clip):
            if let clip { audio?.post(.speak(clip)) } else { audio?.post(.stopSpeaking) }
        case .quit:
            guard ending == nil else { break }
            await save()
            finish(.success(nil), drain: false)
        case .barrier(let done):
            done.resume()
        }
        return false
    }

    private func handle(_ event: AudioEvent) async -> Bool {
        log.log(.trace, "audio: \(event) (current start \(currentToken))")
        switch event {
        case .started(let token, let at, let latency):
            guard token == currentToken else { break }
            deviceAttempts = 0
            if deviceFailure != nil {
                deviceFailure = nil
                log.notice("audio device '\(deviceName)' works again")
                notify(.deviceRecovered)
            }
            if pendingAnnouncement == token, let id = tokenTracks[token], let track = loaded[id] {
                pendingAnnouncement = nil
                announce(track, at)
                log.debug("first samples of track \(id) handed to ALSA \(latency.milliseconds) ms after the request")
            }
        case .held(let token):
            // Opened, so not a broken file: the track is the one status names while paused.
            if token == currentToken, pendingAnnouncement == token, let id = tokenTracks[token],
                let track = loaded[id]
            {
                pendingAnnouncement = nil
                announce(track, .now)
            }
        case .continued(let ended, let token):
            guard ended == currentToken, ending == nil else { break }
            currentToken = token
            startPositionMs = 0
            await apply(.trackEnded(continued: true), cut: false, at: .now)
            if let playing = tokenTracks[token], let machine, playing != machine.order.current,
                let wanted = machine.order.current
            {
                await start(wanted, positionMs: 0, paused: machine.paused, cut: true, at: .now)
            }
        case .ended(let token):
            guard token == currentToken, ending == nil else { break }
            await apply(.trackEnded(continued: false), cut: false, at: .now)
        case .failed(let token, let reason, let cause, let positionMs):
            guard token == currentToken, ending == nil, let id = tokenTracks[token] else { break }
            await trackFailed(id, reason: reason, cause: cause, positionMs: positionMs)
        case .deviceFailed(let token, let message, let positionMs, let device, let gone):
            guard token == currentToken, ending == nil else { break }
            deviceAttempts += 1
            retryPositionMs = positionMs
            if !configuration.retriesDevice {
                awaitingDevice = true
                deviceFailure = message
                log.warning(message)
                notify(.outputFailed(device: device, message: message, gone: gone))
                break
            }
            if configuration.once && deviceAttempts >= configuration.onceDeviceAttempts {
                finish(.failure(.deviceUnavailable(device: configuration.device, message: message)), drain: false)
                break
            }
            let delay = retryDelay(attempt: deviceAttempts)
            // Said once per reason (the daemon shows it as its error state); the retries are debug lines.
            let level: Log.Level = deviceFailure == message ? .debug : .warning
            log.log(level, "\(message); trying again in \(delay.milliseconds) ms")
            if deviceFailure != message {
                deviceFailure = message
                notify(.deviceFailed(message))
            }
            let sleeper = self.sleeper
            let continuation = self.continuation
            Task(executorPreference: executor) {
                try? await sleeper.sleep(for: delay)
                continuation.yield(.retryDevice(token: token))
            }
        case .speechStarted(let id, let at):
            notify(.speechStarted(id: id, at: at))
        case .speechEnded(let id):
            notify(.speechEnded(id: id))
        case .closed:
            return true
        }
        return false
    }

    // MARK: - Effects

    /// A track could not be played. It is marked unplayable only when the decoder found nothing in it while
    /// the library is still there; a file that could not be read with the library still there (deleted or
    /// locked since the index was made) is skipped for now; a library that is gone, or failing reads, ends
    /// playing with the resume point kept on this track.
    private func trackFailed(_ id: TrackID, reason: String, cause: TrackFailure, positionMs: Int64) async {
        let path = loaded[id]?.relativePath.display ?? "track \(id)"
        let present = presence?.isPresent ?? true
        if present && cause == .noAudio {
            log.warning("skipping \(path): \(reason)")
            notify(.trackSkipped("\(path): \(reason)"))
            await apply(.trackFailed(id, reason: reason), cut: false, at: .now)
        } else if present && !cause.isMediaError {
            log.warning("skipping \(path) for now: \(reason)")
            await apply(.trackFailed(id, reason: reason), cut: false, at: .now, markUnplayable: false)
        } else {
            let root = presence?.root.display ?? "of this library"
            log.info("stopping: \(path) cannot be read (\(reason)) and the music folder \(root) is gone")
            startPositionMs = positionMs
            await save()
            finish(.failure(.libraryVanished(root: root)), drain: false)
        }
    }

    private func apply(
        _ event: PlayerEvent, cut: Bool, at: ContinuousClock.Instant, markUnplayable: Bool = true
    ) async {
        guard var machine else { return }
        let effects = machine.handle(event)
        // Same buffer when nothing changed, so this is cheap on every event but a change of order.
        if machine.order.order != self.machine?.order.order { orderVersion += 1 }
        self.machine = machine
        let starts = effects.contains { if case .start = $0 { true } else { false } }
        for effect in effects {
            switch effect {
            case .announce(let id):
                // A started track is announced once its audio flows (so a broken file prints no line);
                // a gapless continuation is already flowing, but only when it is the track the machine
                // moved to: after a rescan changed the order, the audio thread may have gone on with the
                // track queued before, and then the machine's track is started (and announced) instead.
                if !starts, tokenTracks[currentToken] == id, let track = loaded[id] { announce(track, .now) }
            case .start(let id, let positionMs, let paused):
                await start(id, positionMs: positionMs, paused: paused, cut: cut, at: at)
            case .queue(let id):
                if let id, let track = await load(id) {
                    lastToken += 1
                    tokenTracks[lastToken] = id
                    log.log(.trace, "queue \(lastToken): track \(id)")
                    audio?.post(
                        .queue(
                            QueuedTrack(
                                after: currentToken, token: lastToken, path: track.path.bytes,
                                loudness: loudnessGain(track))))
                } else {
                    audio?.post(.queue(nil))
                }
            case .pauseOutput:
                audio?.post(.pause)
                stopSaveTimer()
            case .resumeOutput:
                audio?.post(.resume)
                startSaveTimer()
            case .setGain(let gain, let ramp):
                if let hardwareVolume {
                    hardwareVolume.apply(gain: gain)
                } else {
                    audio?.post(.gain(gain, ramp: ramp))
                }
            case .markUnplayable(let id, let reason):
                loaded[id] = nil
                guard markUnplayable else { break }
                do {
                    try await catalog.markUnplayable(id, reason: reason)
                } catch {
                    log.warning("could not mark track \(id) unplayable: \(error)")
                }
            case .saveState:
                await save()
            case .finish(let reason):
                finish(reason == .nothingPlayable ? .failure(.nothingPlayable) : .success(reason), drain: true)
            case .reachedEnd:
                notify(.reachedEnd)
            }
        }
    }

    private func start(_ id: TrackID, positionMs: Int64, paused: Bool, cut: Bool, at: ContinuousClock.Instant) async {
        // Read afresh: the track may have been measured (its loudness) since it was last loaded, and each start
        // plays at its level as of now. The loaded copy stands in when the catalog cannot say.
        if let fresh = try? await catalog.track(id) { loaded[id] = fresh }
        guard let track = await load(id) else {
            // Gone from the library since the order was made (a rescan removed it): on to the next one.
            await apply(.trackFailed(id, reason: "no longer in the library"), cut: cut, at: at, markUnplayable: false)
            return
        }
        lastToken += 1
        tokenTracks = tokenTracks.filter { $0.key > currentToken }
        currentToken = lastToken
        tokenTracks[currentToken] = id
        // Only the tracks the audio thread may still play stay loaded.
        let live = Set(tokenTracks.values)
        loaded = loaded.filter { live.contains($0.key) }
        startPositionMs = positionMs
        pendingAnnouncement = currentToken
        log.log(.trace, "start \(currentToken): track \(id) at \(positionMs) ms")
        audio?.post(
            .start(
                token: currentToken, path: track.path.bytes, positionMs: positionMs, paused: paused, cut: cut,
                requestedAt: at, loudness: loudnessGain(track)))
        if paused { stopSaveTimer() } else { startSaveTimer() }
    }

    /// The track's loudness gain (linear) under the configured mode, target and pre-amp.
    private func loudnessGain(_ track: CatalogTrack) -> Double {
        let gain = LoudnessGain.decide(
            tags: track.tags, measured: track.loudness, album: track.albumLoudness, settings: configuration.loudness)
        log.log(
            .trace,
            "loudness of track \(track.id): \(gain.decibels) dB from \(gain.source.rawValue)"
                + (gain.peakLimited ? " (held by the peak)" : ""))
        return gain.linear
    }

    private func finish(_ result: Result<PlayerFinish?, PlaybackError>, drain: Bool) {
        guard ending == nil else { return }
        ending = result
        stopSaveTimer()
        audio?.post(.shutdown(drain: drain))
    }

    // MARK: - Resume point

    /// `ids` ascending without repeats.
    private static func sortedUnique(_ ids: [TrackID]) -> [TrackID] {
        var ids = ids
        ids.sort()
        var unique: [TrackID] = []
        unique.reserveCapacity(ids.count)
        for id in ids where unique.last != id { unique.append(id) }
        return unique
    }

    /// The track `id` from `loaded`, else from the catalog (then kept in `loaded`); nil when the catalog no
    /// longer has it or cannot be read.
    private func load(_ id: TrackID) async -> CatalogTrack? {
        if let track = loaded[id] { return track }
        do {
            guard let track = try await catalog.track(id) else { return nil }
            loaded[id] = track
            return track
        } catch {
            log.warning("could not read track \(id) from the library: \(error)")
            return nil
        }
    }

    private func currentPositionMs() -> Int64 {
        guard let heard = audio?.heard else { return startPositionMs }
        if heard.token == currentToken { return heard.positionMs }
        // The audio thread has already gone on, gaplessly, to a track queued after this one, and the
        // engine has not yet heard that this one ended: this track is over. Saving its start position
        // here would send a resume after a power cut back to the beginning of a finished track.
        if heard.token > currentToken, let id = machine?.order.current, let track = loaded[id] {
            return track.stream.durationMs
        }
        return startPositionMs
    }

    private func save() async {
        guard let machine else { return }
        do {
            try await catalog.savePlaybackState(machine.state(positionMs: currentPositionMs()))
        } catch {
            log.warning("could not store the resume point: \(error)")
        }
    }

    private func startSaveTimer() {
        stopSaveTimer()
        let generation = saveGeneration
        let interval = configuration.saveInterval
        let sleeper = self.sleeper
        let continuation = self.continuation
        saveTask = Task(executorPreference: executor) {
            while !Task.isCancelled {
                do { try await sleeper.sleep(for: interval) } catch { return }
                continuation.yield(.saveTick(generation: generation))
            }
        }
    }

    private func stopSaveTimer() {
        saveGeneration += 1
        saveTask?.cancel()
        saveTask = nil
    }

    /// The wait before the device's next try, after `attempt` (1, 2, ...) failed ones: `firstRetryDelay` times
    /// the attempt, up to `maxRetryDelay`. It grows linearly, not by doubling: at boot the device is ours only
    /// once udev hands it over, seconds after the first try, and a doubling wait would put up to its last
    /// wait of silence after that on the boot to music.
    private func retryDelay(attempt: Int) -> Duration {
        min(configuration.firstRetryDelay * max(1, attempt), configuration.maxRetryDelay)
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}

/// The engine's sleeper: waits on the engine's own queue (see `QueueExecutor.sleep(for:)`).
struct QueueSleeper: Sleeper {
    let executor: QueueExecutor

    func sleep(for duration: Duration) async throws { try await executor.sleep(for: duration) }
}
