import Glibc
import ShuffleCore

/// Where the library database lives, and path helpers for roots.
public enum LibraryLocation {
    /// The database file: `--db` when given; else `/var/lib/shufflebox/library.db` for the daemon;
    /// else `$XDG_STATE_HOME/shufflebox/library.db`, else `~/.local/state/shufflebox/library.db`.
    public static func databasePath(
        explicit: String?, daemon: Bool = false, environment: [String: String]
    ) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if daemon { return "/var/lib/shufflebox/library.db" }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/shufflebox/library.db"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/root"
        return home + "/.local/state/shufflebox/library.db"
    }

    /// The absolute path with symbolic links resolved (`realpath(3)`), or nil when it does not exist.
    public static func realPath(_ path: String) -> PathBytes? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let length = strlen(resolved)
        return PathBytes(Array(UnsafeRawBufferPointer(start: resolved, count: length)))
    }
}
