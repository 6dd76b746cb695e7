@preconcurrency import Dispatch
import Glibc

/// Single key presses from stdin: on a terminal it is put in raw mode (no echo, no line buffering) and
/// restored by `stop()`; from a pipe, bytes are read as they come. Reading is a Dispatch read source, so
/// nothing polls. At end of input the source just stops (playing goes on).
final class KeyboardInput: Sendable {
    private let source: DispatchSourceRead
    private let saved: termios?
    private let queue = DispatchQueue(label: "shufflebox.keys")

    /// Starts reading; `handle` gets each key (as a one-character string) on a private queue.
    init(handle: @escaping @Sendable (Character) -> Void) {
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
        source = DispatchSource.makeReadSource(fileDescriptor: 0, queue: queue)
        let source = self.source
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(0, &bytes, bytes.count)
            guard count > 0 else {
                source.cancel()
                return
            }
            for byte in bytes[0..<count] { handle(Character(Unicode.Scalar(byte))) }
        }
        source.activate()
    }

    /// Stops reading and restores the terminal.
    func stop() {
        source.cancel()
        if var saved { tcsetattr(0, TCSANOW, &saved) }
    }
}

/// SIGINT and SIGTERM as Dispatch signal sources: the default action is set to ignore first, so there is no
/// window in which a signal kills the process before the resume point is saved.
final class TerminationSignals: Sendable {
    private let sources: [DispatchSourceSignal]

    /// Calls `handle` (on a private queue) for each SIGINT or SIGTERM.
    init(handle: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "shufflebox.signals")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handle)
            source.activate()
            return source
        }
    }

    /// Stops listening.
    func stop() { for source in sources { source.cancel() } }
}
