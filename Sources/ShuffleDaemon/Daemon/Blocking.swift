import Dispatch
import Glibc
import LibPThread

/// Runs async work from the event loop's thread and waits for it, at most `timeout` seconds.
///
/// The loop thread is a plain pthread, not the cooperative pool, so waiting here blocks no Swift task; the
/// work itself runs on `blockingExecutor` (or the store's queue, or the engine's), never on Swift's global
/// executor (see `QueueExecutor`). Nil when it failed or timed out.
func blocking<T: Sendable>(timeout: Double = 2, _ work: @escaping @Sendable () async throws -> T) -> T? {
    let result = PThreadMutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: blockingExecutor) {
        let value = try? await work()
        result.withLock { $0 = value }
        done.signal()
    }
    guard done.wait(timeout: .now() + timeout) == .success else { return nil }
    return result.withLock { $0 }
}

/// Where `blocking` runs its work.
let blockingExecutor = QueueExecutor(label: "shufflebox.blocking")

/// A value shared between threads behind a mutex, as a class so closures can hold it.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: PThreadMutex<Value>
    /// Creates the box.
    init(_ value: Value) { mutex = PThreadMutex(value) }
    /// Runs `body` with the value locked.
    func withLock<R>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
