import ShuffleCore

/// The status light as a service. A board's LED may come after the daemon started (leds-gpio is a module
/// that udev's coldplug loads): a missing one is said at once, then looked for again (`UdevWait`), and shows
/// the state of the moment it is found.
final class LightService: Service {
    let name = "light"
    private let loop: EventLoop
    private let configured: String?
    private let board: BoardConfig?
    private let log: Log
    private var light: StatusLight?
    private var shown: DaemonState?

    /// Creates the service for the daemon's `led` setting and the board's `[led]`.
    init(loop: EventLoop, configured: String?, board: BoardConfig?, log: Log) {
        self.loop = loop
        self.configured = configured
        self.board = board
        self.log = log
    }

    func start() throws(DaemonError) { open(nil) }

    func stop() {
        loop.setTimer(.lightOpen, at: nil)
        light?.retire()
        light = nil
    }

    /// Shows `state`.
    func show(_ state: DaemonState) {
        shown = state
        light?.show(state)
    }

    /// Flashes the light: a button was refused, or the lock changed.
    func flashRefused() { light?.flashRefused() }

    private func open(_ wait: UdevWait?) {
        switch StatusLight.open(configured: configured, board: board, loop: loop, log: log) {
        case .light(let found):
            light = found
            if let wait {
                log.notice("status light found \(wait.elapsedMs(now: loop.now)) ms after the daemon started")
            }
            if let shown { found.show(shown) }
        case .missing(let paths):
            var wait = wait ?? UdevWait(since: loop.now)
            if wait.attempt == 0 {
                log.notice(
                    "no status light: no LED at \(paths.joined(separator: " or ")) yet; carrying on without it "
                        + "(it is taken if it appears within 2 minutes)")
            }
            if let at = wait.next(now: loop.now) {
                loop.setTimer(.lightOpen, at: at) { [unowned self] in self.open(wait) }
            }
        case .none:
            break
        }
    }
}
