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
///
/// With python3-mutagen besides (`hasFlaggedFiles`), the files `StoryFixtures` makes, which only what the
/// files say of themselves makes stories (or, for the chapters, a genre with them):
///
///     Chaptered book.m4b                                  an .m4b with three chapters (FFmpeg's track and chpl)
///     Chapters.mp3                                        an MP3 with CHAP and CTOC frames, genre Audiobook
///     Podcasts/Episode 1.m4a, Podcasts/Episode 2.mp3      podcast-flagged (pcst and stik 21; PCST), no genre
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
    /// The one-file books with chapters.
    public static let chapteredBook = "Chaptered book.m4b"
    /// An MP3 book with `CHAP`/`CTOC` chapters (its genre makes it a story).
    public static let chapteredMP3 = "Chapters.mp3"
    /// The chapter titles of both.
    public static let chapterTitles = ["Opening", "Middle", "End"]
    /// Podcast episodes, told apart by their flags only.
    public static let podcasts = ["Podcasts/Episode 1.m4a", "Podcasts/Episode 2.mp3"]
    /// Whether the files that need mutagen are made too.
    public static var hasFlaggedFiles: Bool { StoryFixtures.missingTool == nil }
    /// The stories a genre or a name says are stories (known without reading the files' flags).
    public static var genreStories: [String] {
        parts + [wholeBook] + (hasFlaggedFiles ? [chapteredBook, chapteredMP3] : [])
    }
    /// Every story file.
    public static var stories: [String] { parts + [wholeBook] + marked + (hasFlaggedFiles ? flagged : []) }
    /// The files made with `StoryFixtures`.
    static var flagged: [String] { [chapteredBook, chapteredMP3] + podcasts }

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
        if hasFlaggedFiles {
            let url = { (path: String) in root.appendingPathComponent(path) }
            try StoryFixtures.m4bBook(
                at: url(chapteredBook), chapters: chapterTitles, secondsPerChapter: seconds, title: "Chaptered")
            try StoryFixtures.mp3WithChapters(
                at: url(chapteredMP3), chapters: chapterTitles, secondsPerChapter: seconds, title: "Chapters",
                genre: "Audiobook")
            try FileManager.default.createDirectory(at: url("Podcasts"), withIntermediateDirectories: true)
            try StoryFixtures.podcast(at: url(podcasts[0]), format: .m4a, title: "Episode 1", seconds: seconds)
            try StoryFixtures.podcast(at: url(podcasts[1]), format: .mp3, title: "Episode 2", seconds: seconds)
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
