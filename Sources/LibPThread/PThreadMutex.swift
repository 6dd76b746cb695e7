internal import Glibc

/// A value guarded by a `pthread_mutex_t`, with the `withLock` shape of `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux the standard library's `Mutex` hands a contended lock over with futex system
/// calls made inside the uninstrumented runtime, so ThreadSanitizer never sees the happens-before edge and
/// reports every contended `withLock` as a "Swift access race" (`make sanitize`; a two-thread append under a
/// `Mutex` reproduces it). ThreadSanitizer intercepts `pthread_mutex_lock`/`unlock`, so it sees this lock's
/// ordering and still reports real races on anything the lock does not cover.
///
/// Use it for state shared between threads; it is a class (the mutex must not move), so holders may be
/// captured by escaping closures.
public final class PThreadMutex<Value: ~Copyable>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, between lock and unlock of `mutex`; values go in
    // and out as `sending`, as with `Mutex`, so no unprotected alias of the state can escape.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// Creates the lock holding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed with \(rc)")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns its result. Not reentrant: calling
    /// `withLock` on the same lock inside `body` deadlocks.
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
