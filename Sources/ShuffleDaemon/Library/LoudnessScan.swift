import LibPThread
import MusicLibrary
import Playback
import ShuffleCore

/// The background loudness scan: every playable track of a library with no ReplayGain tag is decoded once
/// and measured (EBU R128 integrated loudness and true peak, `LoudnessMeasurer`), and the result stored in
/// its track row, where the player reads it the next time the track starts.
///
/// It runs after the index run has reported (music is playing by then), on a thread of its own at the
/// lowest priority (`SCHED_IDLE`), with a database connection of its own, one track at a time, each stored
/// as soon as it is measured. The decoding is done by `LoudnessHelper`, a process of its own at the same
/// priority, so that a hostile file costs its track, not the player, and the decoders' memory stays out of
/// it (`shufflebox index --measure-loudness` decodes in its own process: it is one already). It is resumable because the database is the queue: a pass cut short (the
/// stick pulled, the daemon stopped, the power cut) leaves the rest pending, and the next pass finds them
/// again. A track whose file changed is written anew by the indexer, pending again, and a measurement of
/// the old file that ends after that is dropped (`setLoudness` stores only while the file's size and time
/// are the ones listed).
enum LoudnessScan {
    /// What one pass did.
    struct Summary: Sendable, Equatable {
        /// Tracks measured and stored.
        var measured = 0
        /// Tracks that could not be decoded (stored as failed: not tried again until they change).
        var failed = 0
        /// Seconds of audio decoded.
        var audioSeconds = 0.0
        /// Whether the pass stopped before the end (cancelled, or the medium could not be read).
        var stoppedShort = false
    }

    /// Starts a pass over library `key` of the database at `path` on a new low-priority thread; `done` is
    /// called on that thread at the end (not when cancelled).
    static func start(
        databasePath: String, key: String, cancellation: IndexCancellation, log: Log,
        done: @escaping @Sendable (Summary) -> Void = { _ in }
    ) {
        PThread.startDetached(name: "shufflebox-loud") {
            PThread.lowerCurrentThreadPriority()
            let helper = LoudnessHelper()
            defer { helper.end() }
            do {
                let database = try LibraryDatabase(path: databasePath, create: false)
                let summary = try run(
                    database: database, key: key, cancellation: cancellation, log: log, measurer: helper)
                guard !cancellation.isCancelled else { return }
                done(summary)
            } catch {
                guard !cancellation.isCancelled else { return }
                log.warning("measuring loudness stopped: \(error)")
            }
        }
    }

    /// One pass on the calling thread: measures every pending track of library `key` until none is left,
    /// `cancellation` is raised, or the medium cannot be read.
    static func run(
        database: LibraryDatabase, key: String, cancellation: IndexCancellation, log: Log,
        measurer: any TrackLoudnessMeasuring
    ) throws -> Summary {
        var summary = Summary()
        guard let volume = try database.existingVolume(key: key) else { return summary }
        let isCancelled: () -> Bool = { cancellation.isCancelled }
        while !isCancelled() {
            let batch = try database.tracksToMeasure(of: volume, limit: 64)
            // A batch's pages are read once: cached, a pass over 10,000 tracks would hold SQLite's whole page
            // cache (512 KiB) in the daemon for its minute.
            database.releaseCachedPages()
            if batch.isEmpty { break }
            for track in batch {
                let path = track.path
                if isCancelled() {
                    summary.stoppedShort = true
                    summary.audioSeconds = measurer.decodedSeconds
                    return summary
                }
                let measured: TrackLoudness?
                do {
                    measured = try measurer.measure(path: volume.root.appending(path).bytes, isCancelled: isCancelled)
                } catch let error as LoudnessMeasurementError where error.unreadable {
                    // The stick is going, or the file went: the next pass tries again.
                    log.debug("measuring loudness stopped at \(path.display): \(error)")
                    summary.stoppedShort = true
                    summary.audioSeconds = measurer.decodedSeconds
                    return summary
                } catch {
                    try database.setLoudness(nil, of: track)
                    summary.failed += 1
                    log.debug("cannot measure \(path.display): \(error)")
                    continue
                }
                guard let loudness = measured, !isCancelled() else { break }
                // False when the indexer rewrote the row meanwhile: the file changed and waits again.
                guard try database.setLoudness(loudness, of: track) else { continue }
                summary.measured += 1
                log.debug(
                    "measured \(path.display): \(loudness.integratedLUFS.map { "\($0) LUFS" } ?? "silent"), "
                        + "true peak \(loudness.truePeak ?? 0)")
            }
        }
        summary.stoppedShort = summary.stoppedShort || isCancelled()
        summary.audioSeconds = measurer.decodedSeconds
        return summary
    }
}
