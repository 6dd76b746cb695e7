import Foundation
import ShuffleCore
import ShuffleTestSupport

/// A library written by `../shared/tools/make-library` into a temporary directory, with its manifest.
struct GeneratedLibrary {
    /// One manifest row.
    struct Row {
        /// The file's path relative to the library root, as bytes.
        let path: PathBytes
        /// Column name to (unescaped) value.
        let fields: [String: String]

        /// The value of `column` ("" when absent).
        subscript(column: String) -> String { fields[column] ?? "" }
        /// The value as text, nil when empty.
        func text(_ column: String) -> String? { self[column].isEmpty ? nil : self[column] }
        /// The value as an integer, nil when empty.
        func number(_ column: String) -> Int? { Int(self[column]) }
        /// A ReplayGain value such as "+1.23 dB" as a number.
        func gain(_ column: String) -> Double? {
            let text = self[column].replacingOccurrences(of: " dB", with: "")
            return text.isEmpty ? nil : Double(text.hasPrefix("+") ? String(text.dropFirst()) : text)
        }
    }

    /// The library root.
    let root: PathBytes
    /// Every file the manifest lists.
    let rows: [Row]
    private let directory: URL

    /// Runs make-library with `tracks` and `seed` into a fresh temporary directory.
    init(tracks: Int, seed: Int, extra: [String] = []) throws {
        guard let shared = PackagePaths.shared else { throw CocoaError(.fileNoSuchFile) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mediaprobe-\(UUID().uuidString)")
        let tool = shared.appendingPathComponent("tools/make-library").path
        let result = try Run.program(
            tool, [directory.path, "--tracks", "\(tracks)", "--seed", "\(seed)", "--quiet"] + extra)
        guard result.status == 0 else {
            throw NSError(domain: "make-library", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
        root = PathBytes(directory.path)
        let manifest = try String(contentsOf: directory.appendingPathComponent(".manifest.tsv"), encoding: .utf8)
        var header: [String] = []
        var rows: [Row] = []
        for line in manifest.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") { continue }
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map { Self.unescape(String($0)) }
            if header.isEmpty {
                header = cells.map { String(decoding: $0, as: UTF8.self) }
                continue
            }
            var fields: [String: String] = [:]
            for (name, value) in zip(header, cells) { fields[name] = String(decoding: value, as: UTF8.self) }
            rows.append(Row(path: PathBytes(cells[0]), fields: fields))
        }
        self.rows = rows
    }

    /// Deletes the library.
    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// The file name without extension, as the probe's title fallback shows it.
    static func stem(of path: PathBytes) -> String {
        let name = PathBytes(Array(path.bytes.split(separator: UInt8(ascii: "/")).last ?? [])).display
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Reverses the manifest escapes (`\\`, `\t`, `\n`, `\r`, `\xHH`) into bytes.
    static func unescape(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                out.append(byte)
                index += 1
                continue
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "x") where index + 3 < bytes.count:
                out.append(UInt8(String(decoding: bytes[index + 2...index + 3], as: UTF8.self), radix: 16) ?? 0)
                index += 4
                continue
            default: out.append(bytes[index + 1])
            }
            index += 2
        }
        return out
    }
}
