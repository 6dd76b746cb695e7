import Glibc
import LibPThread
import Playback
import ShuffleCore
import ShuffleTestSupport

@testable import ShuffleDaemon

/// The appliance in-process, on a loop with a manual clock: its real services and router, with fakes at the
/// ports (the library, the player, the mount table as a file of our own), so that lock, sleep fade, stations,
/// idle power-off, stick swaps and the player's reports are tested in milliseconds without root, sound or
/// mounts. Time moves only by `advance(by:)`; what another thread posts runs on `settle()`.
final class ApplianceHarness {
    let scratch: TemporaryDirectory
    let loop: EventLoop
    let library = FakeLibrary()
    let player = FakePlayer()
    let appliance: Appliance
    /// The folder under which sticks are "mounted" (the library root).
    let media: String
    let mountTable: String
    private var mounted: [(id: Int, source: String, path: String)] = []
    private var nextMountID = 100
    /// What the daemon logged.
    let lines = Locked<[String]>([])

    /// Builds and starts the appliance; `configure` changes the configuration first.
    init(state: TemporaryDirectory? = nil, _ configure: (inout DaemonConfig) -> Void = { _ in }) throws {
        scratch = try state ?? TemporaryDirectory(prefix: "appliance")
        loop = try EventLoop.manual()
        media = scratch.path + "/media"
        mountTable = scratch.path + "/mountinfo"
        _ = mkdir(media, 0o755)
        var config = DaemonConfig()
        config.libraryRoots = [media]
        config.speech.enabled = false
        config.powerOffCommand = ["/bin/sh", "-c", "echo off >> '\(scratch.path)/powered-off'"]
        configure(&config)
        let frozen = config
        let lines = self.lines
        let log = Log(label: "daemon", minimum: .debug) { line in lines.update { $0.append(line) } }
        try Self.write("", to: mountTable)
        appliance = try Appliance(
            loop: loop, config: frozen, reloadConfig: { frozen }, library: library, player: player, log: log,
            stateDirectory: scratch.path, socketPath: scratch.path + "/socket", mountTable: mountTable, systemd: nil)
        try appliance.start()
        settle()
    }

    /// Runs what was posted and what is due now.
    func settle() { loop.runPending() }

    /// Moves the clock on (timers run at their own time, in order).
    func advance(by duration: Duration) { loop.advance(by: duration) }

    /// "Mounts" a stick: a folder under the library root and a line in the mount table; returns its mount point.
    @discardableResult
    func plug(_ name: String, stationFile: String? = nil) throws -> String {
        let path = media + "/" + name
        _ = mkdir(path, 0o755)
        if let stationFile { try Self.write(stationFile, to: path + "/shufflebox.txt") }
        nextMountID += 1
        mounted.append((nextMountID, "stick-" + name, path))
        try rewriteTable()
        return path
    }

    /// Takes a stick out of the mount table.
    func pull(_ name: String) throws {
        mounted.removeAll { $0.path == media + "/" + name }
        try rewriteTable()
    }

    /// The identity the daemon gives the stick `name` (a mount with no device: its path).
    func stickID(_ name: String) -> String { "path:" + media + "/" + name }

    /// The index run of `name` reports `report`, as the indexer's thread would.
    func index(_ name: String, _ report: IndexReport) {
        library.reports(for: stickID(name))?(report)
        settle()
    }

    /// The player reports `report`, as the audio thread would.
    func playerSays(_ report: PlayerReport) {
        player.report?(report)
        settle()
    }

    /// A stick is plugged, indexed to its first playable track, and its first sample is out.
    func playing(_ name: String, stationFile: String? = nil) throws {
        try plug(name, stationFile: stationFile)
        index(name, .firstPlayable)
        playerSays(.trackStarted(at: .now))
    }

    var state: DaemonState { appliance.machine.state }

    private func rewriteTable() throws {
        let text = mounted.map { "\($0.id) 1 0:\($0.id) / \($0.path) rw,relatime shared:1 - vfat \($0.source) ro\n" }
        try Self.write(text.joined(), to: mountTable)
        appliance.mounts.tableChanged()
        settle()
    }

    static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw DaemonError("cannot write \(path)") }
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, text.utf8.count) }
        close(fd)
    }
}

/// The library port, in memory: records what the appliance asked; a test sends the index's reports.
final class FakeLibrary: ApplianceLibrary, @unchecked Sendable {
    // @unchecked: used on the test's thread only (the manual loop runs there too).
    private var indexing: [String: @Sendable (IndexReport) -> Void] = [:]
    /// Every call, in order, as a line (`index path:/…`, `stop path:/…`, `listing path:/…`, `forget …`).
    private(set) var calls: [String] = []
    var known: [String: StoredVolume] = [:]
    private var closed = false

    func reports(for id: String) -> (@Sendable (IndexReport) -> Void)? { indexing[id] }
    var isClosed: Bool { closed }

    func describe(volumeID: String, mountPoint: String) -> StoredVolume { known[volumeID] ?? StoredVolume() }
    func storeStation(_ name: String?, volumeID: String) { calls.append("station \(name ?? "-") \(volumeID)") }
    /// Each stick's books, as the index would give them.
    var shelves: [String: StoryShelf] = [:]
    func storeBook(_ key: String?, volumeID: String) { calls.append("book \(key ?? "-") \(volumeID)") }
    func setBookFinished(_ key: String, _ finished: Bool, volumeID: String) {
        calls.append("finished \(key) \(finished) \(volumeID)")
        shelves[volumeID]?.bookmarks[key, default: BookmarkInfo()].finished = finished
    }
    func books(volumeID: String, rules: StoryRules, stations: [Station]) -> StoryShelf? {
        shelves[volumeID] ?? StoryShelf()
    }
    func books(
        volumeID: String, rules: StoryRules, stations: [Station], done: @escaping @Sendable (StoryShelf?) -> Void
    ) { done(shelves[volumeID] ?? StoryShelf()) }
    func lastPlayedVolume() -> String? { nil }
    func startIndexing(_ volume: DaemonMachine.Stick, report: @escaping @Sendable (IndexReport) -> Void) {
        calls.append("index \(volume.id)")
        indexing[volume.id] = report
    }
    func stopIndexing(volumeID: String) { calls.append("stop \(volumeID)") }
    func forgetListing(volumeID: String) { calls.append("forget \(volumeID)") }
    func counts(volumeID: String) -> LibraryCounts { LibraryCounts() }
    func song(volumeID: String, id: Int64) -> SongInfo? { nil }
    func listing(volumeID: String) -> LibraryListing? { nil }
    func songs(volumeID: String) -> SongList { SongList() }
    func refreshListing(volumeID: String, done: @escaping @Sendable () -> Void) {
        calls.append("listing \(volumeID)")
        done()
    }
    func search(volumeID: String, _ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] { [] }
    func search(
        volumeID: String, _ constraints: [SearchConstraint], exact: Bool,
        done: @escaping @Sendable (Result<[SongInfo], MPDError>) -> Void
    ) { done(.success([])) }
    func close() { closed = true }
    var warning: String? { nil }
    func onDatabaseReplaced(_ handler: @escaping @Sendable () -> Void) {}
}

/// The player port, in memory: records every command; a test sends the audio thread's reports.
final class FakePlayer: AppliancePlayer, @unchecked Sendable {
    // @unchecked: used on the test's thread only (the manual loop runs there too).
    /// Every command, in order (`start path:/… station paused level`, `pause`, `level 3`…).
    private(set) var calls: [String] = []
    private(set) var report: (@Sendable (PlayerReport) -> Void)?
    private var playing = false

    /// The commands since the last look, and forgets them.
    func take() -> [String] {
        defer { calls.removeAll() }
        return calls
    }

    func start(
        _ stick: DaemonMachine.Stick, selection: PlaySelection, paused: Bool, level: Int, rampIn: Bool,
        report: @escaping @Sendable (PlayerReport) -> Void
    ) {
        let what: String
        switch selection {
        case .music(let station, _, _): what = station?.name ?? "-"
        case .book(let book, let fromStart): what = "book:\(book.name)\(fromStart ? " from-start" : "")"
        }
        calls.append("start \(stick.id) \(what)\(paused ? " paused" : "") level \(level)")
        self.report = report
        playing = true
    }
    func tracksAdded() { calls.append("grow") }
    func useDevice(_ pcm: String) { calls.append("device \(pcm)") }
    func stop() {
        calls.append("stop")
        playing = false
    }
    func pause() { calls.append("pause") }
    func resume() { calls.append("resume") }
    func next() { calls.append("next") }
    func previous() { calls.append("previous") }
    func seek(by milliseconds: Int64) { calls.append("seek \(milliseconds)") }
    func seek(to milliseconds: Int64) { calls.append("seek to \(milliseconds)") }
    func play(position: Int) { calls.append("play \(position)") }
    func reshuffle() { calls.append("reshuffle") }
    func queue() -> MPDQueue? { playing ? MPDQueue(version: 1, ids: [1, 2, 3], cursor: 0) : nil }
    func setMuted(_ muted: Bool) { calls.append(muted ? "mute" : "unmute") }
    func setLevel(_ level: Int) { calls.append("level \(level)") }
    /// The cap the router told last.
    private(set) var cap = -1
    func setCap(_ cap: Int) { self.cap = cap }
    /// What `now()` says (nil: nothing heard yet).
    var heard: NowPlaying?
    func now() -> NowPlaying? { heard }
    func speakable() -> Announcer.NowPlaying? { nil }
    func speak(
        _ clip: SpeechClip, started: @escaping @Sendable (ContinuousClock.Instant) -> Void,
        ended: @escaping @Sendable () -> Void
    ) { ended() }
    func stopSpeaking() {}
}
