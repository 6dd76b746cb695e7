@preconcurrency import Dispatch
import Glibc
import LibLinux
import MusicLibrary
import Playback
import ShuffleCore

/// `shufflebox play DIR [--db FILE] [--device PCM] [--seed N] [--volume V] [--max-volume V] [--once]`:
/// brings the index of DIR up to date, then plays its music shuffled, resuming where the last run stopped.
/// Stories (audiobooks and podcasts, and the folders DIR's `shufflebox.txt` marks as stories) are not played.
///
/// stdout gets one line per track as it starts and nothing else; everything for a person goes to stderr.
/// `SHUFFLEBOX_LOG=debug` shows the engine's debug lines (the skip latency among them).
enum PlayCommand {
    /// Runs the command and returns the exit status.
    static func run(_ options: PlayOptions) async -> Int32 {
        guard let root = LibraryOutput.musicFolder(options.root, verb: "play") else { return ExitCode.failure }
        let log = Log(label: "play", minimum: logLevel(), sink: { Terminal.error($0) })
        let catalog: VolumeCatalog
        do {
            catalog = try await indexedCatalog(root: root, database: options.database, log: log)
        } catch {
            return LibraryOutput.report(error).code
        }
        var configuration = PlaybackConfiguration(
            device: options.device, mixer: options.mixer, seed: options.seed, volume: options.volume,
            scale: VolumeScale(cap: options.maxVolume), once: options.once)
        configuration.shuffle = ShuffleSettings(mode: options.shuffle)
        configuration.loudness = options.loudness
        // Tracks without a gain tag are measured while the music plays; each plays normalised from its next
        // start once measured.
        let measuring = IndexCancellation()
        defer { measuring.cancel() }
        if options.loudness.mode != .off {
            LoudnessScan.start(
                databasePath: LibraryOutput.databasePath(options.database), key: VolumeRef.pathKey(for: root),
                cancellation: measuring, log: log
            ) { summary in
                if summary.measured + summary.failed > 0 {
                    log.debug("measured the loudness of \(summary.measured) tracks (\(summary.failed) could not be)")
                }
            }
        }
        let engine = PlaybackEngine(catalog: catalog, configuration: configuration, log: log) { track, _ in
            Terminal.write(track.terminalName + "\n")
        }
        let keys = KeyboardInput(
            key: { key in
                switch key {
                case " ": engine.send(.playPause)
                case "n": engine.send(.next)
                case "p": engine.send(.previous(positionMs: 0))
                case ".", ">": engine.send(.seek(positionMs: 0, byMs: 5_000, durationMs: 0))
                case ",", "<": engine.send(.seek(positionMs: 0, byMs: -5_000, durationMs: 0))
                case "+", "=": engine.send(.volumeUp)
                case "-", "_": engine.send(.volumeDown)
                case "q", "Q": engine.quit()
                default: break
                }
            }, quit: { engine.quit() })
        defer { keys.stop() }
        do {
            _ = try await engine.run()
            return ExitCode.success
        } catch let error as PlaybackError {
            keys.stop()
            switch error {
            case .nothingPlayable:
                let list = "shufflebox list" + (options.database.map { " --db \($0)" } ?? "")
                Terminal.error(
                    "shufflebox: nothing to play in \(root.display): no playable audio file was found (MP3, FLAC, Ogg "
                        + "Vorbis, Opus, AAC, ALAC, WAV or AIFF); `\(list)` says why each file was refused")
                return ExitCode.failure
            case .deviceUnavailable:
                Terminal.error("shufflebox: \(error)")
                return ExitCode.unavailable
            case .decoderUnavailable:
                Terminal.error("shufflebox: \(error)")
                return ExitCode.failure
            case .libraryVanished:
                // Nothing is held against the tracks: the next `play` of this folder continues here.
                Terminal.error(
                    "shufflebox: the music folder \(root.display) is gone (stick pulled out?); the resume point is saved"
                )
                return ExitCode.failure
            }
        } catch {
            Terminal.error("shufflebox: playing \(root.display) failed: \(error)")
            return ExitCode.failure
        }
    }

    /// Indexes `root` incrementally and returns the player's view of its music.
    private static func indexedCatalog(root: PathBytes, database: String?, log: Log) async throws(LibraryError)
        -> VolumeCatalog
    {
        let path = LibraryOutput.databasePath(database)
        let store = try await LibraryStore.open(path: path, create: true)
        let started = ContinuousClock.now
        let key = VolumeRef.pathKey(for: root)
        let summary = try await store.perform { database throws(LibraryError) -> IndexSummary in
            let line = ProgressLine(started: started, enabled: Terminal.stderrIsTerminal)
            let indexer = Indexer(
                database: database, prober: .mediaProbe, warn: { line.warn($0) }, progress: { line.update($0) })
            defer { line.finish() }
            return try indexer.run(root: root, key: key, now: Int64(time(nil)))
        }
        Terminal.error(IndexCommand.summaryLine(summary, root: root, elapsed: ContinuousClock.now - started))
        // Tracks indexed before the library knew stories are read for their flags before the shuffle is made,
        // so no audiobook plays among the songs (a no-op once they are all read).
        _ = try await store.perform { database throws(LibraryError) -> Int in
            try Indexer(database: database, prober: .mediaProbe, warn: { _ in }).readStories(key: key)
        }
        guard let volume = try await store.volume(key: key) else { throw LibraryError.noLibrary(path: path) }
        let stick = StickStations.readNow(mountPoint: root.display, log: log)
        return store.catalog(for: volume, selection: .music(stick.file.stories))
    }

    /// The log level from `SHUFFLEBOX_LOG` (default: warnings and errors only).
    private static func logLevel() -> Log.Level {
        Environment.value("SHUFFLEBOX_LOG").flatMap(Log.Level.init(name:)) ?? .warning
    }
}
