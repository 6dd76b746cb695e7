import Synchronization

/// A flag another thread raises to stop an index run: the daemon raises it when the stick being
/// indexed is unplugged. The indexer reads it between files and between batches (one relaxed atomic
/// load each); a cancelled run finishes the transaction it is in, writes nothing more and removes
/// nothing.
public final class IndexCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Creates a flag that is not raised.
    public init() {}

    /// Asks the run to stop. Safe from any thread, any number of times.
    public func cancel() { flag.store(true, ordering: .relaxed) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
