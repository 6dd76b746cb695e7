import LibPThread
import ShuffleCore

/// The player's reads of one track at a time (the track a button asks for, the next one queued), on a
/// connection and a queue of their own. On the store's queue such a read waited behind whatever was there:
/// a resume point's fsync'd save, a search, a whole stick's listing for MPD clients. The database is in WAL
/// mode, so this connection reads while the store's writes; it sees every commit made before its read.
///
/// The connection is opened at the first read and again after the store replaced a damaged database
/// (`replacements` moves). A read that fails here is answered by the store's own connection (see
/// `VolumeCatalog.track`), which handles damage.
public actor TrackReader {
    private let executor = QueueExecutor(label: "shufflebox.catalog")
    private let path: String
    private let replacements: ReplacementCount
    private var database: LibraryDatabase?
    /// The value of `replacements` when `database` was opened.
    private var openedAt = 0

    /// Runs the actor's jobs on its own queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(path: String, replacements: ReplacementCount) {
        self.path = path
        self.replacements = replacements
    }

    /// One playable track of `volume`, or nil.
    func playableTrack(_ id: TrackID, of volume: VolumeRef) throws(LibraryError) -> CatalogTrack? {
        let current = replacements.value
        if database == nil || openedAt != current {
            database = nil
            database = try LibraryDatabase(path: path, create: false)
            openedAt = current
        }
        do {
            return try database?.playableTrack(id, of: volume)
        } catch {
            database = nil  // opened afresh next time
            throw error
        }
    }
}

/// How many times a store replaced its damaged database: read by its `TrackReader` before each read.
final class ReplacementCount: Sendable {
    private let count = PThreadMutex(0)

    var value: Int { count.withLock { $0 } }

    func increment() { count.withLock { $0 += 1 } }
}
