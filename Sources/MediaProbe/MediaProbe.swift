public import ShuffleCore

// MediaProbe: reads tags and stream shape from untrusted bytes, in pure Swift (fuzzed).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells whether a file is playable MP3 audio, and reads its tags and stream shape, from the
/// head and tail of the file only (plus a frame-header walk when no Xing/Info header gives the
/// length). Never throws, never traps: every problem becomes an outcome.
public enum MediaProbe {
    /// Extensions (lowercased, without dot) that mean "audio we can play".
    public static let audioExtensions: Set<String> = ["mp3"]

    /// Extensions never worth opening: pictures, text, playlists, system files.
    public static let ignoredExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "bmp", "webp", "tif", "tiff", "ico", "heic", "svg",
        "txt", "nfo", "pdf", "doc", "docx", "rtf", "md", "sfv", "md5", "sha1", "accurip",
        "m3u", "m3u8", "pls", "cue", "xspf", "wpl", "log", "db", "ini", "plist", "ds_store", "lnk", "url",
        "xml", "html", "htm", "css", "js", "json", "exe", "dll", "bat", "sh", "zip", "rar", "7z", "gz", "tar",
        "iso", "dat", "tmp", "bak", "par2", "torrent", "lrc", "srt", "mp4", "mkv", "avi", "mov",
    ]

    /// Probes the file at `path`, reading it with `pread` (head, tail, and a frame walk when needed).
    /// I/O errors become `.unplayable(reason: "cannot read: …")`.
    public static func probe(path: PathBytes) -> ProbeOutcome {
        measuredProbe(path: path).outcome
    }

    /// What one probe read: the longest single read and the bytes read in all (tests bound both).
    struct Reads: Equatable {
        var largest = 0
        var total = 0
    }

    /// Probes the file at `path` and says how much it read.
    static func measuredProbe(path: PathBytes) -> (outcome: ProbeOutcome, reads: Reads) {
        let name = lastComponent(of: path)
        let ext = fileExtension(name)
        if ignoredExtensions.contains(ext) { return (.notAudio, Reads()) }
        let fd = open(path.cString, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return (.unplayable(reason: "cannot read: \(describe(errno))"), Reads()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return (.unplayable(reason: "cannot read: \(describe(errno))"), Reads()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return (audioExtensions.contains(ext) ? .unplayable(reason: "not a regular file") : .notAudio, Reads())
        }
        let source = ByteSource(fd: fd, size: Int(info.st_size))
        let outcome = probe(source, fileName: name)
        return (outcome, Reads(largest: source.largestRead, total: source.totalRead))
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

    /// The outcome before I/O errors are considered.
    private static func classify(_ source: ByteSource, fileName: String) -> ProbeOutcome {
        let isAudioName = audioExtensions.contains(fileExtension(fileName))
        if source.count == 0 { return isAudioName ? .unplayable(reason: "empty file (0 bytes)") : .notAudio }
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
        let tail = TailTags(source: source, floor: audioStart)
        let scan = MPEGStreamScanner(source: source, start: audioStart, end: tail.audioEnd).scan()
        switch scan {
        case .stream(let stream):
            var tags = ID3v2Tag.read(source, at: 0, header: first).tagInfo(resolveGenre: true)
            tags = tags.filling(from: tail.ape.tagInfo(resolveGenre: true))
            tags = tags.filling(from: tail.id3v1.tagInfo(resolveGenre: false))
            if tags.title == nil { tags.title = titleFallback(fileName) }
            return .audio(tags, stream)
        case .truncated(let reason):
            return isAudioName || hasTag ? .unplayable(reason: reason) : .notAudio
        case .noStream:
            if hasTag { return .unplayable(reason: "ID3 tag but no audio after it") }
            return isAudioName ? .unplayable(reason: "not MPEG audio") : .notAudio
        }
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
