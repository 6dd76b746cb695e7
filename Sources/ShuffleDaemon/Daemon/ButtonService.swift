import Buttons
import Glibc
import LibLinux
import ShuffleCore

/// The board's buttons as a service: the GPIO lines and their gestures (`ButtonDriver`), the children's
/// lock in front of them (`ButtonLock`, stored in the state folder so that it survives a power cut), and the
/// grouping of a held volume button's repeats into one press. Actions the lock lets through go to `act`.
final class ButtonService: Service {
    /// What the buttons need of the rest of the daemon.
    struct Hands {
        /// Carries out an action; `press` numbers the presses of the volume-up button (a hold is one press).
        var act: (_ action: ButtonAction, _ press: UInt64) -> Void
        /// Flashes the light (a refused press, a lock change).
        var flash: () -> Void
        /// The lock changed: say so.
        var lockChanged: (_ locked: Bool) -> Void
    }

    let name = "buttons"
    private let loop: EventLoop
    private let board: BoardConfig?
    private let lockPath: String?
    private let log: Log
    private let hands: Hands
    private var driver: ButtonDriver?
    private var lock = ButtonLock()
    private var volumeUp = PressGrouping()

    /// Creates the service for `board` (nil: no buttons); the lock is read from `stateDirectory`.
    init(loop: EventLoop, board: BoardConfig?, stateDirectory: String?, log: Log, hands: Hands) {
        self.loop = loop
        self.board = board
        self.log = log
        self.hands = hands
        lockPath = stateDirectory.map { $0 + "/buttons.lock" }
        if let lockPath, let bytes = try? FileSystem.contents(of: lockPath, limit: 64) {
            lock = ButtonLock(fileText: String(decoding: bytes, as: UTF8.self))
            if lock.locked { log.notice("the buttons are locked (hold the lock chord to unlock)") }
        }
    }

    /// Opens the board's buttons, plus the scripted FIFO of `$SHUFFLEBOX_BUTTON_FIFO` (tests).
    func start() throws(DaemonError) {
        guard let board else { return }
        var extra: [any ButtonSource] = []
        if let fifo = Environment.value("SHUFFLEBOX_BUTTON_FIFO"), !fifo.isEmpty {
            extra.append(try ScriptedButtonSource(path: fifo, board: board))
        }
        driver = ButtonDriver(loop: loop, board: board, extra: extra, log: log) { [unowned self] action in
            self.pressed(action)
        }
    }

    func stop() {
        driver?.stop()
        driver = nil
    }

    /// Whether the buttons are locked.
    var locked: Bool { lock.locked }

    /// Handles a gesture's action (also from tests and the control socket's `button`), unless the lock
    /// refuses it.
    func pressed(_ action: ButtonAction) {
        switch lock.decide(action) {
        case .refuse(let refused):
            log.info("buttons locked: \(refused.rawValue) refused")
            hands.flash()
        case .changed(let locked):
            log.notice(locked ? "buttons locked" : "buttons unlocked")
            storeLock()
            hands.flash()
            hands.lockChanged(locked)
        case .perform(let action):
            hands.act(action, action == .volumeUp ? volumeUp.press(at: loop.now) : 0)
        }
    }

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
}
