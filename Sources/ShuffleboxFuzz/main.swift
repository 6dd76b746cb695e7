// Fuzz entry point; built with `make fuzz` (swift build --sanitize=fuzzer --product ShuffleboxFuzz).
// A plain `swift build` builds this as an inert executable.
//
// Three targets share the executable, chosen by `SHUFFLEBOX_FUZZ` (scripts/fuzz runs them all):
//   probe (default)  the bytes are an MP3 file from a USB stick: MediaProbe
//   sparse           the bytes describe a sparse file far larger than the input (a hole of up to 4 GiB
//                    between a head and a tail), probed from disk: lengths and offsets the file claims may
//                    point far past the bytes given, and scripts/fuzz caps memory, so a reader that
//                    believes a length and allocates it is found
//   text             the bytes are text a person or a client wrote: the board, configuration, button
//                    script, mountinfo, MPD request, MPD filter expression and command-line parsers, the FTS
//                    query builder, the voice choice for tag text and the LED-class trigger list
import MediaProbe
import MusicLibrary
import ShuffleCore

#if canImport(Glibc)
    import Glibc
#endif

/// Which target this run feeds, read once.
let fuzzTarget: String = getenv("SHUFFLEBOX_FUZZ").map { String(cString: $0) } ?? "probe"

/// The sparse file the `sparse` target writes (one per process).
let sparsePath = "/tmp/shufflebox-fuzz-sparse-\(getpid()).mp3"

/// Lays `bytes` out as a sparse file and probes it: the first 4 bytes (little-endian) are the hole's size,
/// the first half of the rest is written at 0 and the second half after the hole.
func probeSparse(_ bytes: [UInt8]) {
    guard bytes.count >= 4 else { return }
    let hole = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
    let rest = Array(bytes[4...])
    let head = Array(rest.prefix(rest.count / 2))
    let tail = Array(rest.dropFirst(rest.count / 2))
    let fd = open(sparsePath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    _ = head.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    _ = tail.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(head.count + hole)) }
    _ = ftruncate(fd, off_t(head.count + hole + tail.count))
    close(fd)
    _ = MediaProbe.probe(path: PathBytes(sparsePath))
}

/// libFuzzer's entry: every parser must return or throw, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch fuzzTarget {
    case "text": break
    case "sparse":
        probeSparse(bytes)
        return 0
    default:
        _ = MediaProbe.probe(bytes: bytes, fileName: "fuzz.mp3")
        return 0
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let board = try? BoardFileParser.parse(text, file: "fuzz.conf")
    _ = try? ButtonScript.parse(text, file: "fuzz.script", board: board)
    _ = try? ConfigParser.parse(text, file: "fuzz.conf")
    _ = MountTable.parse(bytes)
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        _ = try? MPDRequest.parse(Array(line))
    }
    _ = try? MPDFilter.parse(text)
    _ = try? Command.parse(text.split(separator: " ").map(String.init))
    _ = SearchQuery.matchExpression(for: text)
    _ = VoiceChoice.nowPlaying(title: text, artist: text, fileName: text)
    _ = LEDDescription(triggerList: text, maxBrightness: text, brightness: text)
    return 0
}
