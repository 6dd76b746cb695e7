import LibPThread

/// Whether resume points are being stored, shared between the store and whoever reports on it (`status`):
/// nil while saves work, else why the last one failed (a full or read-only state folder).
public final class SaveHealth: Sendable {
    private let problem = PThreadMutex<String?>(nil)

    /// Creates a healthy record.
    public init() {}

    /// Why resume points cannot be stored right now, or nil.
    public var failure: String? { problem.withLock { $0 } }

    func record(_ failure: String?) { problem.withLock { $0 = failure } }
}
