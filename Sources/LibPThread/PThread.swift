internal import Glibc

/// Starts POSIX threads for work that blocks (the audio loop, the daemon's event loop, an index run),
/// without Foundation's `Thread`. Wraps `pthread_create`, `pthread_join` and `pthread_detach`.
public final class PThread: Sendable {
    /// The handle until `join()` takes it (joining twice would be undefined behaviour).
    private let handle: PThreadMutex<pthread_t?>

    private init(_ handle: pthread_t) { self.handle = PThreadMutex(handle) }

    /// Runs `body` on a new thread named `name` (Linux keeps 15 bytes); `join()` waits for it.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> PThread {
        PThread(create(ThreadBody(name: name, run: body)))
    }

    /// Runs `body` on a new detached thread named `name`: nobody waits for it.
    public static func startDetached(name: String, _ body: @escaping @Sendable () -> Void) {
        pthread_detach(create(ThreadBody(name: name, run: body)))
    }

    /// Runs `body(i)` for every `i` in `0..<count` on `threads` new threads (each takes the next index until
    /// none is left) and returns them: `join()` each to wait. What `DispatchQueue.concurrentPerform` does, on
    /// threads of our own: on Linux a job on libdispatch's global queues starts its pool monitor, a timer
    /// that wakes the process every second for as long as it lives.
    public static func startWorkers(
        count: Int, threads: Int, name: String, _ body: @escaping @Sendable (Int) -> Void
    ) -> [PThread] {
        let next = PThreadMutex(0)
        return (0..<max(1, min(threads, count))).map { _ in
            start(name: name) {
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < count else { return }
                    body(index)
                }
            }
        }
    }

    /// Puts the calling thread at the lowest priority Linux has: `SCHED_IDLE` (it runs only when no other
    /// thread wants the CPU, so the audio thread and the event loop never wait for it) and nice 19 where the
    /// kernel refuses that. Per thread, not per process: on Linux `sched_setscheduler(0, …)` and
    /// `setpriority(PRIO_PROCESS, 0, …)` apply to the calling thread alone. Best effort; returns whether
    /// `SCHED_IDLE` took.
    @discardableResult
    public static func lowerCurrentThreadPriority() -> Bool {
        var parameters = sched_param()
        parameters.sched_priority = 0
        // 5 is SCHED_IDLE, which Swift's Glibc does not export (it is behind _GNU_SOURCE).
        if sched_setscheduler(0, 5, &parameters) == 0 { return true }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        return false
    }

    /// The number of processors online (at least 1).
    public static var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Waits for the thread to end; later calls return at once. Blocks: call from a thread of its own.
    public func join() {
        guard
            let taken = handle.withLock({ value -> pthread_t? in
                let taken = value
                value = nil
                return taken
            })
        else { return }
        pthread_join(taken, nil)
    }

    private static func create(_ body: ThreadBody) -> pthread_t {
        var thread = pthread_t()
        // The body crosses as a retained raw pointer; the new thread takes the reference over.
        let context = Unmanaged.passRetained(body).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().main()
                return nil
            }, context)
        if rc != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            preconditionFailure("pthread_create failed with \(rc)")
        }
        return thread
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
