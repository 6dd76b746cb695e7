import MusicLibrary
import ShuffleCore

/// `shufflebox search QUERY [--db FILE] [--limit N] [--json]`: full-text search, best match first.
enum SearchCommand {
    /// Runs the command and returns the exit status.
    static func run(_ options: SearchOptions) async -> Int32 {
        let opened = await LibraryOutput.openLibrary(options.database)
        guard case .success(let (store, volume)) = opened else {
            if case .failure(let status) = opened { return status.code }
            return ExitCode.failure
        }
        do {
            let hits = try await store.search(options.query, in: volume, limit: options.limit)
            LibraryOutput.write(hits.map(options.json ? LibraryOutput.json : LibraryOutput.text))
            if hits.isEmpty && !options.json {
                // stdout stays empty (scripts see no results); a person at a terminal is told why.
                Terminal.error("shufflebox: no track matches '\(options.query)'")
            }
            return ExitCode.success
        } catch {
            return LibraryOutput.report(error).code
        }
    }
}
