/// What a stick plays: its music (its stations), or one of its books (an index in its list of books).
public enum StoryTarget: Equatable, Sendable {
    /// The music.
    case music
    /// The book at this index.
    case book(Int)
}

/// What the story gestures choose, without I/O. `playing` is the book playing (nil: the music), `lastPlayed`
/// the book whose bookmark was stored last.
public enum StoryNavigation {
    /// `stories`: from the music, the book played last (the first when none was); from a book, the music.
    /// nil when there is no book to go to.
    public static func toggle(playing: Int?, lastPlayed: Int?, count: Int) -> StoryTarget? {
        guard count > 0 else { return nil }
        if playing != nil { return .music }
        guard let lastPlayed, (0..<count).contains(lastPlayed) else { return .book(0) }
        return .book(lastPlayed)
    }

    /// `next-story`, the one-button board's ring: music, then each book in turn, then the music again.
    /// From the music it goes to the book played last (the first when none was). nil when there is no book.
    public static func ring(playing: Int?, lastPlayed: Int?, count: Int) -> StoryTarget? {
        guard count > 0 else { return nil }
        guard let playing else { return toggle(playing: nil, lastPlayed: lastPlayed, count: count) }
        return playing + 1 < count ? .book(playing + 1) : .music
    }

    /// `next-station` and `previous-station` among the books (`step` +1 or −1), round the end.
    public static func step(from playing: Int, by step: Int, count: Int) -> Int {
        guard count > 0 else { return 0 }
        return ((playing + step) % count + count) % count
    }
}

/// Chapters as skip points inside one part: where `next` and `previous` seek to.
public enum ChapterSkip {
    /// How far into a chapter `previous` still goes back a chapter rather than to its start (the iPod rule,
    /// as for tracks: `PlayerMachine.previousWindowMs`).
    public static let previousWindowMs = PlayerMachine.previousWindowMs

    /// Where `next` seeks to: the start of the next chapter after `positionMs`; nil when there is none
    /// (the next part then plays).
    public static func next(_ chapters: [Chapter], at positionMs: Int64) -> Int64? {
        chapters.first { $0.startMs > positionMs + 500 }?.startMs
    }

    /// Where `previous` seeks to: the start of the chapter playing, or, in its first seconds, of the one before;
    /// nil when in the first seconds of the first chapter (or of a part without chapters): the previous part
    /// then plays, by the track rule.
    public static func previous(_ chapters: [Chapter], at positionMs: Int64) -> Int64? {
        guard let index = chapters.lastIndex(where: { $0.startMs <= positionMs }) else { return nil }
        if positionMs - chapters[index].startMs >= previousWindowMs { return chapters[index].startMs }
        if index > 0 { return chapters[index - 1].startMs }
        // The first seconds of the first chapter: a chapter starting after 0 leaves a lead-in to go back to.
        return chapters[index].startMs > 0 ? 0 : nil
    }

    /// The chapter playing at `positionMs` (its index), nil when none has started.
    public static func current(_ chapters: [Chapter], at positionMs: Int64) -> Int? {
        chapters.lastIndex { $0.startMs <= positionMs }
    }
}
