import Foundation
import ShuffleCore
import ShuffleTestSupport

/// A library made by `tools/make-testlib` in a fresh temporary folder, read back from its manifest.
struct GeneratedLibrary {
    /// One manifest row.
    struct Entry {
        var relativePath: [UInt8]
        var kind: String
        var frames: Int64?
        var rate: Int
        var channels: Int
        var title: String?
        var artist: String?
    }

    let root: URL
    let entries: [Entry]

    /// Generates `tracks` tracks (plus `broken` broken files) with `formats` "same" or "mixed".
    init(tracks: Int, broken: Int = 0, formats: String = "same", seed: Int = 1, seconds: String? = nil) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("shufflebox-playback-\(UUID().uuidString)")
        var arguments = [
            root.path, "--tracks", String(tracks), "--formats", formats, "--broken", String(broken),
            "--no-extras", "--quiet", "--seed", String(seed),
        ]
        if let seconds { arguments += ["--seconds", seconds] }
        let result = try Run.program(
            PackagePaths.root.appendingPathComponent("tools/make-testlib").path, arguments)
        guard result.status == 0 else {
            throw GeneratorFailed(message: "make-testlib failed (\(result.status)): \(result.stderr)")
        }
        let text = try String(contentsOf: root.appendingPathComponent(".manifest.tsv"), encoding: .utf8)
        var rows = text.split(separator: "\n", omittingEmptySubsequences: true).filter { !$0.hasPrefix("#") }
        let header = rows.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        func column(_ name: String) -> Int { header.firstIndex(of: name) ?? 0 }
        entries = rows.map { row in
            let cells = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func cell(_ name: String) -> String { cells.indices.contains(column(name)) ? cells[column(name)] : "" }
            return Entry(
                relativePath: GeneratedLibrary.unescape(cell("path")), kind: cell("kind"),
                frames: Int64(cell("samples")), rate: Int(cell("rate")) ?? 0, channels: Int(cell("channels")) ?? 0,
                title: cell("title").isEmpty ? nil : cell("title"),
                artist: cell("artist").isEmpty ? nil : cell("artist"))
        }
    }

    /// Playable tracks, then broken files, as catalog tracks with ids from 1.
    func catalogTracks(includingBroken: Bool = false) -> [CatalogTrack] {
        let chosen = entries.filter { $0.kind == "track" || (includingBroken && $0.kind == "broken") }
        return chosen.enumerated().map { index, entry in
            let relative = PathBytes(entry.relativePath)
            return CatalogTrack(
                id: TrackID(Int64(index + 1)), path: PathBytes(root.path).appending(relative), relativePath: relative,
                tags: TagInfo(title: entry.title, artist: entry.artist),
                stream: StreamInfo(
                    codec: "mp3", sampleRate: entry.rate, channels: entry.channels, frames: entry.frames ?? 0))
        }
    }

    /// Removes the folder.
    func remove() { try? FileManager.default.removeItem(at: root) }

    /// Undoes the manifest's escapes (`\\`, `\t`, `\n`, `\r`, `\xhh`).
    static func unescape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                switch bytes[index + 1] {
                case UInt8(ascii: "t"): out.append(9); index += 2; continue
                case UInt8(ascii: "n"): out.append(10); index += 2; continue
                case UInt8(ascii: "r"): out.append(13); index += 2; continue
                case UInt8(ascii: "\\"): out.append(92); index += 2; continue
                case UInt8(ascii: "x") where index + 3 < bytes.count:
                    if let value = UInt8(String(decoding: bytes[index + 2...index + 3], as: UTF8.self), radix: 16) {
                        out.append(value)
                        index += 4
                        continue
                    }
                default: break
                }
            }
            out.append(bytes[index])
            index += 1
        }
        return out
    }
}

/// The generator could not run.
struct GeneratorFailed: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A temporary file for the ALSA `file` PCM to write into, and the device name that writes there.
struct CaptureFile {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "shufflebox-capture-\(UUID().uuidString).raw")

    /// alsa.conf's `file` PCM with a raw output file (a null slave consumes as fast as it is written).
    var device: String { "file:'\(url.path)',raw" }

    /// The bytes written so far.
    func bytes() -> Data { (try? Data(contentsOf: url)) ?? Data() }

    /// Removes the file.
    func remove() { try? FileManager.default.removeItem(at: url) }
}
