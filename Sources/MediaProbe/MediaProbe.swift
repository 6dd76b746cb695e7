public import ShuffleCore

// MediaProbe: reads tags and stream shape from untrusted bytes, in pure Swift (fuzzed).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells whether a file is playable audio, and reads its tags and stream shape, from the head and tail
/// of the file only (plus a frame-header walk for MP3 and ADTS streams when no header gives the length).
/// The format is found by content (magic bytes, then an MPEG frame search), not by the name: a name only
/// decides whether a file that is none of the formats is "unplayable" (an audio name) or "not audio".
/// Never throws, never traps: every problem becomes an outcome.
public enum MediaProbe {
    /// Extensions (lowercased, without dot) that mean "audio we can play".
    public static let audioExtensions: Set<String> = [
        "mp3", "flac", "ogg", "oga", "opus", "m4a", "m4b", "mp4", "aac", "wav", "aif", "aiff", "aifc",
    ]

    /// Extensions of audio formats Shufflebox does not play, with the name the reason gives
    /// ("format not supported: WMA"): probed, so that a file that is really MP3 or FLAC still plays.
    public static let unsupportedExtensions: [String: String] = [
        "wma": "WMA", "asf": "WMA", "ape": "APE", "mpc": "Musepack", "mp+": "Musepack", "mpp": "Musepack",
        "dsf": "DSD", "dff": "DSD", "wv": "WavPack", "tta": "TTA", "mka": "Matroska", "ac3": "AC-3",
        "dts": "DTS", "amr": "AMR", "spx": "Speex", "shn": "Shorten", "ra": "RealAudio", "mp2": "MP2",
    ]

    /// Extensions never worth opening: pictures, text, playlists, system files.
    public static let ignoredExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "bmp", "webp", "tif", "tiff", "ico", "heic", "svg",
        "txt", "nfo", "pdf", "doc", "docx", "rtf", "md", "sfv", "md5", "sha1", "accurip",
        "m3u", "m3u8", "pls", "cue", "xspf", "wpl", "log", "db", "ini", "plist", "ds_store", "lnk", "url",
        "xml", "html", "htm", "css", "js", "json", "exe", "dll", "bat", "sh", "zip", "rar", "7z", "gz", "tar",
        "iso", "dat", "tmp", "bak", "par2", "torrent", "lrc", "srt", "mkv", "avi", "mov",
    ]

    /// Probes the file at `path`, reading it with `pread` (head, tail, and a frame walk when needed).
    /// I/O errors become `.unplayable(reason: "cannot read: …")`.
    public static func probe(path: PathBytes) -> ProbeOutcome {
        measuredProbe(path: path).outcome
    }

    /// Probes the file at `path` again with no bound on the frame walk: the exact length of a file whose first
    /// probe (`probe(path:)`, which walks at most 24 MiB of a stream) could only estimate it. The background
    /// pass that refines estimates calls it; `isCancelled` is asked before every block read, and nil comes
    /// back when it stopped the walk (another stick plugged in), or when a read failed (the stick pulled, a
    /// damaged card): a walk cut short would give a short length.
    public static func probeInFull(path: PathBytes, isCancelled: @escaping () -> Bool) -> ProbeOutcome? {
        let result = measuredProbe(path: path, walkBudget: unboundedWalk, isCancelled: isCancelled)
        return result.cutShort ? nil : result.outcome
    }

    /// A walk budget no file reaches (a petabyte), yet far from overflowing an offset plus itself.
    static let unboundedWalk = 1 << 50

    /// What one probe read: the longest single read and the bytes read in all (tests bound both).
    struct Reads: Equatable {
        var largest = 0
        var total = 0
    }

    /// Probes the file at `path` and says how much it read.
    static func measuredProbe(
        path: PathBytes, walkBudget: Int = ByteSource.defaultWalkBudget, isCancelled: (() -> Bool)? = nil
    ) -> (outcome: ProbeOutcome, reads: Reads, cutShort: Bool) {
        let name = lastComponent(of: path)
        let ext = fileExtension(name)
        if ignoredExtensions.contains(ext) { return (.notAudio, Reads(), false) }
        let fd = open(path.cString, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return (.unplayable(reason: "cannot read: \(describe(errno))"), Reads(), false) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return (.unplayable(reason: "cannot read: \(describe(errno))"), Reads(), false)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return (isAudioName(ext) ? .unplayable(reason: "not a regular file") : .notAudio, Reads(), false)
        }
        let source = ByteSource(fd: fd, size: Int(info.st_size))
        source.walkBudget = walkBudget
        source.isCancelled = isCancelled
        let outcome = probe(source, fileName: name)
        let cutShort = source.wasCancelled || source.ioError != nil
        return (outcome, Reads(largest: source.largestRead, total: source.totalRead), cutShort)
    }

    /// Probes an in-memory file (tests, fuzzing); `fileName` gives the extension and the title fallback.
    public static func probe(bytes: [UInt8], fileName: String) -> ProbeOutcome {
        let ext = fileExtension(fileName)
        if ignoredExtensions.contains(ext) { return .notAudio }
        return probe(ByteSource(bytes: bytes), fileName: fileName)
    }

    // MARK: - The probe

    /// Classifies and measures the file behind `source`.
    private static func probe(_ source: ByteSource, fileName: String) -> ProbeOutcome {
        let outcome = classify(source, fileName: fileName)
        if let error = source.ioError { return .unplayable(reason: "cannot read: \(describe(error))") }
        return outcome
    }

    /// Whether files with this extension are meant as audio (played or not).
    static func isAudioName(_ ext: String) -> Bool {
        audioExtensions.contains(ext) || unsupportedExtensions[ext] != nil
    }

    /// The outcome before I/O errors are considered.
    private static func classify(_ source: ByteSource, fileName: String) -> ProbeOutcome {
        let ext = fileExtension(fileName)
        let isAudioName = isAudioName(ext)
        if source.count == 0 { return isAudioName ? .unplayable(reason: "empty file (0 bytes)") : .notAudio }
        let head = source.bytes(at: 0, count: 16)[...]
        var outcome: ProbeOutcome
        switch Container.sniff(head) {
        case .flac: outcome = FLACProbe.probe(source, at: 0)
        case .ogg: outcome = OggProbe.probe(source, at: 0)
        case .mp4: outcome = MP4Probe.probe(source)
        case .wav: outcome = PCMContainerProbe.probeWAV(source)
        case .aiff(let isAIFC): outcome = PCMContainerProbe.probeAIFF(source, isAIFC: isAIFC)
        case .video: return .notAudio
        case .unsupported(let name):
            return isAudioName || name != "Matroska" ? .unplayable(reason: "format not supported: \(name)") : .notAudio
        case nil: outcome = classifyAfterID3(source, fileName: fileName, ext: ext)
        }
        if case .audio(var tags, let stream) = outcome {
            if tags.title == nil { tags.title = titleFallback(fileName) }
            // iTunes' extension for audiobooks: the name says what no flag inside does.
            if tags.story == nil, ext == "m4b" { tags.story = .audiobook }
            // A length only estimated (a long MP3 walked in part) does not drop chapters near the end.
            tags.chapters = Chapter.cleaned(tags.chapters, durationMs: stream.isEstimate ? nil : stream.durationMs)
            outcome = .audio(tags, stream)
        }
        return outcome
    }

    /// A file that starts with no container's magic: ID3v2 tags, then FLAC, ADTS AAC or MPEG audio.
    private static func classifyAfterID3(_ source: ByteSource, fileName: String, ext: String) -> ProbeOutcome {
        let isAudioName = isAudioName(ext)
        let first = ID3v2Tag.header(in: source, at: 0)
        var audioStart = 0
        switch first {
        case .cutShort: return .unplayable(reason: "ID3 tag is cut short")
        case .present(_, _, _, let end): audioStart = end
        case .none: break
        }
        // Some files carry a second tag right after the first; skip those too.
        for _ in 0..<8 {
            guard case .present(_, _, _, let end) = ID3v2Tag.header(in: source, at: audioStart) else { break }
            audioStart = end
        }
        let hasTag = first != .none
        let afterTags = source.bytes(at: audioStart, count: 16)[...]
        switch Container.sniff(afterTags) {
        case .flac:
            // libFLAC skips an ID3v2 tag in front of the stream; its Vorbis comments come first.
            guard case .audio(let tags, let stream) = FLACProbe.probe(source, at: audioStart) else {
                return FLACProbe.probe(source, at: audioStart)
            }
            return .audio(
                tags.filling(from: ID3v2Tag.read(source, at: 0, header: first).tagInfo(resolveGenre: true)), stream)
        case .unsupported(let name): return .unplayable(reason: "format not supported: \(name)")
        default: break
        }
        let tail = TailTags(source: source, floor: audioStart)
        if ADTSProbe.starts(source, at: audioStart, end: tail.audioEnd) {
            return ADTSProbe.probe(source, from: audioStart, to: tail.audioEnd, tags: tagsAround(source, first, tail))
        }
        let scan = MPEGStreamScanner(source: source, start: audioStart, end: tail.audioEnd).scan()
        let unsupported = unsupportedExtensions[ext]
        switch scan {
        case .stream(let stream):
            return .audio(tagsAround(source, first, tail), stream)
        case .truncated(let reason):
            return isAudioName || hasTag ? .unplayable(reason: reason) : .notAudio
        case .noStream:
            if let unsupported { return .unplayable(reason: "format not supported: \(unsupported)") }
            if hasTag { return .unplayable(reason: "ID3 tag but no audio after it") }
            guard isAudioName else { return .notAudio }
            return .unplayable(reason: "not \(Container.expectedName(forExtension: ext)) audio")
        }
    }

    /// The ID3v2, APE and ID3v1 tags of an MP3 or ADTS file, in that order of precedence.
    private static func tagsAround(_ source: ByteSource, _ first: ID3v2Tag.Header, _ tail: TailTags) -> TagInfo {
        var tags = ID3v2Tag.read(source, at: 0, header: first).tagInfo(resolveGenre: true)
        tags = tags.filling(from: tail.ape.tagInfo(resolveGenre: true))
        return tags.filling(from: tail.id3v1.tagInfo(resolveGenre: false))
    }

    // MARK: - Names

    /// The lowercased extension of the last path component ("" when there is none).
    static func fileExtension(_ name: String) -> String {
        let last = name.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = last.lastIndex(of: ".") else { return "" }
        return String(last[last.index(after: dot)...]).lowercased()
    }

    /// The file name without directory and extension, for a title when no tag gives one.
    static func titleFallback(_ name: String) -> String? {
        let last = name.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? name
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return TagText.clean(last) }
        return TagText.clean(String(last[..<dot]))
    }

    /// The last component of a path, for people (invalid UTF-8 shown as `\xHH`).
    private static func lastComponent(of path: PathBytes) -> String {
        let slash = path.bytes.lastIndex(of: UInt8(ascii: "/"))
        let start = slash.map { $0 + 1 } ?? 0
        return PathBytes(Array(path.bytes[start...])).display
    }

    /// The C library's message for an `errno` value.
    private static func describe(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}
