import Foundation
import LibPThread
import MusicLibrary
import ShuffleCore
import ShuffleTestSupport
import Testing

/// A stick that goes away mid-index (a folder or the whole tree vanishing, a lazy unmount, cancellation)
/// never removes anything from the index; a complete run afterwards brings it in step.
@Suite(.serialized, .enabled(if: TestLibrary.isAvailable, "needs python3 and lame (scripts/install-deps test)"))
struct VanishingStickTests {
    let scratch: TemporaryDirectory
    var root: String { scratch.path + "/stick" }
    var databasePath: String { scratch.path + "/library.db" }

    init() throws { scratch = try TemporaryDirectory(prefix: "vanishing-stick") }

    /// One index run of `root` with a fresh connection; `hook` is the scanner's between-folders seam.
    func index(
        root: String? = nil, cancellation: IndexCancellation? = nil,
        progress: @escaping (IndexProgress) -> Void = { _ in }, hook: ((PathBytes) -> Void)? = nil
    ) throws -> (summary: IndexSummary, warnings: [String]) {
        let database = try LibraryDatabase(path: databasePath, create: true)
        let warnings = PThreadMutex<[String]>([])
        var indexer = Indexer(
            database: database, prober: .mediaProbe, warn: { line in warnings.withLock { $0.append(line) } },
            progress: progress, cancellation: cancellation)
        indexer.beforeEnteringFolder = hook
        let real = PathBytes(root ?? self.root)
        let summary = try indexer.run(root: real, key: "path:stick", now: 1_700_000_000)
        return (summary, warnings.withLock { $0 })
    }

    /// Every listed path with its track id.
    func listed() throws -> [String: TrackID] {
        let database = try LibraryDatabase(path: databasePath, create: false)
        let volume = try #require(try database.existingVolume(key: "path:stick"))
        return Dictionary(uniqueKeysWithValues: try database.entries(of: volume).map { ($0.path.display, $0.id) })
    }

    /// The top-level folders of the stick.
    func topFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root).filter { name in
            var isFolder: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder)
                && isFolder.boolValue
        }
    }

    @Test func aFolderVanishingMidWalkRemovesNothingAndKeepsWhatWasAdded() throws {
        try TestLibrary.generate(at: URL(fileURLWithPath: root), tracks: 40, seed: 3, extras: false)
        let first = try index()
        #expect(first.summary.isComplete)
        let before = try listed()
        #expect(before.count >= 40)

        // A new file at the top (read before any folder), then every folder but the first one entered vanishes.
        let someTrack = try #require(before.keys.sorted().first)
        try FileManager.default.copyItem(atPath: root + "/" + someTrack, toPath: root + "/new arrival.mp3")
        let folders = try topFolders()
        #expect(folders.count > 2)
        let removed = PThreadMutex<[String]>([])
        let second = try index(hook: { entering in
            guard removed.withLock({ $0.isEmpty }) else { return }
            let keep = entering.display.split(separator: "/").first.map(String.init)
            for folder in folders where folder != keep {
                try? FileManager.default.removeItem(atPath: root + "/" + folder)
                removed.withLock { $0.append(folder) }
            }
        })
        var reason = ""
        if case .incomplete(let why) = second.summary.outcome {
            reason = why
        } else {
            Issue.record("a folder vanishing mid-walk must make the walk incomplete, got \(second.summary.outcome)")
        }
        #expect(reason.contains(root), "the reason names the path: \(reason)")
        #expect(second.warnings.contains { $0.contains("nothing will be removed") }, "\(second.warnings)")
        #expect(second.summary.removed == 0)
        let after = try listed()
        for (path, id) in before { #expect(after[path] == id, "\(path) must stay indexed with its id") }
        #expect(after["new arrival.mp3"] != nil, "what the incomplete walk found is committed")

        // The control: a complete run now removes the vanished folders' files.
        let third = try index()
        #expect(third.summary.isComplete)
        #expect(third.summary.removed > 0)
        let gone = Set(removed.withLock { $0 })
        #expect(try listed().keys.allSatisfy { !gone.contains(String($0.split(separator: "/")[0])) })
    }

    @Test func theRootVanishingMidWalkRemovesNothing() throws {
        try TestLibrary.generate(at: URL(fileURLWithPath: root), tracks: 40, seed: 4, extras: false)
        #expect(try index().summary.isComplete)
        let before = try listed()
        try FileManager.default.copyItem(
            atPath: root + "/" + before.keys.sorted()[0], toPath: root + "/new arrival.mp3")
        let pulled = PThreadMutex(false)
        let second = try index(hook: { _ in
            guard !pulled.withLock({ $0 }) else { return }
            pulled.withLock { $0 = true }
            try? FileManager.default.removeItem(atPath: root)
        })
        #expect(pulled.withLock { $0 })
        #expect(!second.summary.isComplete, "\(second.summary.outcome)")
        #expect(second.summary.removed == 0)
        #expect(try listed() == before, "every track keeps its row and id; the unreadable new file is not written")
    }

    @Test func aRootSwappedForAnotherFolderMidWalkRemovesNothing() throws {
        // What a lazy unmount looks like: open folders still read, but the path leads somewhere else.
        try TestLibrary.generate(at: URL(fileURLWithPath: root), tracks: 40, seed: 6, extras: false)
        #expect(try index().summary.isComplete)
        let before = try listed()
        let swapped = PThreadMutex(false)
        let second = try index(hook: { _ in
            guard !swapped.withLock({ $0 }) else { return }
            swapped.withLock { $0 = true }
            try? FileManager.default.moveItem(atPath: root, toPath: scratch.path + "/elsewhere")
            try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        })
        var reason = ""
        if case .incomplete(let why) = second.summary.outcome {
            reason = why
        } else {
            Issue.record("expected an incomplete walk, got \(second.summary.outcome)")
        }
        #expect(reason.contains("no longer the folder"), "\(reason)")
        #expect(try listed() == before)
    }

    @Test func aCancelledRunCommitsItsBatchAndRemovesNothing() throws {
        let tracks = Indexer.batchSize * 2 + 100
        try TestLibrary.generate(
            at: URL(fileURLWithPath: root), tracks: tracks, seed: 8, formats: .same, broken: 0, extras: false,
            seconds: 1)
        #expect(try index().summary.isComplete)
        let before = try listed()
        #expect(before.count == tracks)

        // Delete a folder and add another batch and a half of new files, then cancel after the first batch.
        let victim = try #require(try topFolders().sorted().first)
        let victimFiles = before.keys.filter { $0.hasPrefix(victim + "/") }
        #expect(!victimFiles.isEmpty)
        try FileManager.default.removeItem(atPath: root + "/" + victim)
        let sources = before.keys.filter { !$0.hasPrefix(victim + "/") }.sorted().prefix(Indexer.batchSize + 250)
        try FileManager.default.createDirectory(atPath: root + "/copies", withIntermediateDirectories: false)
        for (index, source) in sources.enumerated() {
            try FileManager.default.copyItem(atPath: root + "/" + source, toPath: root + "/copies/\(index).mp3")
        }
        let cancellation = IndexCancellation()
        let second = try index(
            cancellation: cancellation,
            progress: { counters in
                if counters.filesProbed > 0 { cancellation.cancel() }
            })
        #expect(second.summary.outcome == .cancelled)
        #expect(second.summary.removed == 0)
        let after = try listed()
        for path in victimFiles { #expect(after[path] == before[path], "\(path) must stay indexed") }
        let copies = after.keys.filter { $0.hasPrefix("copies/") }.count
        #expect(copies > 0 && copies <= Indexer.batchSize, "the first batch is committed, no later one: \(copies)")

        // Cancelled before it starts: nothing at all is written.
        let early = IndexCancellation()
        early.cancel()
        let database = try LibraryDatabase(path: databasePath, create: false)
        let indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in }, cancellation: early)
        let third = try indexer.run(root: PathBytes(root), key: "path:stick", now: 1_700_000_001)
        #expect(third.outcome == .cancelled)
        #expect(database.totalChanges == 0)
        #expect(try listed() == after)
    }

    @Test(.enabled(if: geteuid() == 0, "mounts a tmpfs"))
    func aLazyUnmountMidIndexRemovesNothing() throws {
        let stick = scratch.path + "/mnt"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: false)
        #expect(try Run.program("/bin/mount", ["-t", "tmpfs", "-o", "size=256m", "tmpfs", stick]).status == 0)
        defer { _ = try? Run.program("/bin/umount", ["-l", stick]) }
        try TestLibrary.generate(
            at: URL(fileURLWithPath: stick + "/music"), tracks: 2000, seed: 9, formats: .same, broken: 0, extras: false,
            seconds: 1)
        #expect(try index(root: stick).summary.isComplete)
        let before = try listed()
        #expect(before.count == 2000)

        // The stick goes after a few folders.
        let entered = PThreadMutex(0)
        let second = try index(
            root: stick,
            hook: { _ in
                let count = entered.withLock {
                    $0 += 1; return $0
                }
                if count == 5 { _ = try? Run.program("/bin/umount", ["-l", stick]) }
            })
        #expect(entered.withLock { $0 } >= 5)
        var reason = ""
        if case .incomplete(let why) = second.summary.outcome {
            reason = why
        } else {
            Issue.record("expected an incomplete walk, got \(second.summary.outcome)")
        }
        #expect(reason.contains(stick), "\(reason)")
        #expect(second.summary.removed == 0)
        #expect(try listed() == before, "every track of the unmounted stick is still indexed")
    }
}
