/// What a file that is not a song is: the iPod's two kinds of spoken audio, kept out of the shuffle and
/// played in order, each book with its own bookmark.
public enum StoryKind: String, Sendable, Hashable, CaseIterable {
    /// A book read aloud, a radio play (MP4 `stik` 2, `.m4b`, a genre such as Audiobook or Hörbuch).
    case audiobook
    /// A podcast episode (MP4 `pcst`, `stik` 21, ID3 `PCST`, the genre Podcast).
    case podcast

    /// The genres (lowercased, spaces at either end ignored) that mark a story, in the languages a stick
    /// is likely to hold. "Speech" and "Spoken word" are not among them: comedy and poetry albums are
    /// music to a child's box, played shuffled.
    public static let genres: [String: StoryKind] = [
        "audiobook": .audiobook, "audiobooks": .audiobook, "audio book": .audiobook, "audio books": .audiobook,
        "hörbuch": .audiobook, "hörbücher": .audiobook, "hörspiel": .audiobook, "hörspiele": .audiobook,
        "kinderhörspiel": .audiobook, "kinderhörbuch": .audiobook, "livre audio": .audiobook,
        "livres audio": .audiobook, "audiolibro": .audiobook, "luisterboek": .audiobook, "hoorspel": .audiobook,
        "ljudbok": .audiobook, "lydbog": .audiobook, "lydbok": .audiobook, "äänikirja": .audiobook,
        "audiolivro": .audiobook, "audiokniha": .audiobook, "audiobook (children)": .audiobook,
        "podcast": .podcast, "podcasts": .podcast,
    ]

    /// The kind a genre names, or nil (a song's genre).
    public init?(genre: String?) {
        guard let genre else { return nil }
        var text = Substring(genre)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        guard let kind = Self.genres[text.lowercased()] else { return nil }
        self = kind
    }
}

/// One chapter inside a file: where it starts and its title, if it has one.
public struct Chapter: Equatable, Hashable, Sendable {
    /// The most chapters kept of one file: a 40-hour book in 2-minute chapters has 1,200; what a file claims
    /// beyond this is not read.
    public static let maxCount = 2_000
    /// The longest title kept, in bytes of UTF-8 (longer ones are cut at a character boundary).
    public static let maxTitleBytes = 256

    /// Where it starts, in milliseconds from the start of the file's audio.
    public var startMs: Int64
    /// Its title (nil: none, or empty).
    public var title: String?

    /// Creates a chapter.
    public init(startMs: Int64, title: String?) {
        self.startMs = startMs
        self.title = title
    }

    /// `chapters` as a player can use them: sorted by start, starts at or after 0 and before `durationMs`
    /// (when known, > 0), one per start, at most `maxCount`. A single chapter is no skip point and is dropped.
    public static func cleaned(_ chapters: [Chapter], durationMs: Int64?) -> [Chapter] {
        var result: [Chapter] = []
        for chapter in chapters.sorted(by: { $0.startMs < $1.startMs }) {
            guard chapter.startMs >= 0 else { continue }
            if let durationMs, durationMs > 0, chapter.startMs >= durationMs { continue }
            if let last = result.last, last.startMs == chapter.startMs { continue }
            result.append(chapter)
            if result.count == maxCount { break }
        }
        return result.count > 1 ? result : []
    }
}
