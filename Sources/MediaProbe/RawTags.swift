import ShuffleCore

/// The text values one tag holds, before they are turned into numbers and names.
struct RawTags: Equatable {
    /// The fields a tag reader looks for.
    enum Field: Hashable, CaseIterable {
        case title, artist, album, albumArtist, track, disc, year, genre
        /// A release or original date, used when no recording year is given.
        case yearFallback
        case replayGainTrack, replayGainAlbum, replayGainTrackPeak
    }

    /// The first non-empty value seen for each field.
    private(set) var values: [Field: String] = [:]

    /// Whether no field was found.
    var isEmpty: Bool { values.isEmpty }

    /// Records `text` for `field` unless the field already has a value or the text is empty.
    mutating func offer(_ field: Field, _ text: String?) {
        guard values[field] == nil, let text, let cleaned = TagText.clean(text) else { return }
        values[field] = cleaned
    }

    /// The value of `field`, if any.
    subscript(field: Field) -> String? { values[field] }

    /// The values as tag information: "n/total" split, year from a date, numeric genres resolved
    /// (when `resolveGenre`), ReplayGain numbers parsed.
    func tagInfo(resolveGenre: Bool) -> TagInfo {
        var info = TagInfo()
        info.title = values[.title]
        info.artist = values[.artist]
        info.album = values[.album]
        info.albumArtist = values[.albumArtist]
        if let track = values[.track] { (info.track, info.trackTotal) = TagText.numberPair(track) }
        if let disc = values[.disc] { (info.disc, info.discTotal) = TagText.numberPair(disc) }
        info.year = values[.year].flatMap(TagText.year) ?? values[.yearFallback].flatMap(TagText.year)
        if let genre = values[.genre] { info.genre = resolveGenre ? Genres.resolve(genre) : genre }
        info.replayGainTrack = values[.replayGainTrack].flatMap(TagText.leadingDouble)
        info.replayGainAlbum = values[.replayGainAlbum].flatMap(TagText.leadingDouble)
        info.replayGainTrackPeak = values[.replayGainTrackPeak].flatMap(TagText.leadingDouble)
        return info
    }

    /// The field a ReplayGain key or TXXX description names (case-insensitive), if any.
    static func replayGainField(_ name: String) -> Field? {
        switch name.uppercased() {
        case "REPLAYGAIN_TRACK_GAIN": .replayGainTrack
        case "REPLAYGAIN_ALBUM_GAIN": .replayGainAlbum
        case "REPLAYGAIN_TRACK_PEAK": .replayGainTrackPeak
        default: nil
        }
    }
}

extension TagInfo {
    /// Fills every field still nil in `self` from `other` (so `self` takes precedence per field).
    func filling(from other: TagInfo) -> TagInfo {
        var out = self
        out.title = title ?? other.title
        out.artist = artist ?? other.artist
        out.album = album ?? other.album
        out.albumArtist = albumArtist ?? other.albumArtist
        out.track = track ?? other.track
        out.trackTotal = trackTotal ?? other.trackTotal
        out.disc = disc ?? other.disc
        out.discTotal = discTotal ?? other.discTotal
        out.year = year ?? other.year
        out.genre = genre ?? other.genre
        out.replayGainTrack = replayGainTrack ?? other.replayGainTrack
        out.replayGainAlbum = replayGainAlbum ?? other.replayGainAlbum
        out.replayGainTrackPeak = replayGainTrackPeak ?? other.replayGainTrackPeak
        return out
    }
}
