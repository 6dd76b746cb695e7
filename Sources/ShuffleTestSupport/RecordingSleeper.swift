import LibPThread
import ShuffleCore

/// A `Sleeper` that records every requested wait and sleeps only a thousandth of it for real, so timers and
/// back-off run in order, fast, and without a busy loop.
public final class RecordingSleeper: Sleeper {
    private let requests = PThreadMutex<[Duration]>([])
    private let scale: Int

    /// Creates a sleeper that really waits `duration / scale`.
    public init(scale: Int = 1000) { self.scale = max(1, scale) }

    /// Every wait asked for, in order.
    public var requested: [Duration] { requests.withLock { $0 } }

    /// Records `duration`, then waits a fraction of it.
    public func sleep(for duration: Duration) async throws {
        requests.withLock { $0.append(duration) }
        try await Task.sleep(for: duration / scale)
    }
}
