// Fuzz entry point; built with `make fuzz` (swift build --sanitize=fuzzer --product ShuffleboxFuzz).
// A plain `swift build` builds this as an inert executable.
import MediaProbe

/// libFuzzer's entry: probes the input as an in-memory MP3 file. It must never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = MediaProbe.probe(bytes: bytes, fileName: "fuzz.mp3")
    return 0
}
