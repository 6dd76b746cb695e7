import Glibc
import LibPThread
import LibSQLite
import ShuffleCore

extension Indexer {
    /// Probe reasons that mean the file (or the whole stick) went away while being read, rather than the
    /// file being bad. `MediaProbe` words I/O failures as "cannot read: <strerror>".
    static let vanishReasons: Set<String> = Set(
        [EIO, ENODEV, ENXIO, ESTALE, ENOENT].map { "cannot read: " + Scanner.describe($0) })

    /// Probes `work` a chunk at a time on all cores, writing each chunk in one transaction while the
    /// next one is probed. Stops (setting `outcome`) when the run is cancelled, the root goes away, or a
    /// probe finds its file gone; the chunk being written when that happens is committed, no later one.
    func probeAndWrite(
        _ work: [Work], root: PathBytes, identity: RootIdentity?, volume: VolumeRef, summary: inout IndexSummary,
        counters: inout IndexProgress,
        outcome: inout WalkOutcome
    ) throws(LibraryError) {
        guard !work.isEmpty else { return }
        let cancellation = self.cancellation
        var pending: (range: Range<Int>, results: ProbeResults)?
        var start = 0
        var halted = false
        while !halted {
            let range = start..<min(start + Self.batchSize, work.count)
            start = range.upperBound
            let results = ProbeResults(count: range.count)
            var workers: [PThread] = []
            if !range.isEmpty {
                let paths = work[range].map { root.appending($0.entry.path) }
                let probe = prober.probe
                workers = PThread.startWorkers(
                    count: paths.count, threads: PThread.processorCount, name: "shufflebox-probe"
                ) { index in
                    // A cancelled run leaves the slot empty; empty slots are never written.
                    guard cancellation?.isCancelled != true else { return }
                    results.set(index, probe(paths[index]))
                }
            }
            if let (previous, probed) = pending {
                if cancellation?.isCancelled == true {
                    outcome = .cancelled
                    halted = true
                } else if let problem = identity?.problem() {
                    outcome.record(.incomplete(reason: problem))
                    halted = true
                } else {
                    try write(
                        work[previous], probed.values, root: root, volume: volume, summary: &summary,
                        counters: &counters, outcome: &outcome, halted: &halted)
                }
            }
            for worker in workers { worker.join() }
            pending = range.isEmpty ? nil : (range, results)
            if range.isEmpty { break }
        }
    }

    /// Writes one chunk in one transaction, skipping files whose probe found them gone (and then halting).
    private func write(
        _ chunk: ArraySlice<Work>, _ outcomes: [ProbeOutcome?], root: PathBytes, volume: VolumeRef,
        summary: inout IndexSummary, counters: inout IndexProgress, outcome: inout WalkOutcome, halted: inout Bool
    ) throws(LibraryError) {
        var local = summary
        var localCounters = counters
        var stop: WalkOutcome?
        // An I/O error on one file while others of the chunk read fine (and the root is still there: the
        // caller checked) is that file's damage, not the stick going away: the file is recorded unplayable,
        // to be read again on the next run, and the run goes on. Without one good read, the run stops.
        let stickAnswers = outcomes.contains { outcome in
            switch outcome {
            case .audio: return true
            case .unplayable(let reason): return !Self.vanishReasons.contains(reason)
            case .notAudio, nil: return false
            }
        }
        try database.transaction { () throws(SQLiteError) in
            for (item, probed) in zip(chunk, outcomes) {
                guard let probed else {
                    stop = stop ?? .cancelled
                    continue
                }
                if case .unplayable(let reason) = probed, Self.vanishReasons.contains(reason), !stickAnswers {
                    let path = root.appending(item.entry.path).display
                    stop =
                        stop
                        ?? .incomplete(reason: "reading \(path) failed: \(reason.dropFirst("cannot read: ".count))")
                    continue
                }
                let record = LibraryDatabase.FileRecord(
                    path: item.entry.path, size: item.entry.size, mtimeNs: item.entry.mtimeNs, outcome: probed)
                localCounters.filesProbed += 1
                local.probed += 1
                switch item {
                case .insert:
                    try database.insertFile(record, volume: volume)
                    if case .notAudio = probed { local.ignoredChanges += 1 } else { local.added += 1 }
                    switch probed {
                    case .audio: localCounters.tracks += 1
                    case .unplayable: localCounters.unplayable += 1
                    case .notAudio: break
                    }
                case .update(let id, _, let isMove):
                    try database.updateFile(id: id, with: record)
                    if !isMove { local.changed += 1 }
                }
            }
        }
        summary = local
        counters = localCounters
        if let stop {
            outcome.record(stop)
            halted = true
        }
        progress(counters)
    }
}

/// Probe results filled in by several threads, one slot each; a slot stays nil when the run was cancelled.
final class ProbeResults: Sendable {
    private let slots: PThreadMutex<[ProbeOutcome?]>

    init(count: Int) { slots = PThreadMutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ outcome: ProbeOutcome) { slots.withLock { $0[index] = outcome } }

    var values: [ProbeOutcome?] { slots.withLock { $0 } }
}
