import Dispatch
import ShuffleCore
import LibSQLite
import Synchronization

/// Brings the database in step with a folder tree: the incremental index.
///
/// 1. Load the volume's known files (path → id, size, mtime, status) once.
/// 2. Walk and `lstat` the tree. A file with the same size and mtime as stored is left alone, whatever
///    its status (unplayable and non-audio files are not read again until they change).
/// 3. Vanished files are deleted (rows and FTS). A new file with the same (size, mtime) as exactly one
///    vanished file, and no other new file sharing it, is taken as that file moved: it keeps its id
///    (so the shuffle order and resume point stay valid) and is probed again, so a coincidence
///    cannot carry stale tags.
/// 4. New and changed files are probed on all cores, a chunk of ~500 at a time, while the previous
///    chunk is written in one transaction.
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

    /// Creates an indexer.
    public init(
        database: LibraryDatabase, prober: FileProber, warn: @escaping (String) -> Void,
        progress: @escaping (IndexProgress) -> Void = { _ in }
    ) {
        self.database = database
        self.prober = prober
        self.warn = warn
        self.progress = progress
    }

    private enum Work {
        case insert(Scanner.Entry)
        case update(id: Int64, Scanner.Entry, isMove: Bool)
    }

    /// Indexes `root` (an absolute path) as the volume `key`.
    public func run(root: PathBytes, key: String, now: Int64) throws(LibraryError) -> IndexSummary {
        var summary = IndexSummary()
        let scanner = Scanner(root: root, warn: warn)
        var seen: [Scanner.Entry] = []
        var counters = IndexProgress()
        // Walk first: a missing root must fail before the database is touched.
        try scanner.walk { entry in
            seen.append(entry)
            counters.filesSeen += 1
            if counters.filesSeen % 256 == 0 { progress(counters) }
        }
        summary.filesSeen = seen.count
        let volume = try database.volume(key: key, root: root, now: now)
        var known = try database.knownFiles(of: volume)
        let before = try database.counts(of: volume)
        counters.tracks = before.tracks
        counters.unplayable = before.unplayable

        var work: [Work] = []
        var fresh: [Scanner.Entry] = []
        for entry in seen where !prober.isIgnored(entry.path) {
            if let file = known.removeValue(forKey: entry.path) {
                if file.size != entry.size || file.mtimeNs != entry.mtimeNs { work.append(.update(id: file.id, entry, isMove: false)) }
            } else {
                fresh.append(entry)
            }
        }
        // What is left in `known` vanished (or is now ignored by extension). Pair unambiguous moves.
        var vanished = known
        work += pairMoves(fresh: fresh, vanished: &vanished, summary: &summary)
        for (_, file) in vanished where file.status != .ignored { summary.removed += 1 }
        summary.ignoredChanges += vanished.values.filter { $0.status == .ignored }.count
        counters.filesToProbe = work.count

        if !vanished.isEmpty {
            try database.transaction { () throws(SQLiteError) in
                for (_, file) in vanished { try database.deleteFile(id: file.id) }
            }
        }
        try probeAndWrite(work, root: root, volume: volume, summary: &summary, counters: &counters)
        let after = try database.counts(of: volume)
        summary.tracks = after.tracks
        summary.unplayable = after.unplayable
        counters.tracks = after.tracks
        counters.unplayable = after.unplayable
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
        var freshCount: [Stamp: Int] = [:]
        if !vanishedByStamp.isEmpty {
            for entry in fresh { freshCount[Stamp(size: entry.size, mtimeNs: entry.mtimeNs), default: 0] += 1 }
        }
        var work: [Work] = []
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

    /// Probes `work` a chunk at a time on all cores, writing each chunk in one transaction while the
    /// next one is probed.
    private func probeAndWrite(
        _ work: [Work], root: PathBytes, volume: VolumeRef, summary: inout IndexSummary, counters: inout IndexProgress
    ) throws(LibraryError) {
        guard !work.isEmpty else { return }
        let chunks = stride(from: 0, to: work.count, by: Self.batchSize).map {
            Array(work[$0..<min($0 + Self.batchSize, work.count)])
        }
        var pending: (chunk: [Work], results: ProbeResults)?
        for chunk in chunks + [[]] {
            let results = ProbeResults(count: chunk.count)
            let group = DispatchGroup()
            if !chunk.isEmpty {
                let paths = chunk.map { item -> PathBytes in
                    switch item {
                    case .insert(let entry), .update(_, let entry, _): root.appending(entry.path)
                    }
                }
                let probe = prober.probe
                DispatchQueue.global().async(group: group) {
                    DispatchQueue.concurrentPerform(iterations: paths.count) { index in
                        results.set(index, probe(paths[index]))
                    }
                }
            }
            if let (previous, outcomes) = pending {
                try write(previous, outcomes.values, volume: volume, summary: &summary, counters: &counters)
            }
            group.wait()
            pending = chunk.isEmpty ? nil : (chunk, results)
        }
    }

    private func write(
        _ chunk: [Work], _ outcomes: [ProbeOutcome], volume: VolumeRef, summary: inout IndexSummary,
        counters: inout IndexProgress
    ) throws(LibraryError) {
        var local = summary
        var localCounters = counters
        try database.transaction { () throws(SQLiteError) in
            for (item, outcome) in zip(chunk, outcomes) {
                switch item {
                case .insert(let entry):
                    let record = LibraryDatabase.FileRecord(
                        path: entry.path, size: entry.size, mtimeNs: entry.mtimeNs, outcome: outcome)
                    try database.insertFile(record, volume: volume)
                    if case .notAudio = outcome { local.ignoredChanges += 1 } else { local.added += 1 }
                case .update(let id, let entry, let isMove):
                    let record = LibraryDatabase.FileRecord(
                        path: entry.path, size: entry.size, mtimeNs: entry.mtimeNs, outcome: outcome)
                    try database.updateFile(id: id, with: record)
                    if !isMove { local.changed += 1 }
                    localCounters.filesProbed += 1
                    local.probed += 1
                    continue
                }
                local.probed += 1
                localCounters.filesProbed += 1
                switch outcome {
                case .audio: localCounters.tracks += 1
                case .unplayable: localCounters.unplayable += 1
                case .notAudio: break
                }
            }
        }
        summary = local
        counters = localCounters
        progress(counters)
    }
}

/// Probe results filled in by several threads, one slot each.
final class ProbeResults: Sendable {
    private let slots: Mutex<[ProbeOutcome]>

    init(count: Int) { slots = Mutex(Array(repeating: .notAudio, count: count)) }

    func set(_ index: Int, _ outcome: ProbeOutcome) { slots.withLock { $0[index] = outcome } }

    var values: [ProbeOutcome] { slots.withLock { $0 } }
}
