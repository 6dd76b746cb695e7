import Glibc
import LibPThread
import ShuffleCore

/// The library database behind an actor whose executor is a serial `DispatchQueue`: every SQLite call
/// runs there, never on the cooperative pool.
///
/// The player's way in:
/// ```swift
/// let store = try await LibraryStore.open(path: LibraryLocation.databasePath(...))
/// guard let volume = try await store.volume(forRoot: "/media/stick") else { … "run index first" }
/// let catalog = store.catalog(for: volume)       // some TrackCatalog
/// ```
public actor LibraryStore {
    private let executor: QueueExecutor
    private var database: LibraryDatabase
    /// Set for the daemon's store: called on the store's queue when a damaged database was replaced.
    private let onReplacement: (@Sendable (DatabaseReplacement) -> Void)?
    /// How many times the database was replaced; an indexing run that met damage says which one it used.
    public private(set) var generation = 0
    /// Whether resume points are being stored (the daemon's store retries failed ones, see `savePlaybackState`).
    public nonisolated let saveHealth = SaveHealth()
    /// The newest resume point that could not be stored, while it is being retried.
    private var pendingSave: (state: PlaybackState, volume: VolumeRef, station: String?)?
    /// Whether the retry task runs.
    private var retryingSave = false
    /// The longest wait between retries of a failed save.
    static let maxSaveRetryDelay: Duration = .seconds(60)

    /// Runs the actor's jobs on its own queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The database file.
    public nonisolated let path: String
    /// Counts the replacements of a damaged database, for `trackReader`.
    private nonisolated let replacements = ReplacementCount()
    /// The player's single-track reads, on a connection and queue of their own (see `TrackReader`).
    public nonisolated let trackReader: TrackReader

    private init(
        executor: QueueExecutor, database: consuming sending LibraryDatabase,
        onReplacement: (@Sendable (DatabaseReplacement) -> Void)? = nil
    ) {
        let path = database.path
        self.executor = executor
        self.path = path
        self.database = database
        self.onReplacement = onReplacement
        trackReader = TrackReader(path: path, replacements: replacements)
    }

    /// Opens the daemon's database (see `LibraryDatabase.openReplacingDamage`), and keeps replacing it
    /// whenever SQLite later says it is damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`): the call that met the
    /// damage still fails, later ones use the fresh database, and `onReplacement` hears of each.
    public static func openReplacingDamage(
        path: String, onReplacement: @escaping @Sendable (DatabaseReplacement) -> Void
    ) throws(LibraryError) -> (LibraryStore, DatabaseReplacement?) {
        let (database, replacement) = try LibraryDatabase.openReplacingDamage(path: path, now: Int64(time(nil)))
        let store = LibraryStore(
            executor: QueueExecutor(label: "shufflebox.library"), database: database, onReplacement: onReplacement)
        return (store, replacement)
    }

    /// Replaces the database after another connection (an indexing run) met `error`, unless it was already
    /// replaced since `generation`. Returns whether the store now holds a database newer than `generation`.
    @discardableResult
    public func replaceDamaged(_ error: LibraryError, seenAt generation: Int) -> Bool {
        guard onReplacement != nil, error.isDamagedDatabase else { return false }
        if generation == self.generation { replace(after: error) }
        return self.generation > generation
    }

    /// Runs `body` on the database; damage it meets replaces the database (when this store does that).
    private func guarded<R>(_ body: (LibraryDatabase) throws(LibraryError) -> R) throws(LibraryError) -> R {
        do throws(LibraryError) {
            return try body(database)
        } catch {
            if onReplacement != nil, error.isDamagedDatabase { replace(after: error) }
            throw error
        }
    }

    /// Moves the damaged file aside and opens a fresh one.
    private func replace(after error: LibraryError) {
        let replacement = LibraryDatabase.replaceDamaged(
            path: path, reason: error.damageReason, now: Int64(time(nil)))
        // The old connection stays on the moved file until it is released below; nothing writes there.
        guard let fresh = try? LibraryDatabase(path: path, create: true) else { return }
        database = fresh
        generation += 1
        replacements.increment()
        onReplacement?(replacement)
    }

    /// Opens the database at `path`. With `create` (the indexer), a missing file is created; without
    /// (the player, search, list), it is `LibraryError.noLibrary`.
    public static func open(path: String, create: Bool = false) async throws(LibraryError) -> LibraryStore {
        let executor = QueueExecutor(label: "shufflebox.library")
        let store = LibraryStore(executor: executor, database: try opened(path: path, create: create))
        return store
    }

    // Opening is one quick file open; the queries all run on the store's queue.
    private static func opened(path: String, create: Bool) throws(LibraryError) -> sending LibraryDatabase {
        try LibraryDatabase(path: path, create: create)
    }

    /// Runs `body` with the database on the store's queue (for the indexer and the CLI commands).
    public func perform<R: Sendable>(
        _ body: (LibraryDatabase) throws(LibraryError) -> R
    ) throws(LibraryError) -> R {
        try guarded { database throws(LibraryError) in try body(database) }
    }

    /// The volume whose key is `key`, if it was ever indexed.
    public func volume(key: String) throws(LibraryError) -> VolumeRef? {
        try guarded { database throws(LibraryError) in try database.existingVolume(key: key) }
    }

    /// The volume indexed from the folder `root` (keyed by its absolute real path), if it was indexed.
    public func volume(forRoot root: String) throws(LibraryError) -> VolumeRef? {
        guard let real = LibraryLocation.realPath(root) else { return nil }
        return try guarded { database throws(LibraryError) in
            try database.existingVolume(key: VolumeRef.pathKey(for: real))
        }
    }

    /// The volume indexed most recently.
    public func currentVolume() throws(LibraryError) -> VolumeRef? {
        try guarded { database throws(LibraryError) in try database.currentVolume() }
    }

    /// The player's view of one volume: its music of `formats` (every format when nil), or of one of its
    /// stations (`station`: nil or an empty search is the whole stick's music), with no folder marked as
    /// stories (`catalog(for:formats:selection:)` takes the stick's `StoryRules`).
    public nonisolated func catalog(
        for volume: VolumeRef, formats: Set<String>? = nil, station: Station? = nil
    ) -> VolumeCatalog {
        catalog(
            for: volume, formats: formats, selection: station.map { .station($0, StoryRules()) } ?? .music(StoryRules())
        )
    }

    /// The player's view of one volume: what `selection` plays of it (its music, a station or a book), of
    /// `formats` (every format when nil).
    public nonisolated func catalog(
        for volume: VolumeRef, formats: Set<String>? = nil, selection: CatalogSelection
    ) -> VolumeCatalog {
        VolumeCatalog(store: self, volume: volume, formats: formats, selection: selection)
    }

    /// The ids of every playable track of `volume` (of `formats`, when given), ascending.
    public func playableTrackIDs(of volume: VolumeRef, formats: Set<String>? = nil) throws(LibraryError) -> [TrackID] {
        try guarded { database throws(LibraryError) in try database.playableTrackIDs(of: volume, formats: formats) }
    }

    /// One playable track of `volume`, or nil.
    public func playableTrack(_ id: TrackID, of volume: VolumeRef) throws(LibraryError) -> CatalogTrack? {
        try guarded { database throws(LibraryError) in try database.playableTrack(id, of: volume) }
    }

    /// Marks a track unplayable (file status, reason) and drops its track and FTS rows.
    public func markUnplayable(_ id: TrackID, reason: String) throws(LibraryError) {
        try guarded { database throws(LibraryError) in try database.markUnplayable(id, reason: reason) }
    }

    /// The resume point of `volume` (of its station `station`; nil: the whole stick).
    public func loadPlaybackState(of volume: VolumeRef, station: String? = nil) throws(LibraryError) -> PlaybackState? {
        try guarded { database throws(LibraryError) in try database.loadPlaybackState(of: volume, station: station) }
    }

    /// The station of `volume` that played last (nil: the whole stick).
    public func currentStation(of volume: VolumeRef) throws(LibraryError) -> String? {
        try guarded { database throws(LibraryError) in try database.currentStation(of: volume) }
    }

    /// Records the station of `volume` that plays now (nil: the whole stick).
    public func setCurrentStation(_ station: String?, of volume: VolumeRef) throws(LibraryError) {
        try guarded { database throws(LibraryError) in try database.setCurrentStation(station, of: volume) }
    }

    /// Stores the resume point of `volume` in one transaction. A failure (a full or read-only state folder)
    /// leaves the last stored point as it was; the daemon's store then records it in `saveHealth` and tries
    /// the newest point again after 1, 2, 4 ... 60 seconds until it is stored (or a later save is), so a
    /// paused box whose card has space again keeps its place without waiting for the next save.
    public func savePlaybackState(
        _ state: PlaybackState, of volume: VolumeRef, station: String? = nil
    ) throws(LibraryError) {
        do throws(LibraryError) {
            try guarded { database throws(LibraryError) in
                try database.savePlaybackState(state, of: volume, station: station, now: Int64(time(nil)))
            }
            pendingSave = nil
            saveHealth.record(nil)
        } catch {
            if onReplacement != nil {
                pendingSave = (state, volume, station)
                saveHealth.record(Self.saveFailure(error))
                startRetryingSave()
            }
            throw error
        }
    }

    /// Why a save failed, for `status`: SQLite's own words.
    private static func saveFailure(_ error: LibraryError) -> String {
        switch error {
        case .database(_, let sqlite), .cannotCreate(_, let sqlite): sqlite.message
        default: error.description
        }
    }

    /// Starts the retry task unless it runs (on the store's own executor: no global executor, no timer once
    /// the point is stored).
    private func startRetryingSave() {
        guard !retryingSave else { return }
        retryingSave = true
        Task(executorPreference: executor) { await self.retryPendingSave() }
    }

    /// Retries the pending save with back-off until it is stored or replaced by a stored one.
    private func retryPendingSave() async {
        var delay: Duration = .seconds(1)
        while pendingSave != nil {
            do { try await executor.sleep(for: delay) } catch { break }
            guard let pending = pendingSave else { break }
            do throws(LibraryError) {
                try database.savePlaybackState(
                    pending.state, of: pending.volume, station: pending.station, now: Int64(time(nil)))
                pendingSave = nil
                saveHealth.record(nil)
            } catch {
                saveHealth.record(Self.saveFailure(error))
                delay = min(delay * 2, Self.maxSaveRetryDelay)
            }
        }
        retryingSave = false
    }

    /// Every listed file of `volume`.
    public func entries(of volume: VolumeRef) throws(LibraryError) -> [LibraryEntry] {
        try guarded { database throws(LibraryError) in try database.entries(of: volume) }
    }

    /// Search results for `query` in `volume`.
    public func search(_ query: String, in volume: VolumeRef, limit: Int) throws(LibraryError) -> [LibraryEntry] {
        try guarded { database throws(LibraryError) in try database.search(query, in: volume, limit: limit) }
    }
}

/// `TrackCatalog` for one volume of a `LibraryStore`: what the player is built on. It plays one of the
/// volume's music, a station or a book (`CatalogSelection`), and holds only ids.
public struct VolumeCatalog: TrackCatalog {
    /// The store.
    public let store: LibraryStore
    /// The volume.
    public let volume: VolumeRef
    /// The formats (`StreamInfo.codec`) the player decodes; nil for all. Tracks of other formats are
    /// left out, so the player never hands a file to a decoder not made for it (libmpg123 finds stray
    /// frame syncs in AAC and plays them as noise).
    public var formats: Set<String>?
    /// What plays: the music, a station or a book.
    public var selection: CatalogSelection

    /// Creates the view of `volume` playing `selection`.
    public init(store: LibraryStore, volume: VolumeRef, formats: Set<String>? = nil, selection: CatalogSelection) {
        self.store = store
        self.volume = volume
        self.formats = formats
        self.selection = selection.normalised
    }

    /// The station played, if a station is (nil: the music or a book).
    public var station: Station? {
        if case .station(let station, _) = selection { return station }
        return nil
    }

    /// The ids of the selection's playable tracks (of `formats`), ascending. For a book, its parts that play;
    /// `shuffleGroups()` gives their book order.
    public func playableTrackIDs() async throws -> [TrackID] {
        switch selection {
        case .music(let rules):
            return try await store.musicTrackIDs(of: volume, rules: rules, formats: formats)
        case .station(let station, let rules):
            let picked = try await store.stationTrackIDs(
                station.search, of: volume, rules: rules, includingStories: station.isStory)
            guard formats != nil else { return picked }
            let allowed = Set(try await store.playableTrackIDs(of: volume, formats: formats))
            return picked.filter(allowed.contains)
        case .book(let book, _):
            let playable = Set(try await store.playableTrackIDs(of: volume, formats: formats))
            return book.parts.filter(playable.contains).sorted()
        }
    }

    /// One playable track of the volume, or nil: read by the store's `trackReader`, so that it never waits
    /// for the store's queue; when that read fails, by the store (which replaces a damaged database).
    public func track(_ id: TrackID) async throws -> CatalogTrack? {
        let found: CatalogTrack?
        do {
            found = try await store.trackReader.playableTrack(id, of: volume)
        } catch {
            found = try await store.playableTrack(id, of: volume)
        }
        guard let track = found else { return nil }
        if let formats, !formats.contains(track.stream.codec) { return nil }
        return track
    }

    /// The volume's root where it was last seen.
    public func libraryRoot() async throws -> PathBytes? { volume.root }

    /// Marks a track unplayable and removes it from the catalog and the search index.
    public func markUnplayable(_ id: TrackID, reason: String) async throws {
        try await store.markUnplayable(id, reason: reason)
    }

    /// The stored resume point: the music's, the station's or the book's bookmark (none for a book that
    /// starts from the beginning every time).
    public func loadPlaybackState() async throws -> PlaybackState? {
        if case .book(_, fromStart: true) = selection { return nil }
        return try await store.loadPlaybackState(of: volume, station: selection.resumeKey)
    }

    /// Stores the resume point.
    public func savePlaybackState(_ state: PlaybackState) async throws {
        try await store.savePlaybackState(state, of: volume, station: selection.resumeKey)
    }
}
