// Fuzz entry points; built with `make fuzz` (swift build --sanitize=fuzzer --product ShuffleboxFuzz).
// A plain `swift build` builds this as an inert executable.
import ShuffleCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    _ = try? Command.parse(String(decoding: bytes, as: UTF8.self).split(separator: " ").map(String.init))
    return 0
}
