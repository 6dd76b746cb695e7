/// Waiting, injected: production sleeps on the player's own queue (`Playback`'s `QueueSleeper`), tests
/// record the requests and return at once (CONVENTIONS C12). Used for device retry back-off and the
/// periodic resume-point save.
public protocol Sleeper: Sendable {
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}
