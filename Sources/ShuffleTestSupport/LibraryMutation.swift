import Foundation
import ShuffleCore

/// One change `make-testlib mutate` made to a library (a line of `DEST/.mutations.tsv`).
public struct LibraryMutation: Equatable, Sendable {
    /// What happened to the file.
    public enum Action: String, Sendable {
        /// A new track appeared.
        case added
        /// The tags were rewritten: new size and modification time, same audio.
        case retagged
        /// Renamed or moved to another folder: same bytes, same modification time.
        case moved
        /// The file is gone.
        case deleted
        /// A good file was cut short and no longer decodes fully.
        case broke
    }

    /// What happened.
    public var action: Action
    /// The file's path (before the move, for `moved`).
    public var path: PathBytes
    /// Where a moved file went; nil for other actions.
    public var newPath: PathBytes?

    /// Creates a mutation.
    public init(action: Action, path: PathBytes, newPath: PathBytes? = nil) {
        self.action = action
        self.path = path
        self.newPath = newPath
    }

    /// Reads `root/.mutations.tsv`.
    public static func load(libraryRoot root: URL) throws -> [LibraryMutation] {
        let url = root.appendingPathComponent(".mutations.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw TestSupportError("cannot read \(url.path)")
        }
        var result: [LibraryMutation] = []
        for (index, line) in text.split(separator: "\n").enumerated() where index > 0 {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2, let action = Action(rawValue: fields[0]) else {
                throw TestSupportError("\(url.path) line \(index + 1): expected ACTION<TAB>PATH<TAB>NEW_PATH")
            }
            let newPath = fields.count > 2 && !fields[2].isEmpty ? fields[2] : nil
            result.append(
                LibraryMutation(
                    action: action, path: PathBytes(try ManifestEscapes.decode(fields[1], line: index + 1)),
                    newPath: try newPath.map { PathBytes(try ManifestEscapes.decode($0, line: index + 1)) }))
        }
        return result
    }
}
