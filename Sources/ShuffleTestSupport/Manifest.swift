import Foundation
import ShuffleCore

/// The expected contents of a generated library: `DEST/.manifest.tsv` as written by `tools/make-testlib`
/// or by the yardstick `../shared/tools/make-library` (same columns, same escapes).
///
/// Lines starting with `#` are comments; the first other line names the columns; every further line is
/// one file, its path escaped (`\\`, `\t`, `\n`, `\r`, and `\xHH` for bytes that are not valid UTF-8).
/// Columns are found by name, so a reordered or extended manifest still parses.
public struct Manifest: Sendable {
    /// The `#` comment lines at the top (generator, seed, template clips), without the `#`.
    public var comments: [String]
    /// Every file of the library, sorted by path bytes.
    public var rows: [ManifestRow]

    /// The manifest's file name inside a library.
    public static let fileName = ".manifest.tsv"

    /// Wraps rows (sorted by path bytes).
    public init(comments: [String] = [], rows: [ManifestRow]) {
        self.comments = comments
        self.rows = rows.sorted { $0.path < $1.path }
    }

    /// Reads `root/.manifest.tsv`.
    public init(libraryRoot root: URL) throws {
        let url = root.appendingPathComponent(Self.fileName)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ManifestError(line: 0, message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ManifestError(line: 0, message: "\(url.path) is not UTF-8 text")
        }
        self = try Self.parse(text)
    }

    /// Parses the text of a manifest.
    public static func parse(_ text: String) throws -> Manifest {
        var comments: [String] = []
        var columns: [String: Int]?
        var rows: [ManifestRow] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard let names = columns else {
                guard fields.first == "path", fields.contains("kind") else {
                    throw ManifestError(line: number, message: "expected the header row (path, kind, ...)")
                }
                columns = Dictionary(fields.enumerated().map { ($1, $0) }) { first, _ in first }
                continue
            }
            rows.append(try ManifestRow(fields: fields, columns: names, line: number))
        }
        guard columns != nil else { throw ManifestError(line: 0, message: "no header row") }
        return Manifest(comments: comments, rows: rows)
    }

    // MARK: - Selections

    /// Playable tracks an indexer must list (`kind == track`).
    public var playable: [ManifestRow] { rows.filter { $0.kind == .track } }
    /// Audio-named files that must be reported unplayable (`kind == broken`).
    public var broken: [ManifestRow] { rows.filter { $0.kind == .broken } }
    /// Playable audio inside hidden folders (such as `.Trashes`) that an indexer must skip.
    public var hidden: [ManifestRow] { rows.filter { $0.kind == .hidden } }
    /// Rows of one kind.
    public func rows(ofKind kind: ManifestRow.Kind) -> [ManifestRow] { rows.filter { $0.kind == kind } }

    /// The row for a relative path, if the manifest lists it.
    public func row(for path: PathBytes) -> ManifestRow? {
        var low = 0
        var high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].path < path { low = mid + 1 } else { high = mid }
        }
        return low < rows.count && rows[low].path == path ? rows[low] : nil
    }

    /// The value of `key=value` in the first comment line (the generator's parameters), e.g. "seed".
    public func parameter(_ key: String) -> String? {
        guard let first = comments.first else { return nil }
        for word in first.split(whereSeparator: { $0 == " " || $0 == ";" }) {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == key { return String(parts[1]) }
        }
        return nil
    }
}

/// A manifest line that could not be read.
public struct ManifestError: Error, CustomStringConvertible, Equatable {
    /// 1-based line number (0 for the file as a whole).
    public var line: Int
    /// What was wrong.
    public var message: String

    /// Creates an error.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// "manifest line N: message".
    public var description: String { line > 0 ? "manifest line \(line): \(message)" : "manifest: \(message)" }
}
