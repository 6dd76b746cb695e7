import ShuffleCore

/// What MPD clients see and ask of the appliance, answered from memory on the loop's thread (the index's
/// searches and the pictures are read on threads of their own).
extension Appliance: MPDBackend {
    func snapshot() -> PlayerSnapshot {
        let playing = machine.state == .playing || machine.state == .paused
        let now = playing ? player.now() : nil
        let queue = playing ? player.queue() : nil
        let active = machine.active
        let counts = active.map { library.counts(volumeID: $0.id) } ?? LibraryCounts()
        let indexed = active.flatMap { trackCount[$0.id] } ?? 0
        var snapshot = PlayerSnapshot(
            state: machine.state, track: now?.song, positionMs: now?.positionMs ?? 0, volume: machine.volume,
            maxVolume: machine.effectiveSettings.maxVolume, volumeSteps: machine.settings.volumeSteps,
            libraryRoot: active?.mountPoint, tracks: max(counts.tracks, indexed, queue?.ids.count ?? 0),
            indexing: active.map { machine.indexing.contains($0.id) } ?? false, queuePosition: now?.queuePosition,
            sampleRate: now?.sampleRate ?? 0, channels: now?.channels ?? 0,
            uptimeSeconds: (loop.now - startedAt).milliseconds / 1000, artists: counts.artists,
            albums: counts.albums, warning: library.warning, playerPaused: now?.playerPaused,
            outputPaused: now?.outputPaused)
        snapshot.playtimeMs = counts.playtimeMs
        snapshot.libraryUpdatedAt = counts.updatedAt
        snapshot.playedSeconds = playTime.total(now: loop.now).milliseconds / 1000
        // The player's catalog has no file times; the listing (in memory) has.
        if let active, let id = now?.song.id {
            snapshot.track?.modified = library.song(volumeID: active.id, id: id)?.modified
        }
        snapshot.outputEnabled = !machine.muted
        snapshot.outputs = outputs.statuses
        snapshot.outputLine = snapshot.outputs.first { $0.state == .inUse }.map { "\($0.name) \($0.summary)" }
        if let active, let book = stories.playing(active.id) {
            snapshot.story = storyStatus(book, now: now)
            if let queue { snapshot.queueLength = queue.ids.count }
        } else if let active, let stick = stickStations.of(active.id) {
            snapshot.station = stick.currentName
            // A station's queue holds its songs only: that is the playlist's length clients page through.
            if stick.current != 0, let queue { snapshot.queueLength = queue.ids.count }
        }
        // What the player applies: an `albums` station or stick plays album gain.
        let shuffleMode = active.flatMap { stickStations.of($0.id)?.mode } ?? config.shuffle.mode
        snapshot.replayGainMode = config.loudness.playing(shuffleMode).mode
        if let queue {
            snapshot.queueVersion = queue.version
            let next = queue.cursor + 1
            if queue.ids.indices.contains(next) { snapshot.nextSong = QueueEntry(position: next, id: queue.ids[next]) }
        }
        return snapshot
    }

    /// The book playing, its part and its chapter, for `status`.
    private func storyStatus(_ book: Book, now: NowPlaying?) -> StoryStatus {
        let part = now.flatMap { now in book.parts.firstIndex(of: TrackID(now.song.id)) }.map { $0 + 1 } ?? 0
        var status = StoryStatus(name: book.name, kind: book.kind.rawValue, part: part, parts: book.parts.count)
        if let now, !now.chapters.isEmpty {
            status.chapters = now.chapters.count
            if let index = ChapterSkip.current(now.chapters, at: now.positionMs) {
                status.chapter = index + 1
                status.chapterTitle = now.chapters[index].title
            }
        }
        return status
    }

    func queue() -> MPDQueue? {
        guard machine.state == .playing || machine.state == .paused else { return nil }
        return player.queue()
    }

    func song(id: Int64) -> SongInfo? {
        guard let active = machine.active else { return nil }
        return library.song(volumeID: active.id, id: id)
    }

    func forEachSong(in ids: ArraySlice<Int64>, _ body: (_ position: Int, _ song: SongInfo) -> Void) {
        guard let active = machine.active, let listing = library.listing(volumeID: active.id) else { return }
        for position in ids.indices {
            if let song = listing[id: ids[position]] { body(position, song) }
        }
    }

    func writeSongs(_ ids: ArraySlice<Int64>, tags: [MPDTag], into out: inout MPDWriter) {
        songWriter()?(ids, tags, &out)
    }

    func songWriter() -> MPDSongWriter? {
        guard let active = machine.active, let listing = library.listing(volumeID: active.id) else { return nil }
        return { ids, tags, out in listing.writeSongs(ids, tags: tags, into: &out) }
    }

    func librarySongs() -> SongList {
        guard let active = machine.active else { return SongList() }
        return library.songs(volumeID: active.id)
    }

    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] {
        guard let active = machine.active else { return [] }
        return try library.search(volumeID: active.id, constraints, exact: exact)
    }

    /// The index answers on its own thread: the loop goes on serving buttons and other clients meanwhile.
    var searchesInBackground: Bool { true }

    func searchInBackground(
        _ constraints: [SearchConstraint], exact: Bool,
        done: @escaping @Sendable (Result<[SongInfo], MPDError>) -> Void
    ) {
        guard let active = machine.active else { return done(.success([])) }
        library.search(volumeID: active.id, constraints, exact: exact, done: done)
    }

    func picture(_ request: PendingPicture, done: @escaping @Sendable (Result<PictureChunk?, MPDError>) -> Void) {
        guard let active = machine.active else { return done(.failure(MPDError(.noExist, "No such song"))) }
        pictures.read(request, root: active.mountPoint, songs: library.songs(volumeID: active.id), done: done)
    }

    func storyAction(_ action: ButtonAction) -> MPDError? {
        guard let active = machine.active else {
            return MPDError(.noExist, "no library: plug in a USB stick with music")
        }
        switch action {
        case .startOver:
            guard stories.playing(active.id) != nil else { return MPDError(.noExist, "no story plays") }
        default:
            guard !stories.books(of: active.id).isEmpty else { return MPDError(.noExist, "no stories on this stick") }
        }
        act(action)
        return nil
    }

    /// The stations, then the books (each listed with its parts), as stored playlists.
    func stations() -> [StationListing] {
        guard let active = machine.active else { return [] }
        let book = stories.playing(active.id)
        var listing = stickStations.listing(active.id)
        if book != nil { for index in listing.indices { listing[index].playing = false } }
        let modified = stickStations.of(active.id)?.modified
        // A story station is listed once, as a station.
        let names = Set(listing.map(\.name))
        for entry in stories.books(of: active.id) where entry.station == nil && !names.contains(entry.name) {
            listing.append(
                StationListing(
                    name: entry.name, modified: modified, playing: entry.bookmarkKey == book?.bookmarkKey,
                    tracks: entry.parts.map(\.rawValue)))
        }
        return listing
    }
}
