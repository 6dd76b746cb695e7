import Dispatch
import Glibc
import LibLinux
import LibPThread
import MusicLibrary
import ShuffleCore
import Synchronization

/// `ApplianceLibrary` over `MusicLibrary`: one `LibraryStore` for lookups, search and the player, and a
/// second connection per indexing run, so a long index never holds up the player (WAL lets them share).
final class LibraryBridge: ApplianceLibrary, @unchecked Sendable {
    // @unchecked: `path`, `store`, `log` and `measuresLoudness` never change; what the indexing, measuring and
    // listing threads share with the loop (`runs`, `measurements`, `damage`, `listings`) is behind a lock.
    /// The database file.
    let path: String
    /// The store the loop and the player use.
    let store: LibraryStore
    private let log: Log
    /// The cancellation flag of each stick's running index, by volume id.
    private let runs = Locked<[String: IndexCancellation]>([:])
    /// The cancellation flag of each stick's loudness scan (`LoudnessScan`), by volume id.
    private let measurements = Locked<[String: IndexCancellation]>([:])
    /// Whether tracks without a gain tag are measured (not with `replay-gain = off`).
    private let measuresLoudness: Bool
    /// The last replacement of a damaged database (for `status`), and who to tell of the next one.
    private let damage = Locked<(warning: String?, handler: (@Sendable () -> Void)?)>((nil, nil))
    /// Each stick's playable tracks in memory, for the queue, song lists and `stats`: the loop thread
    /// answers from here and never waits on a query (a 100,000-track count or listing takes a while).
    private let listings = Locked<Listings>(Listings())

    /// The listings of the sticks present, and what is remembered of those that went away.
    private struct Listings {
        var byVolume: [String: LibraryListing] = [:]
        /// The text a song took in each stick's last listing (its paths and titles are alike), to reserve
        /// the next one's at once: kept when the stick goes away, a few bytes where the listing was 1.3 MB.
        var textPerSong: [String: Int] = [:]
        /// How many times each stick went away: a listing read that began before it left is not kept.
        var departures: [String: Int] = [:]
    }

    /// Opens (creating) the database at `path`; a damaged one is moved aside and replaced, now or whenever
    /// SQLite later finds it damaged (the index is rebuilt from the sticks; resume points are lost).
    init(path: String, log: Log, measuresLoudness: Bool = true) throws(DaemonError) {
        self.path = path
        self.log = log
        self.measuresLoudness = measuresLoudness
        let runs = self.runs
        let measurements = self.measurements
        let damage = self.damage
        // Not through `blocking`: a busy cooperative pool must not turn a quick file open into a timeout.
        do {
            let (store, replacement) = try LibraryStore.openReplacingDamage(path: path) { replacement in
                // On the store's queue, after the fresh database is in place.
                log.warning(replacement.description)
                runs.withLock { runs in
                    for run in runs.values { run.cancel() }
                    runs.removeAll()
                }
                measurements.withLock { runs in
                    for run in runs.values { run.cancel() }
                    runs.removeAll()
                }
                let handler = damage.withLock { state in
                    state.warning = replacement.description
                    return state.handler
                }
                handler?()
            }
            self.store = store
            if let replacement {
                log.warning(replacement.description)
                damage.withLock { $0.warning = replacement.description }
            }
        } catch {
            throw DaemonError(
                "cannot open the library database \(path): \(error); check the state directory is writable")
        }
    }

    var warning: String? {
        let saving = store.saveHealth.failure.map { "cannot store the resume point (\($0)); retrying" }
        let replaced = damage.withLock { $0.warning }
        guard let saving else { return replaced }
        return replaced.map { "\(saving); \($0)" } ?? saving
    }

    func onDatabaseReplaced(_ handler: @escaping @Sendable () -> Void) {
        damage.withLock { $0.handler = handler }
    }

    func describe(volumeID: String, mountPoint: String) -> StoredVolume {
        let store = self.store
        let answer = blocking { () async throws -> StoredVolume in
            try await store.perform { database throws(LibraryError) -> StoredVolume in
                guard let volume = try database.existingVolume(key: volumeID) else { return StoredVolume() }
                return StoredVolume(
                    known: try database.counts(of: volume).tracks > 0,
                    volume: try database.storedVolumeLevel(of: volume),
                    station: try database.currentStation(of: volume),
                    book: try database.currentBook(of: volume))
            }
        }
        return answer ?? StoredVolume()
    }

    func storeStation(_ name: String?, volumeID: String) {
        inBackground("cannot store which station plays") { database throws(LibraryError) in
            guard let volume = try database.existingVolume(key: volumeID) else { return }
            try database.setCurrentStation(name, of: volume)
        }
    }

    func storeBook(_ key: String?, volumeID: String) {
        inBackground("cannot store which book plays") { database throws(LibraryError) in
            guard let volume = try database.existingVolume(key: volumeID) else { return }
            try database.setCurrentBook(key, of: volume)
        }
    }

    func setBookFinished(_ key: String, _ finished: Bool, volumeID: String) {
        inBackground("cannot store that the book \(key) was finished") { database throws(LibraryError) in
            guard let volume = try database.existingVolume(key: volumeID) else { return }
            try database.setBookFinished(key, finished, of: volume, now: Int64(time(nil)))
        }
    }

    func books(volumeID: String, rules: StoryRules, stations: [Station]) -> StoryShelf? {
        let store = self.store
        return blocking { try await Self.shelf(store, volumeID: volumeID, rules: rules, stations: stations) } ?? nil
    }

    func books(
        volumeID: String, rules: StoryRules, stations: [Station], done: @escaping @Sendable (StoryShelf?) -> Void
    ) {
        let store = self.store
        let log = self.log
        Task(executorPreference: blockingExecutor) {
            do {
                done(try await Self.shelf(store, volumeID: volumeID, rules: rules, stations: stations))
            } catch {
                log.warning("cannot read the stick's stories: \(error)")
                done(nil)
            }
        }
    }

    /// The stick's books and their bookmarks, in one go on the store's queue (nil: the stick is not indexed).
    private static func shelf(
        _ store: LibraryStore, volumeID: String, rules: StoryRules, stations: [Station]
    ) async throws -> StoryShelf? {
        try await store.perform { database throws(LibraryError) -> StoryShelf? in
            guard let volume = try database.existingVolume(key: volumeID) else { return nil }
            let books = try database.books(of: volume, rules: rules, stations: stations)
            let keys = Set(books.map(\.bookmarkKey))
            var bookmarks: [String: BookmarkInfo] = [:]
            for (key, mark) in try database.bookmarks(of: volume) where keys.contains(key) {
                bookmarks[key] = BookmarkInfo(
                    trackID: mark.track?.rawValue, positionMs: mark.positionMs, finished: mark.finished,
                    updatedAt: mark.updatedAt)
            }
            return StoryShelf(books: books, bookmarks: bookmarks)
        }
    }

    /// Runs `work` on the store's queue in the background (the loop never waits behind an index run's
    /// transaction); a failure is logged as `failure`.
    private func inBackground(
        _ failure: String, _ work: @escaping @Sendable (LibraryDatabase) throws(LibraryError) -> Void
    ) {
        let store = self.store
        let log = self.log
        Task(executorPreference: blockingExecutor) {
            do {
                try await store.perform { database throws(LibraryError) in try work(database) }
            } catch {
                log.warning("\(failure): \(error)")
            }
        }
    }

    func lastPlayedVolume() -> String? {
        let store = self.store
        return blocking { try await store.currentVolume()?.key } ?? nil
    }

    func startIndexing(_ stick: DaemonMachine.Stick, report: @escaping @Sendable (IndexReport) -> Void) {
        let cancellation = IndexCancellation()
        let key = stick.id
        // A stick plugged again while its previous run is still winding down: that run stops now.
        runs.withLock { runs in
            runs[key]?.cancel()
            runs[key] = cancellation
        }
        // The run may write some tracks anew: a scan under way must not store what it measured of the old file.
        measurements.withLock { $0.removeValue(forKey: key)?.cancel() }
        let path = self.path
        let log = self.log
        let runs = self.runs
        let root = PathBytes(stick.mountPoint)
        // A thread of its own: the indexer blocks (walks, probes, writes) for as long as the stick needs.
        PThread.startDetached(name: "shufflebox-index") {
            let started = ContinuousClock.now
            defer { runs.withLock { if $0[key] === cancellation { $0[key] = nil } } }
            let store = self.store
            let generation = blocking { await store.generation } ?? 0
            do {
                let database = try LibraryDatabase(path: path, create: true)
                var announced = false
                var lastTracks = -1
                let indexer = Indexer(
                    database: database, prober: .mediaProbe,
                    warn: { log.debug($0) },
                    progress: { counters in
                        guard !cancellation.isCancelled else { return }
                        if counters.tracks > 0 && !announced {
                            announced = true
                            report(.firstPlayable)
                        } else if counters.tracks != lastTracks && announced {
                            report(.progress(playable: counters.tracks))
                        }
                        lastTracks = counters.tracks
                    },
                    cancellation: cancellation)
                let summary = try indexer.run(root: root, key: key, now: Int64(time(nil)))
                switch summary.outcome {
                case .cancelled:
                    // The loop already forgot this stick: nothing to report.
                    let elapsed = ContinuousClock.now - started
                    log.info("indexing \(stick.mountPoint) cancelled after \(elapsed); nothing was removed")
                    return
                case .incomplete(let reason):
                    guard !cancellation.isCancelled else { return }
                    if summary.tracks > 0 && !announced { report(.firstPlayable) }
                    report(
                        .failed(
                            "indexing \(stick.mountPoint) stopped short, keeping \(summary.tracks) tracks and removing none: \(reason)"
                        ))
                case .complete:
                    guard !cancellation.isCancelled else { return }
                    log.info(
                        "indexed \(stick.mountPoint): \(summary.tracks) tracks, \(summary.unplayable) unplayable, in \(ContinuousClock.now - started)"
                    )
                    if summary.tracks > 0 && !announced { report(.firstPlayable) }
                    report(.finished(playable: summary.tracks, changed: summary.wroteAnything))
                    // Music plays by now: the lengths the first probe estimated are walked in full, on this
                    // thread, until done or until this stick's run is cancelled.
                    let refined = try indexer.refineEstimates(key: key)
                    if refined > 0 && !cancellation.isCancelled {
                        log.info("walked \(refined) long tracks of \(stick.mountPoint) in full for their exact length")
                        report(.lengthsRefined(refined))
                    }
                    // Tracks indexed before the library knew stories: their flags and chapters, read once.
                    let stories = try indexer.readStories(key: key)
                    if stories > 0 && !cancellation.isCancelled {
                        log.info("read \(stories) tracks of \(stick.mountPoint) for stories and chapters")
                        report(.storiesRead(stories))
                    }
                    if self.measuresLoudness && !cancellation.isCancelled {
                        self.startMeasuring(key: key, stick: stick)
                    }
                }
            } catch {
                guard !cancellation.isCancelled else { return }
                if let error = error as? LibraryError, error.isDamagedDatabase,
                    blocking({ await store.replaceDamaged(error, seenAt: generation) }) == true
                {
                    // The fresh database is in place; the loop indexes every stick again (`onDatabaseReplaced`).
                    return
                }
                report(.failed("indexing \(stick.mountPoint) failed: \(error)"))
            }
        }
    }

    func stopIndexing(volumeID: String) {
        // The run stops between files or batches, commits the batch it is writing and removes nothing;
        // its reports are dropped from now on.
        runs.withLock { $0.removeValue(forKey: volumeID)?.cancel() }
        // A scan stops within a decoded chunk; what it measured is stored, the rest waits for the next pass.
        measurements.withLock { $0.removeValue(forKey: volumeID)?.cancel() }
    }

    func forgetListing(volumeID: String) {
        let held = listings.withLock { listings -> Bool in
            listings.departures[volumeID, default: 0] += 1
            return listings.byVolume.removeValue(forKey: volumeID) != nil
        }
        if held { MallocArenas.releaseFreePages() }
    }

    /// Measures the loudness of the stick's tracks without a gain tag on a low-priority thread of its own
    /// (`LoudnessScan`), after its index run: one pass per stick at a time.
    private func startMeasuring(key: String, stick: DaemonMachine.Stick) {
        let cancellation = IndexCancellation()
        measurements.withLock { runs in
            runs[key]?.cancel()
            runs[key] = cancellation
        }
        let measurements = self.measurements
        let log = self.log
        LoudnessScan.start(databasePath: path, key: key, cancellation: cancellation, log: log) { summary in
            measurements.withLock { if $0[key] === cancellation { $0[key] = nil } }
            // The pass's decoders, buffers and database pages were small blocks all through the heap.
            MallocArenas.releaseFreePages()
            guard summary.measured + summary.failed > 0 else { return }
            log.info(
                "measured the loudness of \(summary.measured) tracks of \(stick.mountPoint)"
                    + (summary.failed > 0 ? " (\(summary.failed) could not be decoded)" : "")
                    + (summary.stoppedShort ? "; the rest next time" : ""))
        }
    }

    func counts(volumeID: String) -> LibraryCounts {
        listings.withLock { $0.byVolume[volumeID]?.counts } ?? LibraryCounts()
    }

    func song(volumeID: String, id: Int64) -> SongInfo? {
        listings.withLock { $0.byVolume[volumeID]?[id: id] }
    }

    /// The stick's listing as it is now (a value: it stays whole while a newer one replaces it).
    func listing(volumeID: String) -> LibraryListing? {
        listings.withLock { $0.byVolume[volumeID] }
    }

    func songs(volumeID: String) -> SongList {
        listings.withLock { $0.byVolume[volumeID]?.songs } ?? SongList()
    }

    func refreshListing(volumeID: String, done: @escaping @Sendable () -> Void) {
        let store = self.store
        let listings = self.listings
        let log = self.log
        // The text a song takes, as the stick's last listing had it (paths and titles are alike on one stick),
        // else a generous guess: room reserved is only address space until it is written. And whether the
        // stick leaves before the read is over, from now on.
        let (perSong, departures) = listings.withLock { listings in
            (listings.textPerSong[volumeID] ?? 192, listings.departures[volumeID, default: 0])
        }
        Task(executorPreference: listingExecutor) {
            do {
                // Each row becomes a song as it is read: the entries (every tag, gain and reason) are never all
                // in memory at once beside the listing still in use.
                let (builder, updatedAt) = try await store.perform {
                    database throws(LibraryError) -> (SongList.Builder, Int64) in
                    guard let volume = try database.existingVolume(key: volumeID) else {
                        return (SongList.Builder(expectedCount: 0), 0)
                    }
                    let count = try database.counts(of: volume).tracks
                    var builder = SongList.Builder(expectedCount: count, expectedTextBytes: count * perSong)
                    try database.forEachEntry(of: volume) { entry in
                        if entry.status == .ok { builder.add(Self.song(entry)) }
                    }
                    database.releaseCachedPages()
                    return (builder, try database.updateStamp(of: volume))
                }
                let listing = LibraryListing(builder, updatedAt: updatedAt)
                let songs = listing.songs
                let kept = listings.withLock { listings -> Bool in
                    // The stick went away while it was read: keeping it would hold it until the stick is back.
                    guard listings.departures[volumeID, default: 0] == departures else { return false }
                    listings.byVolume[volumeID] = listing
                    if songs.count >= 100 { listings.textPerSong[volumeID] = songs.textBytes / songs.count + 8 }
                    return true
                }
                if !kept { log.debug("dropped the listing of \(volumeID) read while it went away") }
                // The rows read, the pages SQLite cached for them and the listing replaced were small blocks spread
                // through the heap: what they freed would otherwise stay the daemon's.
                MallocArenas.releaseFreePages()
                done()
            } catch {
                log.warning("could not read the listing of \(volumeID): \(error)")
                done()
            }
        }
    }

    func search(volumeID: String, _ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] {
        let result = Locked<Result<[SongInfo], MPDError>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        search(volumeID: volumeID, constraints, exact: exact) { found in
            result.withLock { $0 = found }
            answered.signal()
        }
        guard answered.wait(timeout: .now() + 3) == .success, let found = result.withLock({ $0 }) else {
            throw MPDError(.system, "the library index did not answer")
        }
        return try found.get()
    }

    func search(
        volumeID: String, _ constraints: [SearchConstraint], exact: Bool,
        done: @escaping @Sendable (Result<[SongInfo], MPDError>) -> Void
    ) {
        let store = self.store
        let query = constraints.map(\.value).joined(separator: " ")
        guard !SearchText.trimmed(query).isEmpty else { return done(.success([])) }
        Task(executorPreference: blockingExecutor) {
            do {
                let found = try await store.perform { database throws(LibraryError) -> [LibraryEntry] in
                    guard let volume = try database.existingVolume(key: volumeID) else { return [] }
                    return try database.search(query, in: volume, limit: 1000)
                }
                done(
                    .success(
                        found.filter { entry in constraints.allSatisfy { Self.matches(entry, $0, exact: exact) } }
                            .map(Self.song)))
            } catch {
                done(.failure(MPDError(.system, "the library index could not be searched: \(error)")))
            }
        }
    }

    func close() {
        // Shutting down: any run still going stops after its current batch.
        runs.withLock { runs in
            for run in runs.values { run.cancel() }
            runs.removeAll()
        }
    }

    /// Whether `entry` satisfies one constraint: `find` wants the whole value, `search` a substring.
    static func matches(_ entry: LibraryEntry, _ constraint: SearchConstraint, exact: Bool) -> Bool {
        let fields: [String?]
        switch constraint.field {
        case .any: fields = [entry.tags.title, entry.tags.artist, entry.tags.album, entry.path.display]
        case .title: fields = [entry.tags.title]
        case .artist: fields = [entry.tags.artist]
        case .album: fields = [entry.tags.album]
        }
        return fields.contains { field in
            guard let field else { return false }
            if exact { return field == constraint.value }
            return SearchText.contains(field, constraint.value)
                || constraint.field == .any
        }
    }

    /// A search result as a client sees it.
    static func song(_ entry: LibraryEntry) -> SongInfo {
        SongInfo(
            id: entry.id.rawValue, path: entry.path.display, title: entry.tags.title, artist: entry.tags.artist,
            album: entry.tags.album, durationMs: entry.durationMs ?? 0, albumArtist: entry.tags.albumArtist,
            genre: entry.tags.genre, track: entry.tags.track, disc: entry.tags.disc, year: entry.tags.year,
            format: entry.stream?.mpdFormat, modified: entry.modifiedNs.map { Self.seconds(nanoseconds: $0) })
    }

    /// Whole seconds since 1970 for a time in nanoseconds (rounded down, before 1970 too).
    static func seconds(nanoseconds: Int64) -> Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds + 1) / 1_000_000_000 - 1
    }
}
