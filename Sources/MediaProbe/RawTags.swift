import ShuffleCore

/// The text values one tag holds, before they are turned into numbers and names.
struct RawTags: Equatable {
    /// The fields a tag reader looks for.
    enum Field: Hashable, CaseIterable {
        case title, artist, album, albumArtist, track, disc, year, genre
        /// A release or original date, used when no recording year is given.
        case yearFallback
        case replayGainTrack, replayGainAlbum, replayGainTrackPeak, replayGainAlbumPeak
        /// Totals given apart from the number (Vorbis `TRACKTOTAL`, `DISCTOTAL`).
        case trackTotal, discTotal
        /// Opus `R128_TRACK_GAIN` / `R128_ALBUM_GAIN`: Q7.8 fixed point dB, relative to -23 LUFS.
        case r128Track, r128Album
    }

    /// The first non-empty value seen for each field.
    private(set) var values: [Field: String] = [:]
    /// Later distinct values of the searchable text fields (title, artist, album, album artist).
    private(set) var more: [Field: [String]] = [:]
    /// How many later values are kept per field (a tag may repeat a field thousands of times).
    static let maxMoreValues = 16
    /// What the tag says the file is when it is not a song (MP4 `stik` and `pcst`, ID3 `PCST`).
    var story: StoryKind?
    /// The chapters the tag marks (ID3v2 `CHAP`), in the tag's order, not yet cleaned.
    var chapters: [Chapter] = []

    /// Whether no field was found.
    var isEmpty: Bool { values.isEmpty }

    /// Records `text` for `field` unless the field already has a value or the text is empty.
    mutating func offer(_ field: Field, _ text: String?) {
        guard let text, let cleaned = TagText.clean(text) else { return }
        guard let first = values[field] else {
            values[field] = cleaned
            return
        }
        switch field {
        case .title, .artist, .album, .albumArtist:
            var list = more[field] ?? []
            guard cleaned != first, list.count < Self.maxMoreValues, !list.contains(cleaned) else { return }
            list.append(cleaned)
            more[field] = list
        default: return
        }
    }

    /// Records every value of a multi-valued frame or item: the first for display, the rest for search.
    mutating func offer(_ field: Field, all texts: [String]) {
        for text in texts { offer(field, text) }
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
        if info.trackTotal == nil { info.trackTotal = values[.trackTotal].flatMap(Self.positive) }
        if info.discTotal == nil { info.discTotal = values[.discTotal].flatMap(Self.positive) }
        info.year = values[.year].flatMap(TagText.year) ?? values[.yearFallback].flatMap(TagText.year)
        if let genre = values[.genre] { info.genre = resolveGenre ? Genres.resolve(genre) : genre }
        info.replayGainTrack = values[.replayGainTrack].flatMap(TagText.leadingDouble)
        info.replayGainAlbum = values[.replayGainAlbum].flatMap(TagText.leadingDouble)
        info.replayGainTrackPeak = values[.replayGainTrackPeak].flatMap(TagText.leadingDouble)
        info.replayGainAlbumPeak = values[.replayGainAlbumPeak].flatMap(TagText.leadingDouble)
        if info.replayGainTrack == nil { info.replayGainTrack = values[.r128Track].flatMap(Self.r128ToReplayGain) }
        if info.replayGainAlbum == nil { info.replayGainAlbum = values[.r128Album].flatMap(Self.r128ToReplayGain) }
        info.story = story
        info.chapters = chapters
        info.moreValues = MoreTagValues(
            titles: more[.title] ?? [], artists: more[.artist] ?? [], albums: more[.album] ?? [],
            albumArtists: more[.albumArtist] ?? [])
        return info
    }

    /// A positive integer at the start of `text`.
    private static func positive(_ text: String) -> Int? {
        guard let value = TagText.leadingInt(text), value > 0 else { return nil }
        return value
    }

    /// An Opus `R128_*_GAIN` value as a ReplayGain gain in dB.
    ///
    /// RFC 7845 §5.2.1: the value is a signed decimal integer of Q7.8 fixed point dB (value / 256 dB) that
    /// brings the track (or album) to -23 LUFS (EBU R128), on top of the header's output gain, which
    /// opusfile applies while decoding. ReplayGain 2 aims at -18 LUFS, 5 dB louder, so the ReplayGain gain
    /// of the decoded signal is `value / 256 + 5` dB. Values outside Int16 are not Q7.8 and are ignored.
    static func r128ToReplayGain(_ text: String) -> Double? {
        var digits = Substring(text).drop { $0 == " " }
        var sign = 1
        if let first = digits.first, first == "-" || first == "+" {
            if first == "-" { sign = -1 }
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let magnitude = Int(digits), magnitude <= 32768
        else { return nil }
        let value = sign * magnitude
        guard value >= -32768, value <= 32767 else { return nil }
        return Double(value) / 256 + 5
    }

    /// The field a ReplayGain key or TXXX description names (case-insensitive), if any.
    static func replayGainField(_ name: String) -> Field? {
        switch name.uppercased() {
        case "REPLAYGAIN_TRACK_GAIN": .replayGainTrack
        case "REPLAYGAIN_ALBUM_GAIN": .replayGainAlbum
        case "REPLAYGAIN_TRACK_PEAK": .replayGainTrackPeak
        case "REPLAYGAIN_ALBUM_PEAK": .replayGainAlbumPeak
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
        out.replayGainAlbumPeak = replayGainAlbumPeak ?? other.replayGainAlbumPeak
        out.headerGain = headerGain ?? other.headerGain
        if out.moreValues.isEmpty { out.moreValues = other.moreValues }
        out.story = story ?? other.story
        if out.chapters.isEmpty { out.chapters = other.chapters }
        return out
    }
}
