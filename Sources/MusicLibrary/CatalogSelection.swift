import ShuffleCore

/// What a `VolumeCatalog` plays of its volume.
public enum CatalogSelection: Equatable, Sendable {
    /// The stick's music: every playable track that is not a story, and not under a folder the rules mark.
    /// Its resume point is the whole stick's.
    case music(StoryRules)
    /// A station. An ordinary one plays the songs its search picks (stories left out, as in `music`); a story
    /// station (`Station.isStory`) everything it picks. Its resume point is kept under its name; a station
    /// with an empty search is the stick's music.
    case station(Station, StoryRules)
    /// A book: its parts that play, in book order (`shuffleGroups()` ranks them so, for the `in-order` mode),
    /// and its bookmark under `Book.bookmarkKey`. `fromStart` (its folder is `from-start` in the stick's
    /// rules): the bookmark is saved but never loaded, so it starts from the beginning every time.
    case book(Book, fromStart: Bool = false)

    /// The key of its resume point in `station_playback` (nil: the whole stick's, in `playback`).
    var resumeKey: String? {
        switch self {
        case .music: nil
        case .station(let station, _): station.search.isEmpty && !station.isStory ? nil : station.name
        case .book(let book, _): book.bookmarkKey
        }
    }

    /// A station with an empty search is the stick's music (the whole stick, as before stations had rules).
    var normalised: CatalogSelection {
        if case .station(let station, let rules) = self, station.search.isEmpty, !station.isStory {
            return .music(rules)
        }
        return self
    }
}
