import MusicLibrary
import ShuffleCore

/// `shufflebox list [--db FILE] [--json]`: every file of the library, sorted by path bytes, its stories marked
/// with their book and part (folders marked by the `shufflebox.txt` at the library's root count).
enum ListCommand {
    /// Runs the command and returns the exit status.
    static func run(_ options: ListOptions) async -> Int32 {
        let opened = await LibraryOutput.openLibrary(options.database)
        guard case .success(let (store, volume)) = opened else {
            if case .failure(let status) = opened { return status.code }
            return ExitCode.failure
        }
        do {
            let entries = try await store.entries(of: volume)
            let stories = try await StoryListing.load(store: store, volume: volume)
            LibraryOutput.write(
                entries.map { entry in
                    options.json
                        ? LibraryOutput.json(
                            entry, story: stories.place(of: entry), chapters: stories.chapters[entry.id] ?? [])
                        : LibraryOutput.text(entry, story: stories.place(of: entry))
                })
            return ExitCode.success
        } catch {
            return LibraryOutput.report(error).code
        }
    }
}
