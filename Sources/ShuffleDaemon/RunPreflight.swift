import Glibc
import LibLinux
import ShuffleCore

/// What `run` needs of its configuration before it starts, checked the same way by `run --check-config`,
/// by `run` itself and by a reload: the board loads, and the state folder and the socket's folder exist
/// (they are made, as `run` makes them) and can be written.
/// `--check-config` therefore passes exactly when `run` would start (short of another daemon holding the
/// socket, or the sound card, which `run` lives with).
enum RunPreflight {
    /// The places `run` uses.
    struct Places {
        var stateDirectory: String
        var socket: String
    }

    /// The longest socket path `bind` takes (`sizeof(sun_path)` minus the terminating NUL).
    static let maxSocketPath = 107

    /// Checks `config` (read from `text` of `file`, then `overrides`); errors name the file, line and key
    /// that set the value, or the flag.
    static func check(
        _ config: DaemonConfig, file: String, text: String?, overrides: [ConfigOverride], keepFolders: Bool
    ) throws(ConfigError) -> Places {
        func fail(_ key: String, _ message: String) -> ConfigError {
            if overrides.contains(where: { $0.key == key }) {
                return ConfigError(file: "command line", line: nil, message: "--\(key): \(message)")
            }
            let line = text.flatMap { ConfigParser.line(settingKey: key, in: $0) }
            return ConfigError(file: file, line: line, message: "'\(key)': \(message)")
        }
        do {
            _ = try ButtonDriver.loadBoard(config)
        } catch {
            throw fail(config.boardFile != nil ? "board-file" : "board", "\(error)")
        }
        let state = config.stateDirectory ?? DaemonPaths.stateDirectory()
        if let problem = creatableFolderProblem(state, keep: keepFolders) {
            throw fail("state-dir", "\(state): \(problem)")
        }
        let socket = config.socket ?? DaemonPaths.socket(stateDirectory: state)
        if socket.utf8.count > maxSocketPath {
            throw fail(
                "socket", "\(socket) is \(socket.utf8.count) bytes; a socket path holds at most \(maxSocketPath)")
        }
        let socketFolder = FileSystem.parentFolder(of: socket)
        if !socketFolder.isEmpty, let problem = creatableFolderProblem(socketFolder, keep: keepFolders) {
            throw fail("socket", "\(socketFolder): \(problem)")
        }
        return Places(stateDirectory: state, socket: socket)
    }

    /// Makes the folder `path` as `run` would and says why it cannot be used (entered and written), or nil
    /// when it can. Unless `keep`, the folders made are removed again (`--check-config` leaves no trace).
    static func creatableFolderProblem(_ path: String, keep: Bool) -> String? {
        var missing: [String] = []
        var folder = path
        while !folder.isEmpty, !FileSystem.exists(folder) {
            missing.append(folder)
            let parent = FileSystem.parentFolder(of: folder)
            if parent == folder { break }
            folder = parent
        }
        defer {
            if !keep { for made in missing { _ = rmdir(made) } }
        }
        do {
            try FileSystem.createFolders(path)
        } catch {
            return "cannot be made (\(error))"
        }
        guard FileSystem.isFolder(path) else { return "is not a folder" }
        guard access(path, W_OK | X_OK) == 0 else { return "cannot be written (\(String(cString: strerror(errno))))" }
        return nil
    }
}
