import Buttons
import Glibc
import LibLinux
import ShuffleCore

/// The running appliance: the pure `DaemonMachine` plus the shell that carries out its effects (the
/// library, the player, the control socket, systemd) and feeds it events (mounts, signals, reports,
/// clients). Confined to the event loop's thread.
final class Appliance: MPDBackend, @unchecked Sendable {
    // @unchecked: every member is touched only on the event loop's thread. Reports from the indexer
    // and audio threads reach it through `loop.post`, whose closures run on that thread.
    private let loop: EventLoop
    private var machine: DaemonMachine
    private var config: DaemonConfig
    private let reloadConfig: () throws(ConfigError) -> DaemonConfig
    private let library: any ApplianceLibrary
    private let player: any AppliancePlayer
    /// `albumart` and `readpicture`, read from the stick on their own thread.
    private let pictures = PictureReader()
    private var mounts: MountWatcher
    private let signals: SignalPipe
    private let notifier: SystemdNotifier?
    private var server: ControlServer?
    private var buttons: ButtonDriver?
    private var light: StatusLight?
    private var speaker: Speaker?
    /// Which sound device plays.
    private var outputs: OutputService?
    /// Whether the machine was told that no output works (and so must hear when one does).
    private var outputError = false
    /// New sticks being indexed, whose progress the voice counts.
    private var announcedIndexing: Set<String> = []
    /// When volume-up last arrived (monotonic ns) and the press it belonged to: a hold's repeats are one press.
    private var lastVolumeUp: (at: UInt64, press: UInt64) = (0, 0)
    private var log: Log
    private let startedAt = TimerFD.now()
    /// Nanoseconds played before the current stretch of playing, and when that stretch began (`stats` playtime).
    private var playedBefore: UInt64 = 0
    private var playingSince: UInt64?
    private var trackCount: [String: Int] = [:]
    /// The queue version idle clients last heard about.
    private var lastQueueVersion = 0
    /// The stick whose listing is read once its first track starts (reading it sooner, on the store's
    /// queue, would hold up the player's own first reads, and a known stick resumes within ~200 ms).
    private var listingWanted: String?
    /// The stick whose listing is read when its index run ends (a known stick, its first samples out).
    private var listingAfterIndex: String?
    /// The sticks whose listing is being read now.
    private var listingsUnderWay: Set<String> = []
    /// Earliest time (monotonic ns) the shuffle may grow again while a stick is being indexed.
    private var nextGrowth: UInt64 = 0
    /// How often the shuffle grows while indexing.
    static let growthInterval: UInt64 = 3_000_000_000
    /// When the latest stick's mount was seen, until its first sample is played (for the log and benchmarks).
    private var mountSeenAt: ContinuousClock.Instant?
    /// Set when a signal asked the daemon to stop.
    private(set) var stopping = false
    /// The profile for children's button lock, as stored in `lockPath`.
    private var lock = ButtonLock()
    /// Where the lock is stored (the state folder), nil when there is none (tests of the shell alone).
    private let lockPath: String?
    /// The sleep timer's fade still to come, and when it began (monotonic ns); empty when none runs.
    private var fadeSteps: [SleepFade.Step] = []
    private var fadeStart: UInt64 = 0
    /// Each stick's stations and settings (its `shufflebox.txt`, read when it is mounted), by volume id.
    private var sticks: [String: StickStations] = [:]

    /// Builds the appliance; nothing runs until `start()`.
    init(
        loop: EventLoop, config: DaemonConfig, reloadConfig: @escaping () throws(ConfigError) -> DaemonConfig,
        library: any ApplianceLibrary, player: any AppliancePlayer, log: Log, stateDirectory: String? = nil
    ) throws(DaemonError) {
        lockPath = stateDirectory.map { $0 + "/buttons.lock" }
        if let lockPath, let bytes = try? FileSystem.contents(of: lockPath, limit: 64) {
            lock = ButtonLock(fileText: String(decoding: bytes, as: UTF8.self))
            if lock.locked { log.notice("the buttons are locked (hold the lock chord to unlock)") }
        }
        self.loop = loop
        self.config = config
        self.reloadConfig = reloadConfig
        self.library = library
        self.player = player
        self.log = log
        machine = DaemonMachine(settings: .init(config))
        mounts = try MountWatcher(roots: config.watchedRoots)
        signals = try SignalPipe()
        notifier = SystemdNotifier()
    }

    /// Opens the socket, reads the mount table, resumes, and tells systemd it is ready.
    func start(socketPath: String) throws(DaemonError) {
        server = try ControlServer(
            loop: loop, path: socketPath, tcp: config.tcp, timeoutSeconds: config.connectionTimeoutSeconds,
            log: log, backend: self)
        loop.watch(signals.descriptor, events: Int16(POLLIN)) { [unowned self] _ in
            for number in self.signals.take() { self.received(signal: number) }
        }
        loop.watch(mounts.descriptor, events: Int16(POLLPRI)) { [unowned self] _ in self.mountTableChanged() }
        let board = try ButtonDriver.loadBoard(config)
        try startButtons(board)
        openLight(board)
        speaker = Speaker(settings: config.speech, loop: loop, player: player, log: log.labelled("voice"))
        let outputs = OutputService(loop: loop, outputs: config.outputList, log: log.labelled("outputs")) {
            [unowned self] effect in self.output(effect)
        }
        self.outputs = outputs
        outputs.start()
        library.onDatabaseReplaced { [loop] in loop.post { [weak self] in self?.databaseReplaced() } }
        let present = mounts.refresh().appeared.map(volume(for:))
        apply(machine.handle(.started(present: present, lastPlayed: library.lastPlayedVolume())))
        log.notice(
            "listening on \(socketPath)\(config.tcp.map { " and tcp \($0)" } ?? ""); library roots \(config.watchedRoots.joined(separator: ", "))"
        )
        notifier?.send("READY=1\nSTATUS=\(statusLine())")
        scheduleWatchdog()
    }

    /// The status light. A board's LED may come after the daemon started (leds-gpio is a module that
    /// udev's coldplug loads): a missing one is said at once, then looked for again (`UdevWait`).
    private func openLight(_ board: BoardConfig?, _ wait: UdevWait? = nil) {
        let log = self.log.labelled("light")
        switch StatusLight.open(configured: config.led, board: board, loop: loop, log: log) {
        case .light(let found):
            light = found
            // Found at start, the first state is shown with the rest of the start (`apply`).
            guard let wait else { return }
            log.notice("status light found \(wait.elapsedMs()) ms after the daemon started")
            found.show(machine.state)
        case .missing(let paths):
            var wait = wait ?? UdevWait()
            if wait.attempt == 0 {
                log.notice(
                    "no status light: no LED at \(paths.joined(separator: " or ")) yet; carrying on without it "
                        + "(it is taken if it appears within 2 minutes)")
            }
            if let at = wait.next() {
                loop.setTimer(.lightOpen, at: at) { [unowned self] in self.openLight(board, wait) }
            }
        case .none:
            break
        }
    }

    /// The board's buttons (config `board`), plus the scripted FIFO of `$SHUFFLEBOX_BUTTON_FIFO` (tests).
    private func startButtons(_ board: BoardConfig?) throws(DaemonError) {
        guard let board else { return }
        var extra: [any ButtonSource] = []
        if let fifo = Environment.value("SHUFFLEBOX_BUTTON_FIFO"), !fifo.isEmpty {
            extra.append(try ScriptedButtonSource(path: fifo, board: board))
        }
        buttons = ButtonDriver(loop: loop, board: board, extra: extra, log: log) { [unowned self] action in
            self.button(action)
        }
    }

    // MARK: - Events in

    private func received(signal number: Int32) {
        switch number {
        case SIGHUP:
            reload()
        default:
            log.notice("stopping on signal \(number)")
            notifier?.send("STOPPING=1")
            let started = ContinuousClock.now
            apply(machine.handle(.shutdown))
            light?.retire()
            outputs?.stop()
            server?.shutdown()
            library.close()
            stopping = true
            loop.stop()
            log.debug("saved and stopped in \(ContinuousClock.now - started)")
        }
    }

    private func reload() {
        do throws(ConfigError) {
            let new = try reloadConfig()
            let rootsChanged = new.watchedRoots != config.watchedRoots
            config = new
            log = Log(label: log.label, minimum: new.logLevel, sink: log.sink)
            apply(machine.handle(.configReloaded(.init(new))))
            if rootsChanged {
                mounts.setRoots(new.watchedRoots)
                mountTableChanged()
            }
        } catch {
            log.error("not reloading the configuration: \(error); keeping the running settings")
        }
    }

    private func mountTableChanged() {
        let change = mounts.refresh()
        // Any mount anywhere in the daemon's namespace wakes it once; the line tells such a wake from others.
        log.debug(
            "mount table changed: \(change.appeared.count) appeared, \(change.gone.count) gone under the library roots")
        for entry in change.gone {
            if entry.mountPoint.display == machine.active?.mountPoint { speaker?.handle(.stickPulled) }
            apply(machine.handle(.unmounted(mountPoint: entry.mountPoint.display)))
        }
        for entry in change.appeared {
            mountSeenAt = .now
            apply(machine.handle(.mounted(volume(for: entry))))
        }
    }

    /// A damaged database was replaced by an empty one while running: every stick present is taken as
    /// plugged in again, so it is indexed into the fresh database and plays as soon as a track is found.
    private func databaseReplaced() {
        let present = mounts.current
        for entry in present { apply(machine.handle(.unmounted(mountPoint: entry.mountPoint.display))) }
        for entry in present {
            mountSeenAt = .now
            apply(machine.handle(.mounted(volume(for: entry))))
        }
    }

    private func volume(for entry: MountEntry) -> DaemonMachine.Volume {
        let id = VolumeIdentity.identify(entry)
        let mountPoint = entry.mountPoint.display
        let known = library.describe(volumeID: id, mountPoint: mountPoint)
        let card = config.cardRoot.map { MountTable.isStrictlyBelow(entry.mountPoint, PathBytes($0)) } ?? false
        // The stick's own file: its stations, and settings that may only lower the box's.
        var stick = StickStations.read(mountPoint: mountPoint, log: log)
        stick.restore(known.station)
        if let first = stick.file.errors.first { speaker?.handle(.stickFileError(line: first.line)) }
        sticks[id] = stick
        return DaemonMachine.Volume(
            id: id, mountPoint: mountPoint, known: known.known, storedVolume: known.volume, card: card,
            limits: stick.file.settings)
    }

    private func indexReport(_ report: IndexReport, volumeID: String) {
        switch report {
        case .firstPlayable:
            apply(machine.handle(.firstPlayable(volumeID: volumeID)))
        case .progress(let playable):
            trackCount[volumeID] = playable
            if announcedIndexing.contains(volumeID) {
                speaker?.handle(.indexProgress(volumeID: volumeID, playable: playable))
            }
            // The player re-reads the whole catalog to grow its shuffle: at most every few seconds.
            if machine.active?.id == volumeID, TimerFD.now() >= nextGrowth {
                nextGrowth = TimerFD.now() + Self.growthInterval
                player.tracksAdded()
            }
            server?.notify([.database])
            // After a player that found none of the tracks before playable, these are tried.
            apply(machine.handle(.morePlayable(volumeID: volumeID)))
        case .finished(let playable, let changed):
            trackCount[volumeID] = playable
            if announcedIndexing.remove(volumeID) != nil {
                speaker?.handle(.indexed(volumeID: volumeID, playable: playable))
            }
            if machine.active?.id == volumeID {
                player.tracksAdded()
                // A run that wrote nothing leaves the listing as it was read (or is about to be, once the first
                // samples are out): reading it again would hold two listings at once (2 MiB at 10,000 songs) for
                // nothing, just when a known stick is plugged back.
                let coming = listingWanted == volumeID || listingsUnderWay.contains(volumeID)
                if listingAfterIndex == volumeID {
                    listingAfterIndex = nil
                    refreshListing(volumeID)
                } else if changed || (!coming && library.listing(volumeID: volumeID) == nil) {
                    refreshListing(volumeID)
                }
            }
            apply(machine.handle(.indexed(volumeID: volumeID, playable: playable)))
        case .failed(let reason):
            log.warning(reason)
            if listingAfterIndex == volumeID {
                listingAfterIndex = nil
                refreshListing(volumeID)
            }
            announcedIndexing.remove(volumeID)
            apply(machine.handle(.indexed(volumeID: volumeID, playable: trackCount[volumeID] ?? 0)))
        case .lengthsRefined:
            // Clients see the exact durations once the listing is read again.
            if machine.active?.id == volumeID { refreshListing(volumeID) }
        }
    }

    private func playerReport(_ report: PlayerReport) {
        switch report {
        case .trackStarted(let at):
            if let seen = mountSeenAt {
                mountSeenAt = nil
                // `at` is when the audio thread wrote them, not when this loop heard of it.
                let ms = (at - seen).components
                let total = ms.seconds * 1000 + ms.attoseconds / 1_000_000_000_000_000
                log.info("first sample of \(machine.active?.mountPoint ?? "the stick") \(total) ms after the mount")
            }
            apply(machine.handle(.trackStarted))
            if let track = player.speakable() { speaker?.prepare(track) }
            noticeQueueChange()
            if let volumeID = listingWanted {
                listingWanted = nil
                if machine.indexing.contains(volumeID) && machine.active?.known == true {
                    // A known stick's index run only looks its files over (under a second at 10,000) while
                    // it holds what the database knew of them: the listing is read once it is over, so that
                    // the two are never in memory together.
                    listingAfterIndex = volumeID
                } else {
                    refreshListing(volumeID)
                }
            }
        case .deviceFailed(let reason): apply(machine.handle(.deviceFailed(reason)))
        case .outputFailed(let device, let reason, let gone):
            outputs?.failed(pcm: device, reason: reason, gone: gone)
        case .deviceRecovered:
            outputError = false
            apply(machine.handle(.deviceRecovered))
        case .libraryVanished(let mountPoint):
            speaker?.handle(.stickPulled)
            apply(machine.handle(.unmounted(mountPoint: mountPoint)))
        case .trackSkipped: speaker?.handle(.fileSkipped)
        case .nothingPlayable(let volumeID): apply(machine.handle(.nothingPlayable(volumeID: volumeID)))
        case .stationEmpty(let name):
            // A station whose search finds no song would leave the box silent: the whole stick plays instead.
            guard let active = machine.active, sticks[active.id]?.current != 0 else { return }
            log.warning("station '\(name)' of \(active.mountPoint) finds no song; playing the whole stick")
            play(station: 0, of: active)
        }
    }

    // MARK: - Effects out

    /// Carries out what the outputs service decided.
    private func output(_ effect: OutputMachine.Effect) {
        switch effect {
        case .use(_, let pcm):
            player.useDevice(pcm)
            if outputError {
                outputError = false
                apply(machine.handle(.deviceRecovered))
            }
            server?.notify([.output])
        case .pause:
            apply(machine.handle(.action(.pause)))
        case .noOutput(let reason):
            outputError = true
            apply(machine.handle(.deviceFailed(reason)))
            server?.notify([.output])
        case .log(let level, let message):
            log.log(level, message)
        }
    }

    private func apply(_ effects: [DaemonMachine.Effect]) {
        for effect in effects {
            switch effect {
            case .startIndexing(let volume):
                let id = volume.id
                // A new stick is announced and counted; a known one re-indexes quietly.
                if !volume.known {
                    announcedIndexing.insert(id)
                    speaker?.handle(.indexingStarted(volumeID: id))
                }
                library.startIndexing(volume) { [loop] report in
                    loop.post { [weak self] in self?.indexReport(report, volumeID: id) }
                }
            case .stopIndexing(let id):
                library.stopIndexing(volumeID: id)
                // The stick went away: its listing is read again if it comes back, never held twice.
                library.forgetListing(volumeID: id)
                if listingAfterIndex == id { listingAfterIndex = nil }
            case .startPlayback(let volume, let paused, let level, let rampIn):
                let stick = sticks[volume.id] ?? StickStations()
                player.start(
                    volume, station: stick.playing, mode: stick.mode, paused: paused, level: level, rampIn: rampIn
                ) { [loop] report in
                    loop.post { [weak self] in self?.playerReport(report) }
                }
                server?.notify([.storedPlaylist])
                // Read once the first samples are out: the player's own start-up reads come first.
                listingWanted = volume.id
                if paused { refreshListing(volume.id) }
            case .stopPlayback: player.stop()
            case .pause: player.pause()
            case .resume: player.resume()
            case .next: player.next()
            case .previous: player.previous()
            case .seek(let delta): player.seek(by: delta)
            case .seekTo(let target): player.seek(to: target)
            case .playPosition(let position): player.play(position: position)
            case .reshuffle: player.reshuffle()
            case .mute(let on): player.setMuted(on)
            case .setVolume(let level): player.setLevel(level)
            case .notify(let subsystems): server?.notify(subsystems)
            case .log(let level, let message): log.log(level, message)
            }
        }
        scheduleIdlePowerOff()
        countPlayingTime()
        light?.show(machine.state)
        notifier?.send("STATUS=\(statusLine())")
    }

    /// Keeps `playedBefore` and `playingSince` in step with the state (no timer: read when `stats` asks).
    private func countPlayingTime() {
        let playing = machine.state == .playing
        if playing && playingSince == nil {
            playingSince = TimerFD.now()
        } else if !playing, let since = playingSince {
            playedBefore += TimerFD.now() - since
            playingSince = nil
        }
    }

    private func scheduleWatchdog() {
        guard let interval = notifier?.watchdogInterval else { return }
        loop.setTimer(.watchdog, at: TimerFD.now() + interval) { [unowned self] in
            self.notifier?.send("WATCHDOG=1")
            self.scheduleWatchdog()
        }
    }

    private func statusLine() -> String {
        let state = machine.state
        switch state {
        case .playing, .paused: return "\(state.name) \(machine.active?.mountPoint ?? "")"
        case .indexing: return "indexing \(machine.active?.mountPoint ?? "")"
        case .noLibrary: return "waiting for a stick under \(config.libraryRoots.joined(separator: ", "))"
        case .error(let reason): return "error: \(reason)"
        }
    }

    // MARK: - MPDBackend

    func snapshot() -> PlayerSnapshot {
        let playing = machine.state == .playing || machine.state == .paused
        let now = playing ? player.now() : nil
        let queue = playing ? player.queue() : nil
        let active = machine.active
        let counts = active.map { library.counts(volumeID: $0.id) } ?? LibraryCounts()
        let indexed = active.flatMap { trackCount[$0.id] } ?? 0
        var snapshot = PlayerSnapshot(
            state: machine.state, track: now?.song, positionMs: now?.positionMs ?? 0, volume: machine.volume,
            maxVolume: machine.effectiveSettings.maxVolume, volumeSteps: machine.settings.volumeSteps,
            libraryRoot: active?.mountPoint, tracks: max(counts.tracks, indexed, queue?.ids.count ?? 0),
            indexing: active.map { machine.indexing.contains($0.id) } ?? false, queuePosition: now?.queuePosition,
            sampleRate: now?.sampleRate ?? 0, channels: now?.channels ?? 0,
            uptimeSeconds: Int64((TimerFD.now() - startedAt) / 1_000_000_000), artists: counts.artists,
            albums: counts.albums, warning: library.warning, playerPaused: now?.playerPaused,
            outputPaused: now?.outputPaused)
        snapshot.playtimeMs = counts.playtimeMs
        snapshot.libraryUpdatedAt = counts.updatedAt
        snapshot.playedSeconds = Int64((playedBefore + (playingSince.map { TimerFD.now() - $0 } ?? 0)) / 1_000_000_000)
        // The player's catalog has no file times; the listing (in memory) has.
        if let active, let id = now?.song.id {
            snapshot.track?.modified = library.song(volumeID: active.id, id: id)?.modified
        }
        snapshot.outputEnabled = !machine.muted
        if let outputs {
            snapshot.outputs = outputs.statuses
            snapshot.outputLine = snapshot.outputs.first { $0.state == .inUse }.map { "\($0.name) \($0.summary)" }
        }
        if let active, let stick = sticks[active.id] {
            snapshot.station = stick.currentName
            // A station's queue holds its songs only: that is the playlist's length clients page through.
            if stick.current != 0, let queue { snapshot.queueLength = queue.ids.count }
        }
        // What the player applies: an `albums` station or stick plays album gain.
        let shuffleMode = active.flatMap { sticks[$0.id]?.mode } ?? config.shuffle.mode
        snapshot.replayGainMode = config.loudness.playing(shuffleMode).mode
        if let queue {
            snapshot.queueVersion = queue.version
            let next = queue.cursor + 1
            if queue.ids.indices.contains(next) { snapshot.nextSong = QueueEntry(position: next, id: queue.ids[next]) }
        }
        return snapshot
    }

    func queue() -> MPDQueue? {
        guard machine.state == .playing || machine.state == .paused else { return nil }
        return player.queue()
    }

    func song(id: Int64) -> SongInfo? {
        guard let active = machine.active else { return nil }
        return library.song(volumeID: active.id, id: id)
    }

    func forEachSong(in ids: ArraySlice<Int64>, _ body: (_ position: Int, _ song: SongInfo) -> Void) {
        guard let active = machine.active, let listing = library.listing(volumeID: active.id) else { return }
        for position in ids.indices {
            if let song = listing[id: ids[position]] { body(position, song) }
        }
    }

    func writeSongs(_ ids: ArraySlice<Int64>, tags: [MPDTag], into out: inout MPDWriter) {
        songWriter()?(ids, tags, &out)
    }

    func songWriter() -> MPDSongWriter? {
        guard let active = machine.active, let listing = library.listing(volumeID: active.id) else { return nil }
        return { ids, tags, out in listing.writeSongs(ids, tags: tags, into: &out) }
    }

    func librarySongs() -> SongList {
        guard let active = machine.active else { return SongList() }
        return library.songs(volumeID: active.id)
    }

    /// Reads the active stick's listing again in the background; clients hear of it when it is in.
    private func refreshListing(_ volumeID: String) {
        listingsUnderWay.insert(volumeID)
        library.refreshListing(volumeID: volumeID) { [loop] in
            loop.post { [weak self] in
                self?.listingsUnderWay.remove(volumeID)
                self?.server?.notify([.database, .playlist])
            }
        }
    }

    /// Tells idle clients when the shuffle order changed since last looked at.
    private func noticeQueueChange() {
        guard let version = queue()?.version else { return }
        if version != lastQueueVersion {
            lastQueueVersion = version
            server?.notify([.playlist])
        }
    }

    func perform(_ action: PlayerAction) -> MPDError? {
        if case .sleep(let seconds) = action {
            setSleep(seconds: seconds)
            return nil
        }
        // Someone asked for something: a fade under way gives the music back at its level.
        if loop.hasTimer(.sleepFade) { cancelFade() }
        let before = machine.state
        apply(machine.handle(.action(action)))
        switch action {
        case .setVolume, .changeVolume, .rescan, .setOutput, .sleep: return nil
        default:
            switch before {
            case .noLibrary: return MPDError(.noExist, "no library: plug in a USB stick with music")
            case .indexing:
                switch action {
                case .play, .pause, .toggle: return nil
                default: return MPDError(.noExist, "still looking for the first playable track")
                }
            case .error(let reason): return MPDError(.system, reason)
            default: return nil
            }
        }
    }

    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] {
        guard let active = machine.active else { return [] }
        return try library.search(volumeID: active.id, constraints, exact: exact)
    }

    /// The index answers on its own thread: the loop goes on serving buttons and other clients meanwhile.
    var searchesInBackground: Bool { true }

    func searchInBackground(
        _ constraints: [SearchConstraint], exact: Bool,
        done: @escaping @Sendable (Result<[SongInfo], MPDError>) -> Void
    ) {
        guard let active = machine.active else { return done(.success([])) }
        library.search(volumeID: active.id, constraints, exact: exact, done: done)
    }

    func picture(_ request: PendingPicture, done: @escaping @Sendable (Result<PictureChunk?, MPDError>) -> Void) {
        guard let active = machine.active else { return done(.failure(MPDError(.noExist, "No such song"))) }
        pictures.read(request, root: active.mountPoint, songs: library.songs(volumeID: active.id), done: done)
    }

    /// Volume-up actions closer together than this are one press held (hold-repeat comes every 150 ms).
    static let samePressNanoseconds: UInt64 = 400_000_000

    /// How far one seek-forward or seek-back action moves within the track.
    static let seekStepMs: Int64 = 5_000

    /// Handles a button gesture's action (on the loop thread), unless the lock refuses it.
    func button(_ action: ButtonAction) {
        switch lock.decide(action) {
        case .refuse(let refused):
            log.info("buttons locked: \(refused.rawValue) refused")
            light?.flashRefused()
            return
        case .changed(let locked):
            log.notice(locked ? "buttons locked" : "buttons unlocked")
            storeLock()
            light?.flashRefused()
            speaker?.handle(.lockChanged(locked: locked))
            return
        case .perform: break
        }
        switch action {
        case .playPause: _ = perform(.toggle)
        case .next: _ = perform(.next)
        case .previous: _ = perform(.previous)
        case .volumeUp:
            let now = TimerFD.now()
            let press = now - lastVolumeUp.at < Self.samePressNanoseconds ? lastVolumeUp.press : lastVolumeUp.press + 1
            lastVolumeUp = (now, press)
            if machine.volume >= machine.effectiveSettings.maxVolume { speaker?.handle(.volumeAtCap(press: press)) }
            _ = perform(.changeVolume(1))
        case .volumeDown: _ = perform(.changeVolume(-1))
        case .seekForward, .seekBack:
            // Each hold repeat skips this far, so holding the button scans through the track.
            guard case .playing = machine.state else { return }
            _ = perform(.seek(byMs: action == .seekForward ? Appliance.seekStepMs : -Appliance.seekStepMs))
        case .speak:
            speaker?.handle(.speakRequested(player.speakable()))
        case .sleep:
            let running = loop.hasTimer(.sleep) || loop.hasTimer(.sleepFade)
            setSleep(seconds: running ? 0 : config.sleepMinutes * 60)
        case .lock:
            break  // `lock.decide` above has toggled it
        case .nextStation: _ = chooseStation(.next)
        case .previousStation: _ = chooseStation(.previous)
        }
    }

    // MARK: - Stations

    func stations() -> [StationListing] {
        guard let active = machine.active, let stick = sticks[active.id] else { return [] }
        return stick.file.stations.enumerated().map { index, station in
            StationListing(name: station.name, modified: stick.modified, playing: index == stick.current)
        }
    }

    /// Plays a station of the playing stick from its own resume point, and says its name.
    func chooseStation(_ choice: StationChoice) -> MPDError? {
        guard let active = machine.active, let stick = sticks[active.id] else {
            return MPDError(.noExist, "no library: plug in a USB stick with music")
        }
        guard let index = choice.index(in: stick.file.stations, from: stick.current) else {
            let names = stick.file.stations.map(\.name).joined(separator: ", ")
            return MPDError(.noExist, "No such playlist (the stick's stations: \(names))")
        }
        if loop.hasTimer(.sleepFade) { cancelFade() }
        speaker?.handle(.stationChanged(name: stick.file.stations[index].name))
        guard index != stick.current else {
            apply(machine.handle(.action(.play)))  // the station playing: asking for it is asking for music
            return nil
        }
        log.notice("station \(stick.file.stations[index].name) of \(active.mountPoint)")
        play(station: index, of: active)
        return nil
    }

    /// Plays the station at `index` of the active stick's list from its own resume point, and stores the choice.
    private func play(station index: Int, of active: DaemonMachine.Volume) {
        guard var stick = sticks[active.id] else { return }
        stick.current = index
        sticks[active.id] = stick
        library.storeStation(stick.playing?.name, volumeID: active.id)
        apply(machine.handle(.stationChanged))
    }

    // MARK: - The profile for children

    /// Whether the buttons are locked (for status and tests).
    var buttonsLocked: Bool { lock.locked }

    /// Stores the lock (write, then rename over: a power cut leaves the old file or the new one).
    private func storeLock() {
        guard let lockPath else { return }
        let temporary = lockPath + ".new"
        let text = lock.fileText
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            log.warning("cannot store the button lock in \(lockPath): \(String(cString: strerror(errno)))")
            return
        }
        let written = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, text.utf8.count) }
        fsync(descriptor)
        close(descriptor)
        if written != text.utf8.count || rename(temporary, lockPath) != 0 {
            log.warning("cannot store the button lock in \(lockPath): \(String(cString: strerror(errno)))")
        }
    }

    /// Arms the sleep timer for `seconds` (one one-shot deadline on the loop's timerfd; 0 cancels it).
    private func setSleep(seconds: Int) {
        cancelFade()
        guard seconds > 0 else {
            if loop.hasTimer(.sleep) {
                log.notice("sleep timer cancelled")
                speaker?.handle(.sleepTimer(minutes: nil))
            }
            loop.setTimer(.sleep, at: nil)
            return
        }
        log.notice("sleep timer: the music fades out in \(seconds) s")
        speaker?.handle(.sleepTimer(minutes: (seconds + 59) / 60))
        loop.setTimer(.sleep, at: TimerFD.now() + UInt64(seconds) * 1_000_000_000) { [unowned self] in
            self.startFade()
        }
    }

    /// The sleep timer ran out: step the volume down to silence over the fade, then pause.
    private func startFade() {
        loop.setTimer(.sleep, at: nil)
        guard machine.state == .playing else { return }
        let fade = Duration.seconds(config.sleepFadeSeconds)
        log.notice("sleep timer: fading out over \(fade)")
        fadeSteps = SleepFade.steps(from: machine.volume, over: fade)
        fadeStart = TimerFD.now()
        nextFadeStep()
    }

    private func nextFadeStep() {
        guard let step = fadeSteps.first else {
            // Silence is reached; the pause comes a moment later, once the device has played out the
            // audio buffered at the last audible steps (a pause drops what is buffered).
            loop.setTimer(.sleepFade, at: TimerFD.now() + Self.fadePauseDelay) { [unowned self] in
                self.log.notice("sleep timer: paused")
                self.apply(self.machine.handle(.action(.pause)))
                self.player.setLevel(self.machine.volume)  // paused: the level is back for the next play
                if self.config.sleepPowerOff { self.powerOff(because: "the sleep timer ran out") }
            }
            return
        }
        let (seconds, attoseconds) = step.at.components
        let at = fadeStart + UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        loop.setTimer(.sleepFade, at: at) { [unowned self] in
            guard !self.fadeSteps.isEmpty else { return }
            self.fadeSteps.removeFirst()
            self.player.setLevel(step.step)
            self.nextFadeStep()
        }
    }

    /// Paused or with no stick, one deadline is armed (once, when the box becomes idle) for the idle power-off;
    /// anything else (playing, indexing) removes it.
    private func scheduleIdlePowerOff() {
        guard config.idlePowerOffSeconds > 0, !stopping else { return }
        if IdlePowerOff.isIdle(machine.state) {
            guard !loop.hasTimer(.idlePowerOff) else { return }
            let seconds = UInt64(config.idlePowerOffSeconds)
            loop.setTimer(.idlePowerOff, at: TimerFD.now() + seconds * 1_000_000_000) { [unowned self] in
                self.powerOff(because: "idle for \(seconds) s")
            }
        } else {
            loop.setTimer(.idlePowerOff, at: nil)
        }
    }

    /// Asks for the power-off through the one narrowly permitted path (`power-off-command`); the daemon's
    /// SIGTERM from the shutdown then saves and stops it as usual.
    private func powerOff(because reason: String) {
        let command = config.powerOffCommand
        log.notice("powering off (\(reason)): \(command.joined(separator: " "))")
        guard let program = command.first else { return }
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&pid, program, nil, nil, &argv, environ)
        guard status == 0 else {
            log.warning("cannot power off: \(program): \(String(cString: strerror(status)))")
            return
        }
        var exit: Int32 = 0
        _ = waitpid(pid, &exit, 0)  // systemctl --no-block returns at once
        if exit != 0 { log.warning("power-off command exited with status \(exit)") }
    }

    /// How long after the fade reaches silence the player pauses.
    static let fadePauseDelay: UInt64 = 700_000_000

    /// Stops a fade under way (or its pause to come) and gives the music its level back.
    private func cancelFade() {
        let pausePending = fadeSteps.isEmpty && loop.hasTimer(.sleepFade)
        loop.setTimer(.sleepFade, at: nil)
        if pausePending { player.setLevel(machine.volume) }
        guard !fadeSteps.isEmpty else { return }
        fadeSteps = []
        player.setLevel(machine.volume)
        log.notice("sleep timer: fade cancelled")
    }
}
