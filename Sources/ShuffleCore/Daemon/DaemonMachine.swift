/// The daemon's decisions: which stick plays, when to index, play, pause, stop and save. Pure: events
/// go in, effects come out, and the daemon's shell carries them out (indexer, player, socket, log).
public struct DaemonMachine: Sendable {
    /// The volume settings the machine enforces.
    public struct Settings: Equatable, Sendable {
        /// Start volume in steps: the loudest the box is after start-up.
        public var startVolume: Int
        /// The cap in steps.
        public var maxVolume: Int
        /// Steps that make full scale.
        public var volumeSteps: Int
        /// Whether start-up comes back paused.
        public var resumePaused: Bool
        /// The floor in steps: nothing asked of the machine takes the volume below it.
        public var minVolume: Int

        /// Creates settings.
        public init(startVolume: Int, maxVolume: Int, volumeSteps: Int, resumePaused: Bool, minVolume: Int = 0) {
            self.startVolume = startVolume
            self.maxVolume = maxVolume
            self.volumeSteps = volumeSteps
            self.resumePaused = resumePaused
            self.minVolume = minVolume
        }

        /// The settings of a configuration.
        public init(_ config: DaemonConfig) {
            self.init(
                startVolume: config.volume, maxVolume: config.maxVolume, volumeSteps: config.volumeSteps,
                resumePaused: config.resumePaused, minVolume: config.minVolume)
        }
    }

    /// A mounted stick.
    public struct Stick: Equatable, Sendable {
        /// Its identity: `uuid:…`, `label:…` or `path:…`.
        public var id: String
        /// Where it is mounted.
        public var mountPoint: String
        /// Whether its index already holds playable tracks (a known stick resumes at once).
        public var known: Bool
        /// The volume level stored with its resume point, if any.
        public var storedLevel: Int?
        /// Whether it is the box's own card (under `card-root`): it plays only while no stick does.
        public var card: Bool
        /// What the stick's `shufflebox.txt` sets: a lower cap and start volume while it plays, never higher.
        public var limits: StickSettings

        /// Creates a stick.
        public init(
            id: String, mountPoint: String, known: Bool = false, storedLevel: Int? = nil, card: Bool = false,
            limits: StickSettings = StickSettings()
        ) {
            self.id = id
            self.mountPoint = mountPoint
            self.known = known
            self.storedLevel = storedLevel
            self.card = card
            self.limits = limits
        }
    }

    /// What happened.
    public enum Event: Equatable, Sendable {
        /// The daemon started; `present` are the sticks mounted now (oldest first), `lastPlayed` the id of
        /// the stick that played last (from the database).
        case started(present: [Stick], lastPlayed: String?)
        /// A stick was mounted under a library root.
        case mounted(Stick)
        /// A stick's mount went away (unmount), or reading it fails because it vanished.
        case unmounted(mountPoint: String)
        /// The indexer found the first playable track of a stick.
        case firstPlayable(volumeID: String)
        /// The indexer found more playable tracks of a stick (a chunk of them is in the index).
        case morePlayable(volumeID: String)
        /// The player of a stick found none of its tracks playable (every one it was given was missing or
        /// failed to decode), and stopped.
        case nothingPlayable(volumeID: String)
        /// The indexer finished a stick; `playable` tracks in total.
        case indexed(volumeID: String, playable: Int)
        /// A button or client asked for something.
        case action(PlayerAction)
        /// A new track began (the player moved on by itself or on request).
        case trackStarted
        /// The sound device failed; the reason says what.
        case deviceFailed(String)
        /// The sound device works again.
        case deviceRecovered
        /// SIGHUP re-read the configuration.
        case configReloaded(Settings)
        /// Another station of the playing stick was chosen (the shell knows which): play it from its own
        /// resume point.
        case stationChanged
        /// SIGTERM/SIGINT: save and stop.
        case shutdown
    }

    /// What the shell must do, in order.
    public enum Effect: Equatable, Sendable {
        /// Index the stick in the background (incrementally when known).
        case startIndexing(Stick)
        /// Stop the background work on a stick that went away: its index run and its loudness scan. The scan
        /// outlives the index run, and a file system unmounted lazily (the USB-drive switch taking the card's
        /// MUSIC for a computer, a stick's mount stopped) stays readable, so nothing else would stop it: it
        /// would hold the file system, and the partition, until it had measured every track.
        case stopIndexing(volumeID: String)
        /// Open the stick's library and play from its resume point, at `volume` steps, ramped in from
        /// silence when `rampIn`; paused when `paused`.
        case startPlayback(Stick, paused: Bool, level: Int, rampIn: Bool)
        /// Stop playing and close the library (the resume point is saved first).
        case stopPlayback
        /// Pause output.
        case pause
        /// Resume output.
        case resume
        /// Skip to the next track.
        case next
        /// Previous track or restart.
        case previous
        /// Move within the current track by this much.
        case seek(byMs: Int64)
        /// Move to this position in the current track.
        case seekTo(ms: Int64)
        /// Play the track at this position of the cycle.
        case playPosition(Int)
        /// Begin a new shuffle cycle.
        case reshuffle
        /// Mute or unmute the output (the volume step stays).
        case mute(Bool)
        /// Set the output volume in steps.
        case setVolume(Int)
        /// Tell idle clients.
        case notify(Set<IdleSubsystem>)
        /// Log a line.
        case log(Log.Level, String)
    }

    /// The box's settings.
    public private(set) var settings: Settings
    /// The settings in force: the box's, lowered by the playing stick's own (`StickSettings.applied`).
    public var effectiveSettings: Settings { active.map { $0.limits.applied(to: settings) } ?? settings }
    /// The mounted sticks under the roots, oldest first.
    public private(set) var mounted: [Stick] = []
    /// The stick playing (or about to), if any.
    public private(set) var active: Stick?
    /// The volume level in steps.
    public private(set) var volume: Int
    /// Whether the output is disabled (muted); not stored: a restart plays.
    public private(set) var muted = false
    /// Sticks being indexed.
    public private(set) var indexing: Set<String> = []
    private var playable: Set<String> = []
    /// Whether the index of the stick playing found tracks since its player started: a player that then
    /// finds nothing playable may have stopped before it heard of them.
    private var foundSinceStart = false
    private var paused: Bool
    private var deviceError: String?

    /// Creates the machine before start-up.
    public init(settings: Settings) {
        self.settings = settings
        self.volume = max(min(settings.startVolume, settings.maxVolume), min(settings.minVolume, settings.maxVolume))
        self.paused = settings.resumePaused
    }

    /// The state a person can tell apart.
    public var state: DaemonState {
        if let deviceError { return .error(deviceError) }
        guard let active else { return .noLibrary }
        guard playable.contains(active.id) else { return .indexing }
        return paused ? .paused : .playing
    }

    /// Handles one event.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .started(let present, let lastPlayed):
            mounted = present
            paused = settings.resumePaused
            var effects: [Effect] = []
            for stick in present {
                if stick.known { playable.insert(stick.id) }
                indexing.insert(stick.id)
                effects.append(.startIndexing(stick))
            }
            // A stick present at start-up plays rather than the card, whichever played last.
            func pick(_ candidates: [Stick]) -> Stick? {
                candidates.last(where: { $0.id == lastPlayed && $0.known }) ?? candidates.last(where: \.known)
                    ?? candidates.last
            }
            let choice = pick(present.filter { !$0.card }) ?? pick(present)
            guard let choice else {
                return effects + [.log(.notice, "no library under the roots yet; waiting for a stick")]
            }
            // Start-up: never louder than the start volume (the stick's own, when lower), whatever it stored.
            let start = choice.limits.applied(to: settings).startVolume
            volume = clamp(min(choice.storedLevel ?? start, start), for: choice)
            return effects + activate(choice, rampIn: true)
        case .mounted(let stick):
            mounted.removeAll { $0.mountPoint == stick.mountPoint || $0.id == stick.id }
            mounted.append(stick)
            if stick.known { playable.insert(stick.id) }
            indexing.insert(stick.id)
            var effects: [Effect] = [.log(.info, "stick \(stick.id) mounted at \(stick.mountPoint)")]
            // The card coming back (after a computer had it as a USB drive) does not interrupt a stick.
            if stick.card, let active, !active.card {
                return effects + [.startIndexing(stick), .notify([.database])]
            }
            if active != nil { effects.append(.stopPlayback) }
            // The device error belonged to the player just stopped; the new one tries the device afresh.
            deviceError = nil
            effects.append(.startIndexing(stick))
            paused = false  // plugging a stick in is asking for music
            volume = clamp(stick.storedLevel ?? volume, for: stick)
            if let start = stick.limits.startVolume { volume = clamp(min(volume, start), for: stick) }
            return effects + activate(stick, rampIn: false) + [.notify([.database, .player, .update, .playlist])]
        case .unmounted(let mountPoint):
            guard let gone = mounted.first(where: { $0.mountPoint == mountPoint }) else { return [] }
            mounted.removeAll { $0.mountPoint == mountPoint }
            var effects: [Effect] = [.log(.info, "stick \(gone.id) at \(mountPoint) went away")]
            indexing.remove(gone.id)
            effects.append(.stopIndexing(volumeID: gone.id))
            guard active?.id == gone.id else { return effects + [.notify([.database])] }
            effects.append(.stopPlayback)
            active = nil
            deviceError = nil  // no player is using the device any more; the next one finds out anew
            // With several sticks the most recently plugged one that remains takes over, the card last.
            if let next = successor() {
                volume = clamp(next.storedLevel ?? volume, for: next)
                effects += activate(next, rampIn: false)
            }
            return effects + [.notify([.database, .player])]
        case .firstPlayable(let id), .morePlayable(let id):
            guard !playable.contains(id) else {
                if active?.id == id { foundSinceStart = true }
                return []
            }
            // The first track, or more after none of those found before played: music (again).
            playable.insert(id)
            guard let active, active.id == id else { return [.notify([.database])] }
            return startEffects(active, rampIn: false) + [.notify([.database, .player])]
        case .indexed(let id, let count):
            indexing.remove(id)
            var effects: [Effect] = [.notify([.database, .update])]
            if count > 0 && !playable.contains(id), let active, active.id == id {
                // Waiting since none of the tracks found so far played: the last of the run may.
                playable.insert(id)
                return effects + startEffects(active, rampIn: false) + [.notify([.player])]
            }
            if active?.id == id { foundSinceStart = true }
            guard count == 0 else { return effects }
            playable.remove(id)
            effects.append(.log(.notice, "no playable audio on stick \(id); waiting for another"))
            if active?.id == id {
                effects.append(.stopPlayback)
                effects += giveUpOnActive()
            }
            return effects
        case .nothingPlayable(let id):
            guard let active, active.id == id, playable.contains(id) else { return [] }
            // Without this the box would stay silent until the stick is plugged again: the player has ended,
            // and the tracks the index finds next would go to no one.
            var effects: [Effect] = [.stopPlayback]
            if foundSinceStart {
                return effects + [.log(.info, "trying the tracks of \(active.mountPoint) found meanwhile")]
                    + startEffects(active, rampIn: false) + [.notify([.player])]
            }
            playable.remove(id)
            if indexing.contains(id) {
                return effects + [
                    .log(
                        .notice,
                        "none of the tracks found so far on \(active.mountPoint) plays; music starts with the next ones indexing finds"
                    ),
                    .notify([.player]),
                ]
            }
            effects.append(
                .log(.notice, "no playable audio on stick \(id): none of its tracks plays; waiting for another"))
            return effects + giveUpOnActive()
        case .action(let action):
            return perform(action)
        case .trackStarted:
            return [.notify([.player])]
        case .deviceFailed(let reason):
            guard deviceError != reason else { return [] }
            deviceError = reason
            return [.log(.error, reason), .notify([.player])]
        case .deviceRecovered:
            guard deviceError != nil else { return [] }
            deviceError = nil
            var effects: [Effect] = [.log(.notice, "the sound device works again")]
            if let active, playable.contains(active.id) { effects += startEffects(active, rampIn: true) }
            return effects + [.notify([.player])]
        case .configReloaded(let new):
            settings = new
            var effects: [Effect] = [.log(.notice, "configuration reloaded")]
            if volume > effectiveSettings.maxVolume {
                volume = effectiveSettings.maxVolume
                effects += [.setVolume(volume), .notify([.mixer])]
            }
            return effects
        case .stationChanged:
            guard let active, playable.contains(active.id), deviceError == nil else { return [] }
            paused = false  // choosing a station is asking for music
            return [.stopPlayback] + startEffects(active, rampIn: false) + [
                .notify([.player, .playlist])
            ]
        case .shutdown:
            guard active != nil else { return [] }
            return [.stopPlayback]
        }
    }

    // MARK: - Helpers

    /// Who plays when the active library goes: the most recently mounted stick with playable tracks, else
    /// any stick, then the card likewise.
    private func successor(requirePlayable: Bool = false) -> Stick? {
        let sticks = mounted.filter { !$0.card }
        let cards = mounted.filter(\.card)
        for group in [sticks, cards] {
            if let found = group.last(where: { playable.contains($0.id) }) { return found }
            if !requirePlayable, let found = group.last { return found }
        }
        return nil
    }

    private mutating func activate(_ stick: Stick, rampIn: Bool) -> [Effect] {
        active = stick
        guard playable.contains(stick.id) else {
            return [.log(.info, "indexing \(stick.mountPoint); music starts with the first playable track")]
        }
        return startEffects(stick, rampIn: rampIn)
    }

    /// The active stick has nothing to play: the most recent stick that has takes over, or none.
    private mutating func giveUpOnActive() -> [Effect] {
        active = nil
        var effects: [Effect] = []
        if let other = successor(requirePlayable: true) {
            volume = clamp(other.storedLevel ?? volume, for: other)
            effects += activate(other, rampIn: false)
        }
        return effects + [.notify([.player])]
    }

    private mutating func startEffects(_ stick: Stick, rampIn: Bool) -> [Effect] {
        guard deviceError == nil else { return [] }
        foundSinceStart = false
        return [.startPlayback(stick, paused: paused, level: volume, rampIn: rampIn)] + (muted ? [.mute(true)] : [])
    }

    private mutating func perform(_ action: PlayerAction) -> [Effect] {
        switch action {
        case .setVolume(let step):
            return changeVolume(to: step)
        case .changeVolume(let delta):
            return changeVolume(to: volume + delta)
        case .play, .pause, .toggle:
            let wantPaused: Bool
            switch action {
            case .play: wantPaused = false
            case .pause: wantPaused = true
            default: wantPaused = !paused
            }
            guard wantPaused != paused else { return [] }
            paused = wantPaused
            guard let active, playable.contains(active.id), deviceError == nil else { return [.notify([.player])] }
            _ = active
            return [wantPaused ? .pause : .resume, .notify([.player])]
        case .seek(let delta):
            guard let active, playable.contains(active.id), deviceError == nil else { return [] }
            _ = active
            return [.seek(byMs: delta), .notify([.player])]
        case .seekTo(let target):
            guard let active, playable.contains(active.id), deviceError == nil else { return [] }
            _ = active
            return [.seekTo(ms: max(0, target)), .notify([.player])]
        case .setOutput(let enabled):
            guard muted == enabled else { return [] }
            muted = !enabled
            return [.mute(muted), .notify([.output, .mixer])]
        case .sleep:
            return []  // the shell's timer (`Appliance`): nothing the machine decides
        case .rescan:
            guard let active else { return [] }
            guard indexing.insert(active.id).inserted else { return [] }
            return [.startIndexing(active), .notify([.update])]
        case .playPosition, .reshuffle:
            guard let active, playable.contains(active.id), deviceError == nil else { return [] }
            _ = active
            paused = false
            return [action == .reshuffle ? .reshuffle : .playPosition(Self.position(of: action))] + [
                .notify([.player, .playlist])
            ]
        case .next, .previous:
            guard let active, playable.contains(active.id), deviceError == nil else { return [] }
            _ = active
            // Asking for a track is asking to hear it: the player plays on `next` and `previous` by the
            // same rule (`PlayerMachine`), so both say playing afterwards.
            let wasPaused = paused
            paused = false
            return [action == .next ? .next : .previous] + (wasPaused ? [.notify([.player])] : [])
        }
    }

    private mutating func changeVolume(to step: Int) -> [Effect] {
        let target = clamp(step)
        guard target != volume else { return [] }
        volume = target
        return [.setVolume(target), .notify([.mixer])]
    }

    private static func position(of action: PlayerAction) -> Int {
        if case .playPosition(let position) = action { return position }
        return 0
    }

    /// Within the floor and the cap in force (the cap wins should the floor be set above it).
    private func clamp(_ step: Int) -> Int { clamp(step, for: active) }

    /// Within the floor and the cap in force while `stick` plays.
    private func clamp(_ step: Int, for stick: Stick?) -> Int {
        let settings = stick.map { $0.limits.applied(to: self.settings) } ?? self.settings
        let cap = min(settings.maxVolume, settings.volumeSteps)
        return max(0, min(max(step, settings.minVolume), cap))
    }
}
