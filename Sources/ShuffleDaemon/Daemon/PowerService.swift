import Glibc
import ShuffleCore

/// Powering the box off: when it has been idle for the configured time (the pure `IdlePowerOff` keeps the
/// one deadline, armed once as the box becomes idle), or when the sleep timer says so. It asks through the
/// one narrowly permitted path (`power-off-command`); the SIGTERM of the shutdown then saves and stops the
/// daemon as usual.
final class PowerService: Service {
    let name = "power"
    private let loop: EventLoop
    private var idle = IdlePowerOff()
    private var idleSeconds: Int
    private var command: [String]
    private var stopped = false
    private let log: Log

    /// Creates the service with the box's configuration.
    init(loop: EventLoop, config: DaemonConfig, log: Log) {
        self.loop = loop
        self.log = log
        idleSeconds = config.idlePowerOffSeconds
        command = config.powerOffCommand
    }

    func start() throws(DaemonError) {}

    func stop() {
        stopped = true
        loop.setTimer(.idlePowerOff, at: nil)
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
            if self.idle.isDue(now: self.loop.now) { self.powerOff(because: "idle for \(seconds) s") }
        }
    }

    /// Runs the power-off command.
    func powerOff(because reason: String) {
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
