import ShuffleCore

/// systemd's side: `READY=1` once the daemon serves, its status line as it changes, `STOPPING=1`, and the
/// watchdog's keep-alive (the one timer that runs while the box is idle, and only under a unit that asks for
/// it: `WatchdogSec=`). Nothing at all without `$NOTIFY_SOCKET`.
final class SystemdService: Service {
    let name = "systemd"
    private let loop: EventLoop
    private let notifier: SystemdNotifier?
    private var lastStatus = ""

    /// Creates the service (`notifier` nil: not started by systemd).
    init(loop: EventLoop, notifier: SystemdNotifier? = SystemdNotifier()) {
        self.loop = loop
        self.notifier = notifier
    }

    func start() throws(DaemonError) { scheduleWatchdog() }

    func stop() { loop.setTimer(.watchdog, at: nil) }

    /// Tells systemd the daemon is stopping (before it saves).
    func stopping() { notifier?.send("STOPPING=1") }

    /// Tells systemd the daemon is ready, with its status.
    func ready(status: String) {
        lastStatus = status
        notifier?.send("READY=1\nSTATUS=\(status)")
    }

    /// Tells systemd the daemon's status (only when it changed).
    func status(_ line: String) {
        guard line != lastStatus else { return }
        lastStatus = line
        notifier?.send("STATUS=\(line)")
    }

    private func scheduleWatchdog() {
        guard let interval = notifier?.watchdogInterval else { return }
        loop.setTimer(.watchdog, after: interval) { [unowned self] in
            self.notifier?.send("WATCHDOG=1")
            self.scheduleWatchdog()
        }
    }
}
