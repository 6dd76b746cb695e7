import Glibc
import LibLinux

/// Default places of the daemon's files, per DESIGN.md.
enum DaemonPaths {
    /// Whether we run as root (the system service).
    static var isRoot: Bool { geteuid() == 0 }

    /// `/var/lib/shufflebox` as root, else `$XDG_STATE_HOME/shufflebox` or `~/.local/state/shufflebox`.
    /// Under systemd, `$STATE_DIRECTORY` (from `StateDirectory=`) wins.
    static func stateDirectory(_ environment: [String: String] = Environment.all) -> String {
        if let given = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return String(given) }
        if isRoot { return "/var/lib/shufflebox" }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/shufflebox" }
        let home = environment["HOME"] ?? Environment.userHome ?? "/"
        return home + "/.local/state/shufflebox"
    }

    /// `/run/shufflebox/socket` as root, else `<state-dir>/socket`.
    /// Under systemd, `$RUNTIME_DIRECTORY/socket` (from `RuntimeDirectory=`).
    static func socket(
        stateDirectory: String, environment: [String: String] = Environment.all
    ) -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first { return runtime + "/socket" }
        return isRoot ? "/run/shufflebox/socket" : stateDirectory + "/socket"
    }

    /// Where `status` and `ctl` look without `--socket`: the system daemon's socket when it exists
    /// (or when we are root, so "no daemon" names the place the system service would answer),
    /// else the user's.
    static func clientSocket() -> String {
        let system = "/run/shufflebox/socket"
        if isRoot || FileSystem.exists(system) { return system }
        return stateDirectory() + "/socket"
    }
}
