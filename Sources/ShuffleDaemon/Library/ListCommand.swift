import MusicLibrary
import ShuffleCore

/// `shufflebox list [--db FILE] [--json]`: every file of the library, sorted by path bytes.
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
            LibraryOutput.write(entries.map(options.json ? LibraryOutput.json : LibraryOutput.text))
            return ExitCode.success
        } catch {
            return LibraryOutput.report(error).code
        }
    }
}
