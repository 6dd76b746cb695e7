import Dispatch
import Glibc
import LibLinux
import LibPThread

/// Single key presses from stdin, and SIGINT/SIGTERM/SIGHUP, on one thread of its own that sleeps in
/// `poll(2)` until something arrives. On a terminal, stdin is put in raw mode (no echo, no line buffering)
/// and restored by `stop()`; from a pipe, bytes are read as they come, and at end of input only the
/// signals are watched (playing goes on).
///
/// Not Dispatch sources: a read source cancelled at end of input can crash libdispatch's manager thread on
/// Linux (a use-after-free of its epoll bookkeeping, swift-corelibs-libdispatch #949); it did, once, in a
/// `play` test.
final class KeyboardInput: Sendable {
    private let saved: termios?
    private let stopping: EventFD?

    /// Starts reading: `key` gets each key (as a one-character string), `quit` each termination signal,
    /// both on the input thread. Returns once the signals are caught, so that from then on none can end the
    /// process before the resume point is saved.
    init(key: @escaping @Sendable (Character) -> Void, quit: @escaping @Sendable () -> Void) {
        var settings = termios()
        if isatty(0) == 1, tcgetattr(0, &settings) == 0 {
            saved = settings
            var raw = settings
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
                bytes[Int(VMIN)] = 1
                bytes[Int(VTIME)] = 0
            }
            tcsetattr(0, TCSANOW, &raw)
        } else {
            saved = nil
        }
        stopping = try? EventFD()
        let stop = stopping?.descriptor ?? -1
        let ready = DispatchSemaphore(value: 0)
        PThread.startDetached(name: "shufflebox-keys") { Self.run(stop: stop, ready: ready, key: key, quit: quit) }
        ready.wait()
    }

    /// Stops reading and restores the terminal.
    func stop() {
        stopping?.signal()
        if var saved { tcsetattr(0, TCSANOW, &saved) }
    }

    /// The input thread: the signal pipe is made here, so that this thread is the one with the signals
    /// unblocked.
    private static func run(
        stop: Int32, ready: DispatchSemaphore, key: @Sendable (Character) -> Void, quit: @Sendable () -> Void
    ) {
        let signals: SignalPipe
        do {
            signals = try SignalPipe()
            ready.signal()
        } catch {
            ready.signal()
            Terminal.error("shufflebox: \(error); Ctrl-C will not save the resume point")
            return
        }
        var watchStdin = true
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            var fds = [
                pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watchStdin ? 0 : -1, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents != 0, !signals.take().isEmpty { quit() }
            if fds[2].revents != 0 {
                let count = read(0, &bytes, bytes.count)
                if count > 0 {
                    for byte in bytes[0..<count] { key(Character(Unicode.Scalar(byte))) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    watchStdin = false
                }
            }
        }
    }
}
