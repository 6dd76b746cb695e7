import ShuffleCore

/// The sleep timer as a service: the pure `SleepTimer` decides, this arms its one loop timer (`.sleep`) and
/// carries its effects out through the router's hands.
final class SleepService: Service {
    /// What the sleep timer needs of the rest of the daemon.
    struct Hands {
        /// Whether music plays, and the box's level (the fade starts from it).
        var playing: () -> (playing: Bool, level: Int)
        /// Sets the player's level (a step of the fade, or the box's own level back).
        var setLevel: (_ level: Int?) -> Void
        /// Pauses the music.
        var pause: () -> Void
        /// Powers the box off.
        var powerOff: (_ reason: String) -> Void
        /// Says that the timer was set (minutes) or cancelled (nil).
        var announce: (_ minutes: Int?) -> Void
    }

    let name = "sleep timer"
    private let loop: EventLoop
    private var timer = SleepTimer()
    private var settings: (minutes: Int, fade: Duration, powerOff: Bool)
    private let hands: Hands
    private let log: Log

    /// Creates the service with the box's configuration.
    init(loop: EventLoop, config: DaemonConfig, log: Log, hands: Hands) {
        self.loop = loop
        self.hands = hands
        self.log = log
        settings = Self.settings(config)
    }

    func start() throws(DaemonError) {}

    func stop() { loop.setTimer(.sleep, at: nil) }

    /// Takes a reloaded configuration (the next timer set uses it).
    func reconfigure(_ config: DaemonConfig) { settings = Self.settings(config) }

    /// Whether a sleep timer runs.
    var isRunning: Bool { timer.isRunning }

    /// Sets the timer for `seconds` (0 cancels it): MPD's `sleep`, or the configuration's default.
    func set(seconds: Int) { perform(timer.set(seconds: seconds, now: loop.now)) }

    /// The sleep button: cancels a running timer, else sets the configured one.
    func toggle() { perform(timer.toggle(seconds: settings.minutes * 60, now: loop.now)) }

    /// Someone asked for something: a fade under way gives the music back at its level.
    func interrupted() { perform(timer.interrupted()) }

    private func due() {
        let now = hands.playing()
        perform(
            timer.due(
                now: loop.now, playing: now.playing, level: now.level, fade: settings.fade,
                powerOff: settings.powerOff))
    }

    private func perform(_ effects: [SleepTimer.Effect]) {
        for effect in effects {
            switch effect {
            case .setLevel(let level): hands.setLevel(level)
            case .restoreLevel: hands.setLevel(nil)
            case .pause: hands.pause()
            case .powerOff: hands.powerOff("the sleep timer ran out")
            case .announce(let minutes): hands.announce(minutes)
            case .log(let level, let message): log.log(level, message)
            }
        }
        loop.setTimer(.sleep, at: timer.deadline) { [unowned self] in self.due() }
    }

    private static func settings(_ config: DaemonConfig) -> (minutes: Int, fade: Duration, powerOff: Bool) {
        (config.sleepMinutes, .seconds(config.sleepFadeSeconds), config.sleepPowerOff)
    }
}
