import Glibc
import LibLinux
import ShuffleCore

/// Finds and reads board files.
///
/// `--board NAME` looks for `NAME/board.conf` (or `NAME.conf` when NAME has a slash, as in
/// `rpi4/one-button`) in these folders, first match wins:
/// 1. `$SHUFFLEBOX_BOARD_DIR`, when set;
/// 2. `board/` of the source checkout the executable was built in (development);
/// 3. `/usr/share/shufflebox/board` (installed).
public enum BoardLocator {
    /// The folders searched, in order.
    public static var searchPath: [String] {
        var folders: [String] = []
        if let dir = Environment.value("SHUFFLEBOX_BOARD_DIR"), !dir.isEmpty { folders.append(dir) }
        if let checkout = checkoutBoardFolder() { folders.append(checkout) }
        folders.append("/usr/share/shufflebox/board")
        return folders
    }

    /// The board file for `--board NAME` or `--config FILE`, parsed.
    public static func load(board: String?, config: String?) throws(BoardLoadError) -> BoardConfig {
        let path: String
        if let config {
            path = config
        } else if let board {
            guard !board.isEmpty, !board.contains(".."), !board.hasPrefix("/") else {
                throw BoardLoadError("'\(board)' is not a board name (boards: \(available().joined(separator: ", ")))")
            }
            let relative = board.contains("/") ? "\(board).conf" : "\(board)/board.conf"
            guard let found = searchPath.map({ "\($0)/\(relative)" }).first(where: FileSystem.exists)
            else {
                throw BoardLoadError(
                    "no board '\(board)' in \(searchPath.joined(separator: ", "))"
                        + " (boards: \(available().joined(separator: ", ")))")
            }
            path = found
        } else {
            throw BoardLoadError("give --board NAME or --config FILE (boards: \(available().joined(separator: ", ")))")
        }
        guard let data = try? FileSystem.contents(of: path) else {
            throw BoardLoadError("cannot read the board file \(path): check that it exists and is readable")
        }
        do {
            return try BoardFileParser.parse(String(decoding: data, as: UTF8.self), file: path)
        } catch {
            throw BoardLoadError("\(error)")
        }
    }

    /// Every board name found on the search path (`rpi4`, `rpi4/one-button`, ...).
    public static func available() -> [String] {
        var names: Set<String> = []
        for folder in searchPath {
            // board/common holds the daemon's shufflebox.conf and other shared files, not a board.
            for board in FileSystem.names(inFolder: folder) ?? [] where board != "common" {
                for file in FileSystem.names(inFolder: "\(folder)/\(board)") ?? []
                where file.hasSuffix(".conf") {
                    names.insert(file == "board.conf" ? board : "\(board)/\(file.dropLast(5))")
                }
            }
        }
        return names.sorted()
    }

    /// `board/` beside the Package.swift above the running executable, if there is one.
    static func checkoutBoardFolder() -> String? {
        guard let executable = FileSystem.linkTarget("/proc/self/exe") else { return nil }
        var folder = FileSystem.parentFolder(of: executable)
        for _ in 0..<6 {
            let board = folder == "/" ? "/board" : "\(folder)/board"
            if FileSystem.exists(folder == "/" ? "/Package.swift" : "\(folder)/Package.swift"), FileSystem.exists(board)
            {
                return board
            }
            folder = FileSystem.parentFolder(of: folder)
        }
        return nil
    }
}

/// A board that could not be found or read; the message says which and what to do.
public struct BoardLoadError: Error, CustomStringConvertible {
    /// The message for a person.
    public let description: String

    init(_ description: String) { self.description = description }
}
