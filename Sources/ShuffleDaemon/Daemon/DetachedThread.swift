import Glibc

/// Starts plain, detached pthreads for work that blocks (the event loop, an index run), without
/// Foundation's `Thread`.
enum DetachedThread {
    /// Runs `body` on a new detached thread named `name` (cut to the 15 bytes Linux keeps).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let body = ThreadBody(name: name, run: body)
        var handle = pthread_t()
        let context = Unmanaged.passRetained(body).toOpaque()
        let rc = pthread_create(
            &handle, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().main()
                return nil
            }, context)
        if rc != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            preconditionFailure("pthread_create failed with \(rc)")
        }
        pthread_detach(handle)
    }
}

/// The closure and name a new thread takes over (a class so it can cross as a raw pointer).
private final class ThreadBody: Sendable {
    let name: String
    let run: @Sendable () -> Void
    init(name: String, run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }

    /// Runs on the new thread: names it, then runs the closure.
    func main() {
        nameCurrentThread()
        run()
    }

    /// Names the calling thread (what `top -H` and `ps -L` show) through `/proc/thread-self/comm`:
    /// `pthread_setname_np` is not visible to Swift without `_GNU_SOURCE`. Best effort.
    private func nameCurrentThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }
}
