@preconcurrency import Dispatch

/// A serial executor backed by a `DispatchQueue`, so an actor's blocking work (SQLite) runs on a
/// thread of its own and never on Swift's cooperative pool (CONVENTIONS C10).
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    /// Creates an executor on a new serial queue named `label`.
    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
