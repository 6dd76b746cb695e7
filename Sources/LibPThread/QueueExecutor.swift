@preconcurrency import Dispatch

/// A serial executor and task executor backed by a serial `DispatchQueue` (a thread of its own when busy):
/// for an actor whose work blocks (SQLite), and for the daemon's tasks, so that none of them runs on Swift's
/// global concurrent executor (CONVENTIONS C10).
///
/// Why the global executor is avoided altogether in the daemon: on Linux, the first job on libdispatch's
/// global queues starts its worker-pool monitor, a timer on the dispatch manager thread that wakes the
/// process every second from then on, paused or not. Serial queues run on dispatch's overcommit threads,
/// which the monitor does not watch. `sleep(for:)` waits on such a queue for the same reason
/// (`Task.sleep` schedules its wake-up on a global queue).
public final class QueueExecutor: SerialExecutor, TaskExecutor {
    private let queue: DispatchQueue

    /// Creates an executor on a new serial queue named `label`.
    public init(label: String) { queue = DispatchQueue(label: label) }

    /// Runs `job` on the queue, isolated to this executor and with it as the task's executor.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let serial = asUnownedSerialExecutor()
        let task = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
    }

    /// Suspends the calling task for `duration`, with the wake-up timed by this queue; throws
    /// `CancellationError` as soon as the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        let parts = duration.components
        let nanoseconds = max(0, parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)
        let state = PThreadMutex<SleepState>(.waiting)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { value -> Bool in
                    guard case .waiting = value else { return true }
                    value = .suspended(continuation)
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
                    state.withLock { $0.finish() }?.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.finish() }?.resume(throwing: CancellationError())
        }
    }
}

/// Where one `QueueExecutor.sleep` stands: the continuation is resumed exactly once, by whichever of the
/// timer and the cancellation comes first.
private enum SleepState {
    case waiting
    case suspended(CheckedContinuation<Void, any Error>)
    case finished

    /// Marks the sleep finished and hands out the continuation, if it was suspended and not yet resumed.
    mutating func finish() -> CheckedContinuation<Void, any Error>? {
        defer { self = .finished }
        if case .suspended(let continuation) = self { return continuation }
        return nil
    }
}
