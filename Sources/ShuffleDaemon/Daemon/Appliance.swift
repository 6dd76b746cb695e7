import Buttons
import Glibc
import LibLinux
import ShuffleCore

/// The running appliance: the router between the pure `DaemonMachine` and the services that carry out its
/// effects and feed it events (mounts, signals, the index's and the player's reports, buttons, clients).
/// Each service owns its own state and timers (`ServiceGroup` starts them in list order and stops them in
/// reverse); what is left here routes events between them. Confined to the event loop's thread.
final class Appliance: @unchecked Sendable {
    // @unchecked: every member is touched only on the event loop's thread. Reports from the indexer
    // and audio threads reach it through `loop.post`, whose closures run on that thread.
    let loop: EventLoop
    private(set) var machine: DaemonMachine
    private(set) var config: DaemonConfig
    private let reloadConfig: () throws(ConfigError) -> DaemonConfig
    let library: any ApplianceLibrary
    let player: any AppliancePlayer
    private(set) var log: Log
    private let stateDirectory: String?
    private let board: BoardConfig?
    private let socketPath: String
    private let group: ServiceGroup
    /// When the daemon started (`stats` uptime).
    let startedAt: Duration
    /// `albumart` and `readpicture`, read from the stick on their own thread.
    let pictures = PictureReader()

    // MARK: - The services, in the order they start

    private let signals: SignalService
    let mounts: MountService
    private(set) lazy var control = ControlService(
        loop: loop, path: socketPath, tcp: config.tcp, timeoutSeconds: config.connectionTimeoutSeconds,
        log: log, backend: self)
    private(set) lazy var voice = Speaker(
        settings: config.speech, loop: loop, player: player, log: log.labelled("voice"))
    private lazy var light = LightService(
        loop: loop, configured: config.led, board: board, log: log.labelled("light"))
    private(set) lazy var buttons = ButtonService(
        loop: loop, board: board, stateDirectory: stateDirectory, log: log,
        hands: .init(
            act: { [unowned self] action, press in self.button(action, press: press) },
            flash: { [unowned self] in self.light.flashRefused() },
            lockChanged: { [unowned self] locked in self.voice.handle(.lockChanged(locked: locked)) }))
    /// Which sound device plays.
    private(set) lazy var outputs = OutputService(
        loop: loop, outputs: config.outputList, log: log.labelled("outputs")
    ) { [unowned self] effect in self.output(effect) }
    private(set) lazy var stickStations = StationService(
        library: library, log: log,
        hands: .init(
            changed: { [unowned self] in self.apply(self.machine.handle(.stationChanged)) },
            play: { [unowned self] in self.apply(self.machine.handle(.action(.play))) },
            announce: { [unowned self] name in self.voice.handle(.stationChanged(name: name)) }))
    /// The stick's books, and whether the music or a book plays.
    private(set) lazy var stories = StoryService(
        loop: loop, library: library, log: log.labelled("stories"),
        hands: .init(
            changed: { [unowned self] in self.apply(self.machine.handle(.stationChanged)) },
            announce: { [unowned self] event in self.voice.handle(event) },
            musicStation: { [unowned self] stick in self.stickStations.of(stick)?.playing?.name }))
    private lazy var listings = ListingService(loop: loop, library: library) { [unowned self] subsystems in
        self.control.notify(subsystems)
    }
    private(set) lazy var sleep = SleepService(
        loop: loop, config: config, log: log,
        hands: .init(
            playing: { [unowned self] in (self.machine.state == .playing, self.machine.volume) },
            setLevel: { [unowned self] level in self.player.setLevel(level ?? self.machine.volume) },
            pause: { [unowned self] in self.apply(self.machine.handle(.action(.pause))) },
            powerOff: { [unowned self] reason in self.power.powerOff(because: reason, goodbye: nil) },
            announce: { [unowned self] minutes in self.voice.handle(.sleepTimer(minutes: minutes)) }))
    private lazy var power = PowerService(loop: loop, config: config, log: log) { [unowned self] goodbye, said in
        self.voice.handle(goodbye, whenSaid: said)
    }
    private let systemd: SystemdService

    // MARK: - What the router keeps

    /// Whether the machine was told that no output works (and so must hear when one does).
    private var outputError = false
    /// New sticks being indexed, whose progress the voice counts.
    private var announcedIndexing: Set<String> = []
    /// Playable tracks found so far, by stick.
    private(set) var trackCount: [String: Int] = [:]
    /// The queue version idle clients last heard about.
    private var lastQueueVersion = 0
    /// How often the shuffle grows while a stick is indexed.
    private var growth = GrowthThrottle()
    /// When the latest stick's mount was seen, until its first sample is played (for the log and benchmarks).
    private var mountSeenAt: Duration?
    /// How long music has played (`stats`).
    private(set) var playTime = PlayTime()
    /// Set when a signal asked the daemon to stop.
    private(set) var stopping = false

    /// Builds the appliance; nothing runs until `start()`. `mountTable` is the kernel's unless a test gives
    /// another file.
    init(
        loop: EventLoop, config: DaemonConfig, reloadConfig: @escaping () throws(ConfigError) -> DaemonConfig,
        library: any ApplianceLibrary, player: any AppliancePlayer, log: Log, stateDirectory: String? = nil,
        socketPath: String, mountTable: String = "/proc/self/mountinfo",
        systemd notifier: SystemdNotifier? = SystemdNotifier()
    ) throws(DaemonError) {
        self.loop = loop
        self.config = config
        self.reloadConfig = reloadConfig
        self.library = library
        self.player = player
        self.log = log
        self.stateDirectory = stateDirectory
        self.socketPath = socketPath
        startedAt = loop.now
        machine = DaemonMachine(settings: .init(config))
        board = try ButtonDriver.loadBoard(config)
        group = ServiceGroup(log: log)
        systemd = SystemdService(loop: loop, notifier: notifier)
        // The closures run only once the services start, after `init`: `self` is whole by then.
        weak var router: Appliance?
        signals = try SignalService(
            loop: loop, reload: { router?.reload() }, terminate: { router?.terminate(signal: $0) })
        mounts = try MountService(loop: loop, roots: config.watchedRoots, path: mountTable, log: log) {
            router?.mountsChanged(gone: $0, appeared: $1)
        }
        router = self
    }

    /// Starts the services in order, resumes what was playing, and tells systemd it is ready.
    func start() throws(DaemonError) {
        group.add(signals)
        group.add(mounts)
        group.add(control)
        group.add(voice, .optional)
        group.add(light, .optional)
        group.add(buttons)
        group.add(outputs)
        group.add(stickStations)
        group.add(stories)
        group.add(listings)
        group.add(sleep)
        group.add(power)
        group.add(systemd)
        try group.start()
        library.onDatabaseReplaced { [loop] in loop.post { [weak self] in self?.databaseReplaced() } }
        let present = mounts.current.map(stick(for:))
        apply(machine.handle(.started(present: present, lastPlayed: library.lastPlayedVolume())))
        log.notice(
            "listening on \(socketPath)\(config.tcp.map { " and tcp \($0)" } ?? ""); library roots \(config.watchedRoots.joined(separator: ", "))"
        )
        systemd.ready(status: statusLine())
    }

    /// The services running, in the order they started.
    var services: [String] { group.running }

    // MARK: - Events in

    /// SIGTERM or SIGINT: saves and stops everything, then the loop.
    func terminate(signal number: Int32) {
        log.notice("stopping on signal \(number)")
        let started = loop.now
        stopping = true
        systemd.stopping()
        apply(machine.handle(.shutdown))
        group.stop()
        library.close()
        loop.stop()
        log.debug("saved and stopped in \(loop.now - started)")
    }

    /// SIGHUP: reads the configuration again; a configuration `run` would refuse is not taken.
    func reload() {
        do throws(ConfigError) {
            let new = try reloadConfig()
            let rootsChanged = new.watchedRoots != config.watchedRoots
            config = new
            log = Log(label: log.label, minimum: new.logLevel, sink: log.sink)
            sleep.reconfigure(new)
            power.reconfigure(new)
            apply(machine.handle(.configReloaded(.init(new))))
            if rootsChanged { mounts.setRoots(new.watchedRoots) }
        } catch {
            log.error("not reloading the configuration: \(error); keeping the running settings")
        }
    }

    private func mountsChanged(gone: [MountEntry], appeared: [MountEntry]) {
        for entry in gone {
            if entry.mountPoint.display == machine.active?.mountPoint { voice.handle(.stickPulled) }
            apply(machine.handle(.unmounted(mountPoint: entry.mountPoint.display)))
        }
        for entry in appeared {
            mountSeenAt = loop.now
            apply(machine.handle(.mounted(stick(for: entry))))
        }
    }

    /// A damaged database was replaced by an empty one while running: every stick present is taken as
    /// plugged in again, so it is indexed into the fresh database and plays as soon as a track is found.
    private func databaseReplaced() {
        let present = mounts.current
        for entry in present { apply(machine.handle(.unmounted(mountPoint: entry.mountPoint.display))) }
        for entry in present {
            mountSeenAt = loop.now
            apply(machine.handle(.mounted(stick(for: entry))))
        }
    }

    private func stick(for entry: MountEntry) -> DaemonMachine.Stick {
        let id = VolumeIdentity.identify(entry)
        let mountPoint = entry.mountPoint.display
        let known = library.describe(volumeID: id, mountPoint: mountPoint)
        let card = config.cardRoot.map { MountTable.isStrictlyBelow(entry.mountPoint, PathBytes($0)) } ?? false
        // The stick's own file: its stations, and settings that may only lower the box's.
        let file = stickStations.read(stick: id, mountPoint: mountPoint, stored: known.station)
        if let first = file.errors.first { voice.handle(.stickFileError(line: first.line)) }
        stories.mounted(stick: id, file: file, storedBook: known.book)
        return DaemonMachine.Stick(
            id: id, mountPoint: mountPoint, known: known.known, storedLevel: known.volume, card: card,
            limits: file.settings)
    }

    func indexReport(_ report: IndexReport, volumeID: String) {
        let playing = machine.active?.id == volumeID
        switch report {
        case .firstPlayable:
            apply(machine.handle(.firstPlayable(volumeID: volumeID)))
        case .progress(let playable):
            trackCount[volumeID] = playable
            if announcedIndexing.contains(volumeID) {
                voice.handle(.indexProgress(volumeID: volumeID, playable: playable))
            }
            if playing, growth.mayGrow(at: loop.now) { player.tracksAdded() }
            control.notify([.database])
            // After a player that found none of the tracks before playable, these are tried.
            apply(machine.handle(.morePlayable(volumeID: volumeID)))
        case .finished(let playable, let changed):
            trackCount[volumeID] = playable
            if announcedIndexing.remove(volumeID) != nil {
                voice.handle(.indexed(volumeID: volumeID, playable: playable))
            }
            if playing { player.tracksAdded() }
            stories.refresh(volumeID)
            listings.indexFinished(stick: volumeID, changed: changed, playing: playing)
            apply(machine.handle(.indexed(volumeID: volumeID, playable: playable)))
        case .failed(let reason):
            log.warning(reason)
            listings.indexFailed(stick: volumeID)
            announcedIndexing.remove(volumeID)
            apply(machine.handle(.indexed(volumeID: volumeID, playable: trackCount[volumeID] ?? 0)))
        case .lengthsRefined:
            listings.lengthsRefined(stick: volumeID, playing: playing)
        case .storiesRead:
            stories.refresh(volumeID)
            // The player's order takes the catalog as it is now: a song that turned out a story leaves it.
            if playing { player.tracksAdded() }
        }
    }

    func playerReport(_ report: PlayerReport) {
        switch report {
        case .trackStarted(let at):
            // A player begun paused names its track without a sample played: no figure for it.
            if let seen = mountSeenAt, machine.state == .playing {
                mountSeenAt = nil
                // `at` is when the audio thread wrote them, not when this loop heard of it.
                let heard = loop.now - (ContinuousClock.now - at)
                log.info(
                    "first sample of \(machine.active?.mountPoint ?? "the stick") \((heard - seen).milliseconds) ms after the mount"
                )
            }
            apply(machine.handle(.trackStarted))
            if let active = machine.active, let now = player.now() {
                stories.started(active.id, chapters: now.chapters, positionMs: now.positionMs)
            }
            if let track = player.speakable() { voice.prepare(track) }
            noticeQueueChange()
            let machine = self.machine
            listings.trackStarted { stick in machine.indexing.contains(stick) && machine.active?.known == true }
        case .deviceFailed(let reason): apply(machine.handle(.deviceFailed(reason)))
        case .outputFailed(let device, let reason, let gone):
            outputs.failed(pcm: device, reason: reason, gone: gone)
        case .deviceRecovered:
            outputError = false
            apply(machine.handle(.deviceRecovered))
        case .libraryVanished(let mountPoint):
            voice.handle(.stickPulled)
            apply(machine.handle(.unmounted(mountPoint: mountPoint)))
        case .trackSkipped: voice.handle(.fileSkipped)
        case .nothingPlayable(let volumeID): apply(machine.handle(.nothingPlayable(volumeID: volumeID)))
        case .stationEmpty(let name):
            guard let active = machine.active else { return }
            if stories.playing(active.id) != nil {
                // A book none of whose parts plays: back to the music, never silence.
                log.warning("the story '\(name)' has no playable part; the music plays")
                stories.leaveBook(active.id)
                apply(machine.handle(.stationChanged))
            } else {
                // A station whose search finds no song would leave the box silent: the whole stick plays instead.
                stickStations.empty(name, of: active)
            }
        case .bookFinished:
            if let active = machine.active { stories.reachedEnd(active.id) }
            // The player holds the first part paused: the machine follows, so that play starts it.
            apply(machine.handle(.action(.pause)))
        }
    }

    /// Carries out a gesture's action for a client (`ctl stories`): as a button would, without the lock, which
    /// is the buttons' (the box's owner has the socket).
    func act(_ action: ButtonAction) { button(action, press: 0) }

    /// Handles a button's action that the lock let through (on the loop thread); `press` numbers the
    /// volume-up presses.
    private func button(_ action: ButtonAction, press: UInt64) {
        switch action {
        case .playPause: _ = perform(.toggle)
        case .next, .previous:
            // In a part with chapters, next and previous move by chapter.
            if let active = machine.active, stories.playing(active.id) != nil, let now = player.now(),
                let target = stories.chapterTarget(
                    next: action == .next, chapters: now.chapters, positionMs: now.positionMs)
            {
                _ = perform(.seekTo(ms: target))
                if machine.state == .paused { _ = perform(.play) }
            } else {
                _ = perform(action == .next ? .next : .previous)
            }
        case .volumeUp:
            if machine.volume >= machine.effectiveSettings.maxVolume { voice.handle(.volumeAtCap(press: press)) }
            _ = perform(.changeVolume(1))
        case .volumeDown: _ = perform(.changeVolume(-1))
        case .seekForward, .seekBack:
            // Each hold repeat skips this far, so holding the button scans through the track.
            guard case .playing = machine.state else { return }
            _ = perform(.seek(byMs: action == .seekForward ? Appliance.seekStepMs : -Appliance.seekStepMs))
        case .speak:
            voice.handle(.speakRequested(player.speakable()))
        case .sleep:
            sleep.toggle()
        case .lock:
            break  // the button service's lock has toggled it
        case .nextStation: _ = chooseStation(.next)
        case .previousStation: _ = chooseStation(.previous)
        case .stories, .nextStory:
            guard let active = machine.active else { return voice.handle(.noStories) }
            sleep.interrupted()
            if action == .stories {
                stories.toggle(active.id)
            } else if stories.books(of: active.id).isEmpty {
                // The one-button board's long press: on a stick without stories, what is playing.
                voice.handle(.speakRequested(player.speakable()))
            } else {
                stories.ring(active.id)
            }
        case .startOver:
            guard let active = machine.active else { return }
            sleep.interrupted()
            stories.startOver(active.id)
        case .powerOff: power.powerOff(because: "the power button", goodbye: .poweringOff)
        case .batteryLow: power.powerOff(because: "the battery is low", goodbye: .batteryLow)
        }
    }

    /// How far one seek-forward or seek-back action moves within the track.
    static let seekStepMs: Int64 = 5_000

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
            control.notify([.output])
        case .pause:
            apply(machine.handle(.action(.pause)))
        case .noOutput(let reason):
            outputError = true
            apply(machine.handle(.deviceFailed(reason)))
            control.notify([.output])
        case .log(let level, let message):
            log.log(level, message)
        }
    }

    func apply(_ effects: [DaemonMachine.Effect]) {
        player.setCap(machine.effectiveSettings.maxVolume)
        for effect in effects {
            switch effect {
            case .startIndexing(let stick):
                let id = stick.id
                // A new stick is announced and counted; a known one re-indexes quietly.
                if !stick.known {
                    announcedIndexing.insert(id)
                    voice.handle(.indexingStarted(volumeID: id))
                }
                library.startIndexing(stick) { [loop] report in
                    loop.post { [weak self] in self?.indexReport(report, volumeID: id) }
                }
            case .stopIndexing(let id):
                library.stopIndexing(volumeID: id)
                // The stick went away: its listing is read again if it comes back, never held twice.
                listings.stickGone(id)
            case .startPlayback(let stick, let paused, let level, let rampIn):
                let stations = stickStations.of(stick.id) ?? StickStations()
                let selection =
                    stories.selection(for: stick.id)
                    ?? .music(station: stations.playing, mode: stations.mode, rules: stations.file.stories)
                player.start(stick, selection: selection, paused: paused, level: level, rampIn: rampIn) {
                    [loop] report in
                    loop.post { [weak self] in self?.playerReport(report) }
                }
                control.notify([.storedPlaylist])
                listings.playbackStarted(stick: stick.id, paused: paused)
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
            case .notify(let subsystems): control.notify(subsystems)
            case .log(let level, let message): log.log(level, message)
            }
        }
        power.update(machine.state)
        playTime.update(playing: machine.state == .playing, now: loop.now)
        light.show(machine.state)
        systemd.status(statusLine())
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

    /// Tells idle clients when the shuffle order changed since last looked at.
    private func noticeQueueChange() {
        guard let version = queue()?.version else { return }
        if version != lastQueueVersion {
            lastQueueVersion = version
            control.notify([.playlist])
        }
    }

    /// Carries out a client's (or a button's) action.
    func perform(_ action: PlayerAction) -> MPDError? {
        if case .sleep(let seconds) = action {
            sleep.set(seconds: seconds)
            return nil
        }
        // Someone asked for something: a fade under way gives the music back at its level.
        sleep.interrupted()
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

    /// Plays a station of the playing stick from its own resume point, and says its name; while a book plays,
    /// `next` and `previous` choose among the books, and a name may be a book's.
    func chooseStation(_ choice: StationChoice) -> MPDError? {
        guard let active = machine.active else {
            return MPDError(.noExist, "no library: plug in a USB stick with music")
        }
        sleep.interrupted()
        let inBook = stories.playing(active.id) != nil
        switch choice {
        case .next, .previous:
            if stories.step(active.id, by: choice == .next ? 1 : -1) { return nil }
        case .named(let name):
            let stations = stickStations.of(active.id)?.file.stations ?? []
            let isStation = stations.contains { $0.name.lowercased() == name.lowercased() }
            if !isStation, stories.choose(named: name, of: active.id) { return nil }
            if isStation, inBook {
                // Back to the music, at the station asked for.
                stories.leaveBook(active.id)
                if let error = stickStations.choose(choice, of: active, restart: true) { return error }
                return nil
            }
        }
        return stickStations.choose(choice, of: active)
    }
}
