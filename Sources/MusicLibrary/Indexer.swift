import Dispatch
import LibSQLite
import ShuffleCore
import Synchronization

/// Brings the database in step with a folder tree: the incremental index.
///
/// 1. Load the volume's known files (path → id, size, mtime, status) once, without writing.
/// 2. Walk and `lstat` the tree, sorting each file as it comes: a file with the same size and mtime as
///    stored is left alone, whatever its status (unplayable and non-audio files are not read again until
///    they change); other files become work. Nothing but the work list is kept.
/// 3. A new file with the same (size, mtime) as exactly one vanished file, and no other new file sharing
///    it, is taken as that file moved: it keeps its id (so the shuffle order and resume point stay valid)
///    and is probed again, so a coincidence cannot carry stale tags.
/// 4. New and changed files are probed on all cores, a chunk of ~500 at a time, while the previous
///    chunk is written in one transaction. On a stick with no playable track yet, the walk itself probes
///    the first few audio files it meets and writes the first that plays at once (`FirstTrack`), so music
///    can start before the walk ends.
/// 5. Last, vanished files are deleted (rows and FTS), and only when the walk was complete, the run was
///    not cancelled, every probe could read its file and the root is still the same folder. A tree with
///    no files at all where the index has some counts as incomplete: it is what a mount point looks like
///    while its stick is not mounted. A stick
///    pulled out mid-run therefore never empties the index: what was added or changed is kept, nothing is
///    removed, and `IndexSummary.outcome` says why.
///
/// A run over an unchanged tree opens no transaction and writes nothing.
public struct Indexer {
    /// Files written per transaction.
    public static let batchSize = 500

    /// The database to bring in step.
    public let database: LibraryDatabase
    /// How files are recognised and read.
    public let prober: FileProber
    /// Warnings for a person (unreadable folders, vanished files).
    public let warn: (String) -> Void
    /// Called with the counters every few files; cheap, on the indexing thread.
    public let progress: (IndexProgress) -> Void
    /// Raised by another thread to stop the run (checked between files and batches).
    public var cancellation: IndexCancellation?
    /// Test seam, passed to `Scanner.beforeEnteringFolder`: lets a test pull the stick out mid-walk.
    public var beforeEnteringFolder: ((PathBytes) -> Void)?

    /// Creates an indexer.
    public init(
        database: LibraryDatabase, prober: FileProber, warn: @escaping (String) -> Void,
        progress: @escaping (IndexProgress) -> Void = { _ in }, cancellation: IndexCancellation? = nil
    ) {
        self.database = database
        self.prober = prober
        self.warn = warn
        self.progress = progress
        self.cancellation = cancellation
    }

    /// One file to probe and write.
    enum Work {
        case insert(Scanner.Entry)
        case update(id: Int64, Scanner.Entry, isMove: Bool)

        var entry: Scanner.Entry {
            switch self {
            case .insert(let entry), .update(_, let entry, _): entry
            }
        }
    }

    /// Indexes `root` (an absolute path) as the volume `key`.
    public func run(root: PathBytes, key: String, now: Int64) throws(LibraryError) -> IndexSummary {
        var summary = IndexSummary()
        var counters = IndexProgress()
        // Read before writing anything: a missing root must fail before the database is touched.
        var known = KnownFiles()
        if let existing = try database.existingVolume(key: key) { known = try database.knownFiles(of: existing) }

        var work: [Work] = []
        var fresh: [Scanner.Entry] = []
        var scanner = Scanner(root: root, warn: warn)
        if let cancellation { scanner.isCancelled = { cancellation.isCancelled } }
        scanner.beforeEnteringFolder = beforeEnteringFolder
        let identity = RootIdentity(path: root)
        var firstTrack = FirstTrack(known: known)
        var walked = try scanner.walk { entry in
            counters.filesSeen += 1
            if counters.filesSeen % 256 == 0 { progress(counters) }
            guard !prober.isIgnored(entry.path) else { return }
            if let file = known.take(entry.path) {
                if file.size != entry.size || file.mtimeNs != entry.mtimeNs || file.wasUnreadable {
                    work.append(.update(id: file.id, entry, isMove: false))
                }
            } else if !firstTrack.offer(
                entry, indexer: self, root: root, key: key, now: now, summary: &summary, counters: &counters)
            {
                fresh.append(entry)
            }
        }
        summary.filesSeen = counters.filesSeen
        if walked.isComplete && counters.filesSeen == 0 && !known.isEmpty {
            // An empty folder where a library was: most likely a mount point whose stick is not mounted (or
            // not mounted yet). Emptying the index on that evidence would lose the library and its resume point.
            walked = .incomplete(
                reason: "\(root.display) is empty; a stick that is not mounted looks like this, so its "
                    + "\(known.count) indexed files are kept")
            warn("nothing was removed from the index: \(root.display) is empty; mount the stick and index again")
        }
        summary.outcome = walked
        if walked == .cancelled { return try finish(summary, key: key, counters: counters, now: now) }

        let volume = try database.volume(key: key, root: root, now: now)
        let before = try database.counts(of: volume)
        counters.tracks = before.tracks
        counters.unplayable = before.unplayable

        // What is left in `known` vanished (or is now ignored by extension). Pair unambiguous moves, but only
        // after a complete walk: otherwise the "vanished" file may simply be in a folder that was not read.
        var vanished = known.untaken()
        known = KnownFiles()
        if walked.isComplete {
            work += pairMoves(fresh: fresh, vanished: &vanished, summary: &summary)
        } else {
            work += fresh.map { Work.insert($0) }
            vanished = [:]
        }
        fresh = []
        counters.filesToProbe = work.count

        var outcome = walked
        try probeAndWrite(
            work, root: root, identity: identity, volume: volume, summary: &summary, counters: &counters,
            outcome: &outcome)
        work = []
        if !vanished.isEmpty && outcome.isComplete {
            // Last look before deleting: the stick may have gone while its files were being read.
            let rootProblem = identity == nil ? "\(root.display) could not be opened" : identity?.problem()
            if cancellation?.isCancelled == true {
                outcome = .cancelled
            } else if let problem = rootProblem {
                outcome = .incomplete(reason: problem)
            } else {
                try database.transaction { () throws(SQLiteError) in
                    for (_, file) in vanished { try database.deleteFile(id: file.id) }
                }
                for (_, file) in vanished {
                    if file.status == .ignored { summary.ignoredChanges += 1 } else { summary.removed += 1 }
                }
            }
        }
        if outcome != walked, case .incomplete(let reason) = outcome {
            warn("indexing \(root.display) stopped short (\(reason)); nothing was removed from the index")
        }
        summary.outcome = outcome
        return try finish(summary, key: key, counters: counters, now: now)
    }

    /// Walks in full the streams whose length the run could only estimate (the first probe reads at most
    /// 24 MiB of a stream, so one huge file cannot hold back the rest of the stick), and stores the exact
    /// lengths. Call it after `run` has reported, on the same thread: music is playing by then, and a track
    /// whose walk is cut short (cancelled, the stick pulled) keeps its estimate for the next run to refine.
    /// Returns how many lengths it stored.
    public func refineEstimates(key: String) throws(LibraryError) -> Int {
        guard let volume = try database.existingVolume(key: key) else { return 0 }
        let estimated = try database.wrap { () throws(SQLiteError) in try database.estimatedTracks(of: volume) }
        var refined = 0
        let isCancelled: () -> Bool = { [cancellation] in cancellation?.isCancelled == true }
        for (id, path) in estimated {
            if isCancelled() { break }
            guard let outcome = prober.probeInFull(volume.root.appending(path), isCancelled) else { break }
            // A file that no longer probes as it did has changed: the next run reads it again by its size and time.
            guard case .audio(_, let stream) = outcome else { continue }
            try database.wrap { () throws(SQLiteError) in try database.setLength(id: id, of: stream) }
            refined += 1
        }
        return refined
    }

    /// Fills in the library's counts after the run and reports them.
    private func finish(_ summary: IndexSummary, key: String, counters: IndexProgress, now: Int64)
        throws(LibraryError) -> IndexSummary
    {
        var summary = summary
        var counters = counters
        if let volume = try database.existingVolume(key: key) {
            // What clients show changed (MPD's db_update moves forward), even when the run stopped short.
            if summary.wroteAnything { try database.markChanged(volume, now: now) }
            let after = try database.counts(of: volume)
            summary.tracks = after.tracks
            summary.unplayable = after.unplayable
        }
        counters.tracks = summary.tracks
        counters.unplayable = summary.unplayable
        progress(counters)
        return summary
    }

    /// Splits new files into moves of vanished ones (by unique size and mtime) and plain inserts.
    private func pairMoves(
        fresh: [Scanner.Entry], vanished: inout [PathBytes: LibraryDatabase.KnownFile], summary: inout IndexSummary
    ) -> [Work] {
        struct Stamp: Hashable {
            var size: Int64
            var mtimeNs: Int64
        }
        var vanishedByStamp: [Stamp: [PathBytes]] = [:]
        for (path, file) in vanished where file.status != .ignored {
            vanishedByStamp[Stamp(size: file.size, mtimeNs: file.mtimeNs), default: []].append(path)
        }
        guard !vanishedByStamp.isEmpty else { return fresh.map { Work.insert($0) } }
        var freshCount: [Stamp: Int] = [:]
        for entry in fresh { freshCount[Stamp(size: entry.size, mtimeNs: entry.mtimeNs), default: 0] += 1 }
        var work: [Work] = []
        work.reserveCapacity(fresh.count)
        for entry in fresh {
            let stamp = Stamp(size: entry.size, mtimeNs: entry.mtimeNs)
            if let paths = vanishedByStamp[stamp], paths.count == 1, freshCount[stamp] == 1,
                let file = vanished.removeValue(forKey: paths[0])
            {
                summary.moved += 1
                work.append(.update(id: file.id, entry, isMove: true))
            } else {
                work.append(.insert(entry))
            }
        }
        return work
    }
}
