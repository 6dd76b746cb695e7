/// Waiting, injected: production sleeps on the continuous clock, tests record the requests and return
/// at once (CONVENTIONS C12). Used for device retry back-off and the periodic resume-point save.
public protocol Sleeper: Sendable {
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real sleeper: `Task.sleep` on the continuous clock (no busy loop, no wake-ups in between).
public struct ClockSleeper: Sleeper {
    /// Creates the sleeper.
    public init() {}

    /// Sleeps for `duration`.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration, clock: .continuous)
    }
}
