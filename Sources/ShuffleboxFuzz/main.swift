// Fuzz entry point; built with `make fuzz` (swift build --sanitize=fuzzer --product ShuffleboxFuzz).
// A plain `swift build` builds this as an inert executable.
//
// Two targets share the executable, chosen by `SHUFFLEBOX_FUZZ` (scripts/fuzz runs both):
//   probe (default)  the bytes are an MP3 file from a USB stick: MediaProbe
//   text             the bytes are text a person or a client wrote: the board, configuration, button
//                    script, mountinfo, MPD request and command-line parsers, the FTS query builder, the
//                    voice choice for tag text and the LED-class trigger list
import MediaProbe
import MusicLibrary
import ShuffleCore

#if canImport(Glibc)
    import Glibc
#endif

/// Which target this run feeds, read once.
let fuzzText: Bool = {
    guard let value = getenv("SHUFFLEBOX_FUZZ") else { return false }
    return String(cString: value) == "text"
}()

/// libFuzzer's entry: every parser must return or throw, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if !fuzzText {
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
    _ = try? Command.parse(text.split(separator: " ").map(String.init))
    _ = SearchQuery.matchExpression(for: text)
    _ = VoiceChoice.nowPlaying(title: text, artist: text, fileName: text)
    _ = LEDDescription(triggerList: text, maxBrightness: text, brightness: text)
    return 0
}
