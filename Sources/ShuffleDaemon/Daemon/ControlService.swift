import ShuffleCore

/// The control socket (MPD's protocol, on a Unix socket and optionally TCP) as a service: it is bound when
/// the service starts, and closed (every client dropped, the socket file removed) when it stops.
final class ControlService: Service {
    let name = "control socket"
    private let loop: EventLoop
    private let path: String
    private let tcp: TCPAddress?
    private let timeoutSeconds: Int
    private let log: Log
    private unowned let backend: any MPDBackend & AnyObject
    private var server: ControlServer?

    /// Creates the service for the socket at `path`; clients are answered by `backend`.
    init(
        loop: EventLoop, path: String, tcp: TCPAddress?, timeoutSeconds: Int, log: Log,
        backend: any MPDBackend & AnyObject
    ) {
        self.loop = loop
        self.path = path
        self.tcp = tcp
        self.timeoutSeconds = timeoutSeconds
        self.log = log
        self.backend = backend
    }

    func start() throws(DaemonError) {
        server = try ControlServer(
            loop: loop, path: path, tcp: tcp, timeoutSeconds: timeoutSeconds, log: log, backend: backend)
    }

    func stop() {
        server?.shutdown()
        server = nil
    }

    /// Tells every client waiting in `idle` that `subsystems` changed.
    func notify(_ subsystems: Set<IdleSubsystem>) { server?.notify(subsystems) }
}
