import Foundation

/// Real story files (audiobooks with chapters, podcast episodes) and plain songs for tests, each a few seconds
/// of a sine: encoded by Debian's `ffmpeg` (AAC in `.m4a`/`.m4b`, MP3 through LAME) with its tags and chapters
/// (from an `;FFMETADATA1` file), then flagged by Debian's `python3-mutagen` where FFmpeg writes no such flag
/// (MP4 `stik` and `pcst`, ID3 `PCST`).
///
/// Every maker writes the file at the URL it is given (creating the folders on the way) and returns it, or
/// throws a `TestSupportError` naming what is missing. A suite gates itself with
/// `@Suite(.enabled(if: StoryFixtures.missingTool == nil, "needs ffmpeg and python3-mutagen"))`.
public enum StoryFixtures {
    /// Where FFmpeg's MP4 muxer puts chapters: it writes both a QuickTime chapter track and Nero's `chpl`.
    public enum MP4ChapterStyle: String, Sendable, CaseIterable {
        /// Both, as FFmpeg writes them by default.
        case both
        /// Only the chapter track (`-movflags disable_chpl`).
        case chapterTrackOnly
        /// Only `chpl`: the sound track's `tref` box, which names the chapter track, renamed `free` afterwards
        /// (same size), so no reader finds the track.
        case neroOnly
    }

    /// The file types `song` makes.
    public enum SongFormat: String, Sendable, CaseIterable {
        /// MP3 with an ID3v2.4 tag (FFmpeg's default).
        case mp3
        /// AAC in MP4.
        case m4a
    }

    /// The interpreter mutagen is installed for: Debian's, whatever `python3` comes first on `PATH`.
    public static let python = "/usr/bin/python3"

    /// Whether `python` imports mutagen.
    public static let hasMutagen: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? Run.program(python, ["-c", "import mutagen"]).status) == 0
    }()

    /// The first tool the makers need that is missing ("ffmpeg", "python3-mutagen"), or nil when all are there.
    public static var missingTool: String? {
        if ExternalTool.find("ffmpeg") == nil { return "ffmpeg" }
        return hasMutagen ? nil : "python3-mutagen"
    }

    // MARK: - Stories

    /// An audiobook: `chapters.count` chapters of `secondsPerChapter` each, titled `chapters`, in an `.m4b` (or
    /// whatever `url`'s extension names), with `title` as its title and album, `author` as its artist, and the
    /// genre Audiobook. No `stik` flag: the extension `.m4b` is what says it is a book.
    @discardableResult
    public static func m4bBook(
        at url: URL, chapters: [String], secondsPerChapter: Double = 1, title: String = "A Book",
        author: String = "An Author", style: MP4ChapterStyle = .both
    ) throws -> URL {
        let metadata = ffmetadata(
            ["title": title, "album": title, "artist": author, "genre": "Audiobook"], chapters: chapters,
            secondsPerChapter: secondsPerChapter)
        try encode(
            to: url, seconds: secondsPerChapter * Double(chapters.count), codec: .m4a, metadata: metadata,
            extra: style == .chapterTrackOnly ? ["-movflags", "disable_chpl"] : [])
        if style == .neroOnly { try hideChapterTrack(url) }
        return url
    }

    /// An MP3 with `chapters.count` ID3v2 `CHAP` frames of `secondsPerChapter` each (their titles in `TIT2`
    /// frames inside) and a top-level, ordered `CTOC` listing them, as FFmpeg's MP3 muxer writes them, in an
    /// ID3v2 tag of version `id3v2Version` (3 or 4).
    @discardableResult
    public static func mp3WithChapters(
        at url: URL, chapters: [String], secondsPerChapter: Double = 1, title: String = "A Book",
        author: String = "An Author", genre: String? = nil, id3v2Version: Int = 3
    ) throws -> URL {
        var tags = ["title": title, "album": title, "artist": author]
        if let genre { tags["genre"] = genre }
        let metadata = ffmetadata(tags, chapters: chapters, secondsPerChapter: secondsPerChapter)
        try encode(
            to: url, seconds: secondsPerChapter * Double(chapters.count), codec: .mp3, metadata: metadata,
            extra: ["-id3v2_version", String(id3v2Version)])
        return url
    }

    /// A podcast episode: in MP4, iTunes' podcast flag (`pcst`) set and its media kind (`stik`) 21; in MP3,
    /// iTunes' podcast flag frame (`PCST`, value 1) in its ID3v2.4 tag. The show is its artist and album.
    @discardableResult
    public static func podcast(
        at url: URL, format: SongFormat, title: String = "An Episode", show: String = "A Show", seconds: Double = 1
    ) throws -> URL {
        try song(at: url, format: format, title: title, artist: show, album: show, seconds: seconds)
        switch format {
        case .m4a: try setMP4Flags(at: url, stik: 21, podcast: true)
        case .mp3:
            try mutagen(
                "from mutagen.id3 import ID3, PCST\nt = ID3(sys.argv[1])\nt.add(PCST(value=1))\nt.save()", url.path)
        }
        return url
    }

    /// Sets iTunes' media kind (`stik`: 1 music, 2 audiobook, 21 podcast) and podcast flag (`pcst`) of the MP4
    /// file at `url`; nil leaves one as it is.
    public static func setMP4Flags(at url: URL, stik: Int? = nil, podcast: Bool? = nil) throws {
        var lines = ["from mutagen.mp4 import MP4", "m = MP4(sys.argv[1])"]
        if let stik { lines.append("m['stik'] = [\(stik)]") }
        if let podcast { lines.append("m['pcst'] = \(podcast ? "True" : "False")") }
        lines.append("m.save()")
        try mutagen(lines.joined(separator: "\n"), url.path)
    }

    // MARK: - Songs

    /// A plain song with the tags given (nil: none written), `seconds` long.
    @discardableResult
    public static func song(
        at url: URL, format: SongFormat = .mp3, title: String, artist: String? = nil, album: String? = nil,
        track: Int? = nil, disc: Int? = nil, genre: String? = nil, seconds: Double = 1
    ) throws -> URL {
        let tags: [String: String?] = [
            "title": title, "artist": artist, "album": album, "track": track.map(String.init),
            "disc": disc.map(String.init), "genre": genre,
        ]
        try encode(to: url, seconds: seconds, codec: format, metadata: ffmetadata(tags.compactMapValues { $0 }))
        return url
    }

    // MARK: - Making

    /// An `;FFMETADATA1` file: global `tags`, then one `[CHAPTER]` per title, `secondsPerChapter` each.
    static func ffmetadata(_ tags: [String: String], chapters: [String] = [], secondsPerChapter: Double = 1) -> String {
        var lines = [";FFMETADATA1"]
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) { lines.append("\(key)=\(escaped(value))") }
        let length = Int((secondsPerChapter * 1000).rounded())
        for (index, title) in chapters.enumerated() {
            lines += [
                "[CHAPTER]", "TIMEBASE=1/1000", "START=\(index * length)", "END=\((index + 1) * length)",
                "title=\(escaped(title))",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value as an ffmetadata file holds it: `=`, `;`, `#`, `\` and line breaks escaped with a backslash.
    private static func escaped(_ value: String) -> String {
        var out = ""
        for character in value {
            if "=;#\\\n".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// Encodes `seconds` of a 440 Hz sine (mono, 44.1 kHz, 32 kbit/s) to `url` with the tags and chapters of
    /// `metadata` (an ffmetadata file's text).
    private static func encode(
        to url: URL, seconds: Double, codec: SongFormat, metadata: String, extra: [String] = []
    ) throws {
        guard let ffmpeg = ExternalTool.find("ffmpeg") else {
            throw TestSupportError("ffmpeg is not installed (apt-get install ffmpeg)")
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let metadataFile = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).ffmeta")
        try Data(metadata.utf8).write(to: metadataFile)
        defer { try? FileManager.default.removeItem(at: metadataFile) }
        let encoder = codec == .m4a ? ["-c:a", "aac"] : ["-c:a", "libmp3lame"]
        // Built in steps: one long sum of array literals is more than Swift 6.0.3's type checker will take.
        var arguments: [String] = [
            "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
        ]
        arguments += ["-i", metadataFile.path, "-map", "0:a", "-map_metadata", "1", "-map_chapters", "1"]
        arguments += encoder
        arguments += ["-b:a", "32k"]
        arguments += extra
        arguments.append(url.path)
        let result = try Run.program(ffmpeg, arguments)
        guard result.status == 0 else {
            throw TestSupportError("ffmpeg failed making \(url.lastPathComponent) (\(result.status)): \(result.stderr)")
        }
    }

    /// Runs `script` with mutagen's interpreter, `sys` imported and `argument` as `sys.argv[1]`.
    private static func mutagen(_ script: String, _ argument: String) throws {
        guard hasMutagen else {
            throw TestSupportError("python3-mutagen is not installed for \(python) (apt-get install python3-mutagen)")
        }
        let result = try Run.program(python, ["-c", "import sys\n" + script, argument])
        guard result.status == 0 else { throw TestSupportError("mutagen failed on \(argument): \(result.stderr)") }
    }

    /// Renames the sound track's `tref` box of the MP4 file at `url` to `free`, so its chapter track is named
    /// by nothing (FFmpeg writes `tref` only for that reference).
    private static func hideChapterTrack(_ url: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        /// The boxes directly inside `range`: type and payload range.
        func boxes(in range: Range<Int>) -> [(type: String, payload: Range<Int>)] {
            var found: [(String, Range<Int>)] = []
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                guard size >= 8, offset + size <= range.upperBound else { break }
                found.append(
                    (String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self), offset + 8..<offset + size))
                offset += size
            }
            return found
        }
        let traks = boxes(in: 0..<bytes.count).filter { $0.type == "moov" }.flatMap { boxes(in: $0.payload) }
        let tref = traks.filter { $0.type == "trak" }.flatMap { boxes(in: $0.payload) }.first { $0.type == "tref" }
        guard let tref else { throw TestSupportError("\(url.lastPathComponent) has no tref box") }
        bytes.replaceSubrange(tref.payload.lowerBound - 4..<tref.payload.lowerBound, with: Array("free".utf8))
        try Data(bytes).write(to: url)
    }
}
