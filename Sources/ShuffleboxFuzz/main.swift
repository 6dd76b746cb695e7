// Fuzz entry point; built with `make fuzz` (swift build --sanitize=fuzzer --product ShuffleboxFuzz).
// A plain `swift build` builds this as an inert executable.
//
// Three targets share the executable, chosen by `SHUFFLEBOX_FUZZ` (scripts/fuzz runs them all):
//   probe (default)  the bytes are a file from a USB stick, of any format (found by content): MediaProbe's
//                    FLAC, Ogg, MP4, ADTS, WAV, AIFF, MP3, ID3, APE and Vorbis-comment readers, and the
//                    embedded-picture finder (ID3 APIC/PIC, FLAC PICTURE, MP4 covr)
//   sparse           the bytes describe a sparse file far larger than the input (a hole of up to 4 GiB
//                    between a head and a tail), probed from disk: lengths and offsets the file claims may
//                    point far past the bytes given, and scripts/fuzz caps memory, so a reader that
//                    believes a length and allocates it is found
//   mp3diff          the bytes are an MP3 file, probed and also decoded to the end by the player's libmpg123
//                    decoder: the probe must call it playable exactly when the decoder produces audio from it
//                    (a disagreement traps, and libFuzzer keeps the input); bytes the probe finds to be
//                    another format (ADTS AAC) are the player's FFmpeg's, and not compared
//   text             the bytes are text a person or a client wrote: the board, configuration, button
//                    script, mountinfo, MPD request, MPD filter expression and command-line parsers, the FTS
//                    query builder, the voice choice for tag text, the LED-class trigger list, and a stick's
//                    shufflebox.txt (its settings must never raise the box's)
import LibMPG123
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
    _ = EmbeddedPicture.find(path: PathBytes(sparsePath))
}

/// The file the `mp3diff` target writes (one per process).
let diffPath = "/tmp/shufflebox-fuzz-diff-\(getpid()).mp3"

/// Probes `bytes` and decodes them with libmpg123 as the player does; traps when they disagree on whether
/// there is audio.
func probeAgainstDecoder(_ bytes: [UInt8]) {
    var probed = false
    if case .audio(_, let stream) = MediaProbe.probe(bytes: bytes, fileName: "fuzz.mp3") {
        // Found to be another format by its content (ADTS AAC): the player decodes it with FFmpeg, not libmpg123.
        guard stream.codec == "mp3" else { return }
        probed = stream.frames > 0
    }
    let fd = open(diffPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    var decoded = 0
    do {
        var decoder = try MP3Decoder()
        _ = try decoder.open(path: Array(diffPath.utf8))
        var buffer = [Int16](repeating: 0, count: 8192)
        reading: while true {
            switch try decoder.read(into: &buffer) {
            case .samples(let count): decoded += count
            case .newFormat: continue
            case .done: break reading
            }
        }
    } catch {
        // Not opened, or a read failed: what was decoded so far is the answer.
    }
    if probed != (decoded > 0) {
        fatalError("the probe says \(probed ? "playable" : "unplayable"), libmpg123 decodes \(decoded) samples")
    }
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
    case "mp3diff":
        probeAgainstDecoder(bytes)
        return 0
    default:
        _ = MediaProbe.probe(bytes: bytes, fileName: "fuzz.mp3")
        // The cover `readpicture` serves: wherever the tags say it is, it must lie within the file.
        if let picture = EmbeddedPicture.find(bytes: bytes), case .file(let offset, let count) = picture.bytes {
            precondition(offset >= 0 && count > 0 && count <= bytes.count - offset, "picture outside the file")
        }
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
    let stick = StationFile(parsing: text)
    precondition(stick.stations.first?.name == StationFile.wholeStick, "the whole stick is not the first station")
    precondition(stick.stations.count <= StationFile.maxStations + 1, "too many stations")
    precondition(stick.stations.dropFirst().allSatisfy { !$0.search.isEmpty && $0.name.count <= 80 })
    let box = DaemonMachine.Settings(startVolume: 8, maxVolume: 12, volumeSteps: 20, resumePaused: false, minVolume: 2)
    let applied = stick.settings.applied(to: box)
    precondition(applied.maxVolume <= box.maxVolume && applied.startVolume <= box.startVolume, "a stick raised the box")
    precondition(applied.maxVolume >= box.minVolume, "a stick went under the floor")
    return 0
}
