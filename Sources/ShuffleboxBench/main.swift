// ShuffleboxBench: search latency at 100,000 tracks, in process, through the real store.
//   ShuffleboxBench DB [--tracks N] [--runs R]
//   ShuffleboxBench play-files DEVICE VOLUME FILE...   (PlayFiles.swift: decode+output cost per format)
//   ShuffleboxBench shuffle N...                        (ShuffleTiming.swift: the balanced shuffle's cost)
// Builds DB (when it does not exist yet) by inserting synthetic tracks through LibraryDatabase, then
// times LibraryDatabase.search (limit 20) and searchCount for a broad and a narrow prefix query, and
// prints for each the equivalent sqlite3-shell statement (one line starting "SQL\t") so scripts/bench
// can time the same MATCH in the shell.
import Foundation
import LibSQLite
import MusicLibrary
import ShuffleCore

let arguments = CommandLine.arguments
if arguments.count >= 2 && arguments[1] == "play-files" {
    exit(await playFiles(Array(arguments.dropFirst(2))))
}
if arguments.count >= 2 && arguments[1] == "shuffle" {
    shuffleTiming(arguments.dropFirst(2).compactMap { Int($0) })
    exit(0)
}
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ShuffleboxBench DB [--tracks N] [--runs R]\n".utf8))
    exit(64)
}
let path = arguments[1]
func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return Int(arguments[index + 1]) ?? fallback
}
let trackCount = option("--tracks", 100_000)
let runs = option("--runs", 50)

/// Deterministic words: real-looking syllable words, so prefixes have realistic fan-out.
struct Words {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let syllables = [
        "lo", "ve", "mi", "ra", "ka", "to", "su", "ne", "li", "an", "or", "el", "da", "ri", "mo", "shi",
        "ber", "gan", "tor", "vel", "quin", "zeph", "yr", "ul", "ex", "ion", "ar", "is", "een", "ou",
    ]
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
    mutating func word() -> String {
        let count = 2 + Int(next() % 2)
        return (0..<count).map { _ in syllables[Int(next() % UInt64(syllables.count))] }.joined().capitalized
    }
    mutating func phrase(_ words: Int) -> String { (0..<words).map { _ in word() }.joined(separator: " ") }
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

do {
    let existed = FileManager.default.fileExists(atPath: path)
    let database = try LibraryDatabase(path: path, create: true)
    let volume = try database.volume(key: "path:/bench", root: PathBytes("/bench"), now: 1)
    if !existed {
        var words = Words()
        let started = ContinuousClock.now
        var artists: [String] = (0..<2000).map { _ in words.phrase(2) }
        artists[7] = "Zephyr Quartzline"
        for batch in stride(from: 0, to: trackCount, by: 500) {
            try database.transaction { () throws(SQLiteError) in
                for index in batch..<min(batch + 500, trackCount) {
                    let artist = artists[index % artists.count]
                    let album = words.phrase(2)
                    let title = words.phrase(1 + index % 3)
                    let tags = TagInfo(
                        title: title, artist: artist, album: album, track: index % 12 + 1, year: 1970 + index % 50)
                    let record = LibraryDatabase.FileRecord(
                        path: PathBytes("\(artist)/\(album)/\(index % 12 + 1) \(title).mp3"), size: Int64(index),
                        mtimeNs: 1,
                        outcome: .audio(
                            tags, StreamInfo(codec: "mp3", sampleRate: 44_100, channels: 2, frames: 9_000_000)))
                    try database.insertFile(record, volume: volume)
                }
            }
        }
        print("built \(trackCount) tracks in \(Int(milliseconds(ContinuousClock.now - started))) ms")
    }
    for (label, query) in [("broad", "lo"), ("narrow", "zephyr quartz")] {
        var times: [Double] = []
        _ = try database.search(query, in: volume, limit: 20)  // warm the cache
        for _ in 0..<runs {
            let started = ContinuousClock.now
            let top = try database.search(query, in: volume, limit: 20)
            precondition(top.count <= 20)
            times.append(milliseconds(ContinuousClock.now - started))
        }
        let count = try database.searchCount(query, in: volume)
        times.sort()
        let median = times[times.count / 2]
        print(
            String(
                format: "search %-6@ %-16@ %6d hits  top-20 median %.2f ms (min %.2f, %d runs)",
                label, "\"\(query)\"", count, median, times[0], runs))
        let match = SearchQuery.matchExpression(for: query) ?? ""
        let sql = LibraryDatabase.searchSQL
            .replacingOccurrences(of: "?1", with: "'" + match.replacingOccurrences(of: "'", with: "''") + "'")
            .replacingOccurrences(of: "?2", with: String(volume.id)).replacingOccurrences(of: "?3", with: "20")
            .split(separator: "\n").joined(separator: " ")
        print("SQL\t\(label)\t\(sql);")
    }
} catch {
    FileHandle.standardError.write(Data("ShuffleboxBench: \(error)\n".utf8))
    exit(1)
}
