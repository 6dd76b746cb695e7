import Glibc
import Synchronization

/// The write end of the signal pipe, read by the C signal handler (an atomic: no Swift state in a handler).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Turns SIGTERM, SIGINT and SIGHUP into bytes on a pipe the event loop polls (the self-pipe trick). Create
/// it on the thread that runs the loop.
///
/// Why not `signalfd`: it needs the signals blocked in every thread, and the Swift runtime's
/// threads exist before `run` starts, so a signal could still hit one of them with its default
/// (fatal) action. A handler runs on whichever thread the kernel picks and only writes one byte.
struct SignalPipe: ~Copyable {
    /// The read end, to poll for `POLLIN`.
    let descriptor: Int32
    private let writeEnd: Int32

    /// Installs the handlers. SIGPIPE is ignored (a client hanging up must not kill the daemon).
    init() throws(DaemonError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw DaemonError("cannot create the signal pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
        signalPipeWriteEnd.store(ends[1], ordering: .sequentiallyConsistent)
        signal(SIGPIPE, SIG_IGN)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaction(number, &action, nil) }
        // And unblocked in this thread, the control loop's: the loop is started from a libdispatch worker,
        // whose signal mask blocks nearly everything and is inherited. With every thread blocking SIGTERM it
        // would stay pending for ever and the daemon would never stop.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The signals received since the last call.
    func take() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        return count > 0 ? buffer.prefix(count).map { Int32($0) } : []
    }

    deinit {
        signalPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
        for number in [SIGTERM, SIGINT, SIGHUP] { signal(number, SIG_DFL) }
        close(descriptor)
        close(writeEnd)
    }
}

/// A failure of the daemon that a person must act on; the message says what and what to do.
struct DaemonError: Error, CustomStringConvertible {
    /// The message.
    var description: String
    init(_ description: String) { self.description = description }
}
