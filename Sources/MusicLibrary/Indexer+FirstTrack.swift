import LibSQLite
import ShuffleCore

extension Indexer {
    /// The probes a walk may make to find a stick's first playable track before the walk ends.
    static let firstTrackAttempts = 8

    /// Music before the whole stick is walked: on a stick with no playable track indexed yet, the first
    /// few files with an audio extension are probed as the walk meets them and written at once, each in a
    /// transaction of its own, until one plays (so the player, told through `progress`, can start while a
    /// stick of 100,000 files is still being listed). Everything else waits for the walk.
    struct FirstTrack {
        /// Whether a track is still wanted (no playable track known, none found yet).
        private(set) var isWanted: Bool
        /// Probes left.
        private var attempts = Indexer.firstTrackAttempts

        /// Starts looking when no file of `known` is playable.
        init(known: KnownFiles) {
            isWanted = !known.hasPlayable
        }

        /// Probes `entry` if it may be the first track and writes what it is. True when `entry` is done
        /// (written); false leaves it to the normal run.
        mutating func offer(
            _ entry: Scanner.Entry, indexer: Indexer, root: PathBytes, key: String, now: Int64,
            summary: inout IndexSummary, counters: inout IndexProgress
        ) -> Bool {
            guard isWanted, attempts > 0, indexer.cancellation?.isCancelled != true,
                let ext = FileProber.fileExtension(of: entry.path), indexer.prober.audioExtensions.contains(ext)
            else { return false }
            attempts -= 1
            let outcome = indexer.prober.probe(root.appending(entry.path))
            // A file (or stick) going away is the normal run's to judge; any other outcome is final.
            if case .unplayable(let reason) = outcome, Indexer.vanishReasons.contains(reason) { return false }
            let record = LibraryDatabase.FileRecord(
                path: entry.path, size: entry.size, mtimeNs: entry.mtimeNs, outcome: outcome)
            do throws(LibraryError) {
                let volume = try indexer.database.volume(key: key, root: root, now: now)
                try indexer.database.transaction { () throws(SQLiteError) in
                    _ = try indexer.database.insertFile(record, volume: volume)
                }
            } catch {
                // The normal run meets (and reports) the same problem.
                return false
            }
            summary.probed += 1
            counters.filesProbed += 1
            switch outcome {
            case .audio:
                isWanted = false
                summary.added += 1
                counters.tracks += 1
            case .unplayable:
                summary.added += 1
                counters.unplayable += 1
            case .notAudio:
                summary.ignoredChanges += 1
            }
            indexer.progress(counters)
            return true
        }
    }
}
