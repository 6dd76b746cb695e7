/// What a stick's `shufflebox.txt` says of its stories: folders whose files are stories whatever their tags
/// (`stories = FOLDER`), and folders whose books always start from the beginning (`from-start = FOLDER`,
/// which marks the folder as stories too). A folder is a path relative to the stick's root, as bytes,
/// without a `/` at either end; it covers every file under it.
public struct StoryRules: Equatable, Sendable {
    /// Folders whose files are stories.
    public var folders: [[UInt8]]
    /// Folders whose books start from the beginning every time (no bookmark is used).
    public var fromStart: [[UInt8]]

    /// No rules: only what the files say of themselves.
    public init(folders: [[UInt8]] = [], fromStart: [[UInt8]] = []) {
        self.folders = folders
        self.fromStart = fromStart
    }

    /// Whether no folder is marked.
    public var isEmpty: Bool { folders.isEmpty && fromStart.isEmpty }

    /// A folder as written in the file, cleaned: without `/` at either end, nil when nothing is left.
    public static func folder(_ text: String) -> [UInt8]? {
        var bytes = Array(text.utf8)
        while bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        while bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
        return bytes.isEmpty ? nil : bytes
    }

    /// Whether the file at `path` (relative to the stick's root) is under a folder marked as stories.
    public func marksStory(_ path: [UInt8]) -> Bool {
        (folders + fromStart).contains { Self.isUnder(path, $0) }
    }

    /// Whether the book at `key` (its folder, or its file for a one-file book) starts from the beginning.
    public func startsFromBeginning(_ key: [UInt8]) -> Bool {
        fromStart.contains { key == $0 || Self.isUnder(key, $0) }
    }

    /// Whether `path` lies under `folder` (a folder's own path is not under it).
    public static func isUnder(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        path.count > folder.count && path[folder.count] == UInt8(ascii: "/") && path.starts(with: folder)
    }
}
