import LibSQLite
import ShuffleCore

extension Indexer {
    /// Files read per transaction by `readStories`.
    public static let storyBatchSize = 100

    /// Reads again, for their story flag and chapters only, the files of tracks indexed before the library
    /// knew stories (schema version 7), and stores `story` and `chapters` without touching the rest of the
    /// row: rewriting it would lose the track's loudness measurement. Call it after `run` has reported, on the
    /// same thread, like `refineEstimates`: `batchSize` files a transaction, stopping between files when the
    /// run is cancelled or the stick goes away (the rest waits for the next run). A file that no longer reads
    /// as audio keeps what its stored genre says; a file whose read fails with an I/O error is left for the
    /// next run. Returns how many tracks it stored.
    public func readStories(key: String) throws(LibraryError) -> Int {
        guard let volume = try database.existingVolume(key: key) else { return 0 }
        let identity = RootIdentity(path: volume.root)
        var after: PathBytes?
        var stored = 0
        while cancellation?.isCancelled != true {
            let batch = try database.unreadStories(of: volume, after: after, limit: Self.storyBatchSize)
            guard let last = batch.last else { break }
            after = last.path
            var found: [(UnreadStory, StoryKind?, [Chapter])] = []
            var halted = false
            for track in batch {
                if cancellation?.isCancelled == true {
                    halted = true
                    break
                }
                switch prober.probe(volume.root.appending(track.path)) {
                case .audio(let tags, let stream):
                    let chapters = Chapter.cleaned(
                        tags.chapters, durationMs: stream.isEstimate ? nil : stream.durationMs)
                    found.append((track, LibraryDatabase.storyKind(of: tags, path: track.path), chapters))
                case .unplayable(let reason) where Self.vanishReasons.contains(reason):
                    // The stick going away, or this one file failing: stop for the first, skip the second.
                    halted = identity?.problem() != nil || identity == nil
                case .unplayable, .notAudio:
                    // Changed since it was indexed (the next run reads it again by its size and time).
                    var tags = TagInfo()
                    tags.genre = track.genre
                    found.append((track, LibraryDatabase.storyKind(of: tags, path: track.path), []))
                }
                if halted { break }
            }
            if !found.isEmpty {
                stored += try database.transaction { () throws(SQLiteError) -> Int in
                    var count = 0
                    for (track, kind, chapters) in found {
                        if try database.setStory(kind, chapters: chapters, of: track) { count += 1 }
                    }
                    return count
                }
            }
            if halted { break }
        }
        return stored
    }
}
