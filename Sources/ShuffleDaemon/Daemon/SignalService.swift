import Glibc
import ShuffleCore

/// Signals, taken on the loop's thread through a pipe: SIGHUP reloads the configuration, SIGTERM and
/// SIGINT stop the daemon.
final class SignalService: Service {
    let name = "signals"
    private let loop: EventLoop
    private let pipe: SignalPipe
    private let reload: () -> Void
    private let terminate: (_ signal: Int32) -> Void

    /// Installs the handlers; the signals are acted on once `start()` watches the pipe.
    init(loop: EventLoop, reload: @escaping () -> Void, terminate: @escaping (_ signal: Int32) -> Void)
        throws(DaemonError)
    {
        self.loop = loop
        self.reload = reload
        self.terminate = terminate
        pipe = try SignalPipe()
    }

    func start() throws(DaemonError) {
        loop.watch(pipe.descriptor, events: Int16(POLLIN)) { [unowned self] _ in
            for number in self.pipe.take() {
                if number == SIGHUP { self.reload() } else { self.terminate(number) }
            }
        }
    }

    func stop() { loop.unwatch(pipe.descriptor) }
}
