import Glibc
import ShuffleCore

/// Powering the box off: when it has been idle for the configured time (the pure `IdlePowerOff` keeps the
/// one deadline, armed once as the box becomes idle), when the power button is pressed, or when the sleep
/// timer says so, or a battery board's low-battery signal. All but the sleep timer's say goodbye first (the
/// command runs when the phrase has been heard, or after `sayingBound` whatever happened to it); the sleep
/// timer's is silent, for a child asleep. It asks
/// through the one narrowly permitted path (`power-off-command`); the SIGTERM of the shutdown then saves and
/// stops the daemon as usual.
final class PowerService: Service {
    let name = "power"
    private let loop: EventLoop
    private var idle = IdlePowerOff()
    private var idleSeconds: Int
    private var command: [String]
    private var stopped = false
    /// Whether a power-off waits for its goodbye (a second request meanwhile is the same one).
    private var switchingOff = false
    private let log: Log
    /// Says the goodbye (`poweringOff` or `batteryLow`) and calls back once it has been heard (at once when the
    /// voice is off).
    private let sayGoodbye: (_ goodbye: Announcer.Event, _ said: @escaping () -> Void) -> Void
    /// The longest the goodbye may hold up the power-off.
    static let sayingBound: Duration = .seconds(5)

    /// Creates the service with the box's configuration.
    init(
        loop: EventLoop, config: DaemonConfig, log: Log,
        sayGoodbye: @escaping (_ goodbye: Announcer.Event, _ said: @escaping () -> Void) -> Void = { $1() }
    ) {
        self.loop = loop
        self.log = log
        self.sayGoodbye = sayGoodbye
        idleSeconds = config.idlePowerOffSeconds
        command = config.powerOffCommand
    }

    func start() throws(DaemonError) {}

    func stop() {
        stopped = true
        loop.setTimer(.idlePowerOff, at: nil)
        loop.setTimer(.powerOff, at: nil)
    }

    /// Takes a reloaded configuration (it counts from the next change of state).
    func reconfigure(_ config: DaemonConfig) {
        idleSeconds = config.idlePowerOffSeconds
        command = config.powerOffCommand
    }

    /// The box is now in `state`: arms or removes the idle deadline.
    func update(_ state: DaemonState) {
        guard !stopped, idle.update(state: state, now: loop.now, seconds: idleSeconds) else { return }
        let seconds = idleSeconds
        loop.setTimer(.idlePowerOff, at: idle.deadline) { [unowned self] in
            if self.idle.isDue(now: self.loop.now) {
                self.powerOff(because: "idle for \(seconds) s", goodbye: .poweringOff)
            }
        }
    }

    /// Switches the box off: with a `goodbye` (`poweringOff` or `batteryLow`), once it has been heard (at most
    /// `sayingBound` later); with none, at once.
    func powerOff(because reason: String, goodbye: Announcer.Event?) {
        guard !switchingOff, !stopped else { return }
        guard let goodbye else { return runCommand(reason) }
        switchingOff = true
        log.notice("switching off (\(reason)) once the goodbye is said")
        loop.setTimer(.powerOff, after: Self.sayingBound) { [unowned self] in self.goodbyeDone(reason) }
        sayGoodbye(goodbye) { [weak self] in self?.goodbyeDone(reason) }
    }

    /// The goodbye was heard, or its bound passed: whichever comes first runs the command, the other nothing.
    private func goodbyeDone(_ reason: String) {
        guard switchingOff else { return }
        runCommand(reason)
    }

    /// Runs the power-off command.
    private func runCommand(_ reason: String) {
        loop.setTimer(.powerOff, at: nil)
        switchingOff = false
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
}
