import Foundation

/// A stick with songs and stories, made of real files by FFmpeg (`libmp3lame`, `aac`): what the story tests
/// index, list and play. Stories here are told apart by what needs no story flag: a story genre, the `.m4b`
/// extension, and a folder `shufflebox.txt` marks (`stories = Marked`).
///
///     Songs/Pop A.mp3, Songs/Pop B.mp3, Songs/Pop C.mp3   songs (genre Pop)
///     Loose song.mp3                                      a song at the root
///     Gruffalo/1.mp3 … Gruffalo/12.mp3                    one book, genre Audiobook, no track tags
///     Whole book.m4b                                      a book of its own (AAC in MP4)
///     Marked/Intro.mp3, Marked/Chapter 2.mp3              a marked folder's book (no story tags)
///     Beside/Song beside.mp3                              a song in a folder beside the books
public enum StoryStick {
    /// The songs, by relative path.
    public static let songs = [
        "Songs/Pop A.mp3", "Songs/Pop B.mp3", "Songs/Pop C.mp3", "Loose song.mp3", "Beside/Song beside.mp3",
    ]
    /// The twelve parts of the genre-tagged book, in order.
    public static let parts = (1...12).map { "Gruffalo/\($0).mp3" }
    /// The one-file book.
    public static let wholeBook = "Whole book.m4b"
    /// The marked folder's files, in order.
    public static let marked = ["Marked/Intro.mp3", "Marked/Chapter 2.mp3"]
    /// Every story file.
    public static var stories: [String] { parts + [wholeBook] + marked }

    /// Whether FFmpeg is installed.
    public static var isAvailable: Bool { ExternalTool.find("ffmpeg") != nil }

    /// Makes the stick at `root` (created), with `shufflebox.txt` marking `Marked` unless `markFolder` is false.
    public static func make(at root: URL, seconds: Double = 0.3, markFolder: Bool = true) throws {
        for (index, path) in songs.enumerated() {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            try make(
                root.appendingPathComponent(path), seconds: seconds, frequency: 330 + 20 * index,
                tags: ["title": name, "artist": "Band", "album": "Hits", "genre": "Pop"])
        }
        for (index, path) in parts.enumerated() {
            try make(
                root.appendingPathComponent(path), seconds: seconds, frequency: 500 + 10 * index,
                tags: ["title": "Part \(index + 1)", "artist": "Reader", "album": "The Gruffalo", "genre": "Audiobook"])
        }
        try make(
            root.appendingPathComponent(wholeBook), seconds: seconds, frequency: 700,
            tags: ["title": "A whole book", "artist": "Reader"], mp4: true)
        for (index, path) in marked.enumerated() {
            try make(
                root.appendingPathComponent(path), seconds: seconds, frequency: 800 + 10 * index,
                tags: ["title": "Marked \(index + 1)", "artist": "Teller"])
        }
        if markFolder {
            try Data("# stories of this stick\nstories = Marked\n".utf8)
                .write(to: root.appendingPathComponent("shufflebox.txt"))
        }
    }

    /// Makes one file of a sine tone with `tags`: MP3 (libmp3lame), or AAC in MP4 when `mp4`.
    public static func make(
        _ file: URL, seconds: Double, frequency: Int, tags: [String: String], mp4: Bool = false
    ) throws {
        guard let ffmpeg = ExternalTool.find("ffmpeg") else {
            throw TestSupportError("ffmpeg is not installed (apt-get install ffmpeg)")
        }
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var arguments = [
            "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=frequency=\(frequency):duration=\(seconds)",
            "-ac", "2", "-ar", "44100",
        ]
        arguments += mp4 ? ["-c:a", "aac", "-f", "ipod"] : ["-c:a", "libmp3lame", "-b:a", "64k"]
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
        let result = try Run.program(ffmpeg, arguments + [file.path])
        guard result.status == 0 else {
            throw TestSupportError("ffmpeg could not make \(file.path): \(result.stderr)")
        }
    }
}
