import MediaProbe
import ShuffleCore

/// How the indexer decides what a file is: which extensions to read, which to ignore unopened, and
/// the probe itself. `FileProber.mediaProbe` is the real one; tests may narrow it.
public struct FileProber: Sendable {
    /// Lower-case extensions (without the dot) of audio files: always probed.
    public var audioExtensions: Set<String>
    /// Lower-case extensions of files that are never audio (pictures, playlists, text): never opened.
    public var ignoredExtensions: Set<String>
    /// Reads one file (absolute path).
    public var probe: @Sendable (PathBytes) -> ProbeOutcome
    /// Reads one file again with no bound on how much of its stream is walked (the exact length of a file
    /// `probe` estimated); asks its second argument before every block read, and gives nil once that said stop.
    public var probeInFull: @Sendable (PathBytes, @escaping () -> Bool) -> ProbeOutcome?

    /// Creates a prober; without `probeInFull`, estimates stay estimates.
    public init(
        audioExtensions: Set<String>, ignoredExtensions: Set<String>,
        probe: @escaping @Sendable (PathBytes) -> ProbeOutcome,
        probeInFull: @escaping @Sendable (PathBytes, @escaping () -> Bool) -> ProbeOutcome? = { _, _ in nil }
    ) {
        self.audioExtensions = audioExtensions
        self.ignoredExtensions = ignoredExtensions
        self.probe = probe
        self.probeInFull = probeInFull
    }

    /// Whether a file with this relative path is skipped without being opened.
    public func isIgnored(_ path: PathBytes) -> Bool {
        guard let ext = Self.fileExtension(of: path) else { return false }
        return ignoredExtensions.contains(ext) && !audioExtensions.contains(ext)
    }

    /// The lower-cased extension of the last path component, if it has one (ASCII only).
    static func fileExtension(of path: PathBytes) -> String? {
        let bytes = path.bytes
        var index = bytes.count - 1
        while index >= 0 {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") { return nil }
            if byte == UInt8(ascii: ".") {
                guard index + 1 < bytes.count, index > 0, bytes[index - 1] != UInt8(ascii: "/") else { return nil }
                let ext = bytes[(index + 1)...]
                guard ext.count <= 8, ext.allSatisfy({ $0 < 0x80 }) else { return nil }
                return String(decoding: ext, as: UTF8.self).lowercased()
            }
            index -= 1
        }
        return nil
    }
}

extension FileProber {
    /// The real prober: `MediaProbe`'s extension lists and its pure-Swift MP3 probe.
    public static let mediaProbe = FileProber(
        audioExtensions: MediaProbe.audioExtensions, ignoredExtensions: MediaProbe.ignoredExtensions,
        probe: { MediaProbe.probe(path: $0) },
        probeInFull: { MediaProbe.probeInFull(path: $0, isCancelled: $1) })
}
