import Glibc
import MusicLibrary
import Playback
import ShuffleCore

/// `shufflebox index DIR [--db FILE]`: brings the library database in step with a folder.
enum IndexCommand {
    /// Runs the command and returns the exit status.
    static func run(_ options: IndexOptions) async -> Int32 {
        // A missing folder fails before any database is created.
        guard let root = LibraryOutput.musicFolder(options.root, verb: "index") else { return ExitCode.failure }
        let path = LibraryOutput.databasePath(options.database)
        let interactive = Terminal.stderrIsTerminal
        do {
            let store = try await LibraryStore.open(path: path, create: true)
            let started = ContinuousClock.now
            let summary = try await store.perform { database throws(LibraryError) -> IndexSummary in
                let line = ProgressLine(started: started, enabled: interactive)
                let indexer = Indexer(
                    database: database, prober: .mediaProbe, warn: { line.warn($0) }, progress: { line.update($0) })
                defer { line.finish() }
                return try indexer.run(
                    root: root, key: VolumeRef.pathKey(for: root), now: Int64(time(nil)))
            }
            Terminal.error(summaryLine(summary, root: root, elapsed: ContinuousClock.now - started))
            if summary.outcome == .complete {
                // The lengths the first probe could only estimate (streams over 24 MiB), walked in full.
                let refined = try await store.perform { database throws(LibraryError) -> Int in
                    let indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in })
                    return try indexer.refineEstimates(key: VolumeRef.pathKey(for: root))
                }
                if refined > 0 {
                    Terminal.error(
                        "walked \(refined) long track\(refined == 1 ? "" : "s") in full for the exact length")
                }
                // Tracks indexed before the library knew stories: their flags and chapters, read once.
                let read = try await store.perform { database throws(LibraryError) -> Int in
                    try Indexer(database: database, prober: .mediaProbe, warn: { _ in })
                        .readStories(key: VolumeRef.pathKey(for: root))
                }
                if read > 0 {
                    Terminal.error("read \(read) earlier track\(read == 1 ? "" : "s") for stories and chapters")
                }
            }
            if summary.outcome == .complete && options.measureLoudness,
                let failed = measureLoudness(path: path, root: root)
            {
                return failed
            }
            guard case .incomplete(let reason) = summary.outcome else { return ExitCode.success }
            // The index keeps what it had: a person should know it is not in step with the folder.
            Terminal.error(
                "shufflebox: indexing \(root.display) stopped short (\(reason)); nothing was removed, run it again")
            return ExitCode.failure
        } catch {
            return LibraryOutput.report(error).code
        }
    }

    /// Measures every pending track of `root` now (`LoudnessScan`, on this thread) and says how many, in how
    /// long; returns an exit status when it failed, else nil.
    private static func measureLoudness(path: String, root: PathBytes) -> Int32? {
        let started = ContinuousClock.now
        let cpuBefore = processCPUSeconds()
        let measured: LoudnessScan.Summary
        do {
            let database = try LibraryDatabase(path: path, create: false)
            measured = try LoudnessScan.run(
                database: database, key: VolumeRef.pathKey(for: root), cancellation: IndexCancellation(),
                log: Log(label: "loudness", minimum: .warning, sink: { Terminal.error($0) }),
                measurer: try LoudnessMeasurer())
        } catch let error as LibraryError {
            return LibraryOutput.report(error).code
        } catch {
            Terminal.error("shufflebox: cannot measure loudness: \(error)")
            return ExitCode.failure
        }
        Terminal.error(
            "measured the loudness of \(measured.measured) track\(measured.measured == 1 ? "" : "s")"
                + (measured.failed > 0 ? " (\(measured.failed) could not be decoded)" : "")
                + " (\(Int(measured.audioSeconds)) s of audio) in \(ProgressLine.seconds(ContinuousClock.now - started)) s, "
                + "\(Int((processCPUSeconds() - cpuBefore) * 1000)) ms of CPU")
        return nil
    }

    /// "indexed /media/stick: 9802 tracks, 12 unplayable (+9814 added, 0 changed, 0 moved, 0 removed) in 3.2 s".
    static func summaryLine(_ summary: IndexSummary, root: PathBytes, elapsed: Duration) -> String {
        "indexed \(root.display): \(summary.tracks) tracks, \(summary.unplayable) unplayable "
            + "(\(summary.added) added, \(summary.changed) changed, \(summary.moved) moved, \(summary.removed) removed) "
            + "in \(ProgressLine.seconds(elapsed)) s"
    }
}

/// User and system CPU time of this process so far, in seconds (`getrusage`).
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
}

/// The live progress line on a terminal's stderr, redrawn with `\r` at most ten times a second.
final class ProgressLine {
    private let started: ContinuousClock.Instant
    private let enabled: Bool
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false

    init(started: ContinuousClock.Instant, enabled: Bool) {
        self.started = started
        self.enabled = enabled
    }

    /// Redraws the line when a tenth of a second has passed since the last time.
    func update(_ progress: IndexProgress) {
        guard enabled else { return }
        let now = ContinuousClock.now
        if let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        let elapsed = now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int(Double(max(progress.filesProbed, progress.filesSeen)) / seconds) : 0
        var text = "\r\u{1B}[K\(progress.filesSeen) files seen, \(progress.tracks) tracks, "
        text += "\(progress.unplayable) unplayable"
        if progress.filesToProbe > 0 { text += ", read \(progress.filesProbed)/\(progress.filesToProbe)" }
        text += ", \(rate) files/s, \(Self.seconds(elapsed)) s"
        Terminal.writeError(text)
        drawn = true
    }

    /// Prints a warning on its own line, keeping the progress line below it.
    func warn(_ message: String) {
        if drawn { Terminal.writeError("\r\u{1B}[K") }
        Terminal.error("shufflebox: warning: \(message)")
        lastDraw = nil
    }

    /// Ends the progress line so the summary starts on a clean line.
    func finish() {
        if drawn { Terminal.writeError("\r\u{1B}[K") }
    }

    /// `elapsed` in seconds with one decimal.
    static func seconds(_ elapsed: Duration) -> String {
        let tenths = elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
