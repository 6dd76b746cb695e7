import ShuffleCore

/// One file of a generated library, with what a correct indexer must find in it.
/// Empty fields and `-` are nil.
public struct ManifestRow: Equatable, Sendable {
    /// What a file is, as the generators classify it.
    public enum Kind: String, Sendable, CaseIterable {
        /// Playable audio an indexer must list.
        case track
        /// An audio-named file that does not decode to the full clip (zero bytes, text, tag only, cut short, noise).
        case broken
        /// Playable audio inside a hidden folder (`.Trashes/…`): must be skipped.
        case hidden
        /// A macOS `._name` resource-fork twin: audio-named, not audio.
        case appledouble
        /// An `.m3u`/`.m3u8` playlist.
        case playlist
        /// Anything else: covers, text, system files.
        case nonaudio
    }

    /// The path relative to the library root, as the file system holds it.
    public var path: PathBytes
    /// What the file is.
    public var kind: Kind
    /// `yes`/`no` for audio-named files, nil otherwise.
    public var broken: Bool?
    /// PCM frames per channel that libmpg123 decodes (gapless on); nil for broken and non-audio files.
    public var samples: Int64?
    /// Sample rate of the template clip.
    public var rate: Int?
    /// Channels of the template clip.
    public var channels: Int?
    /// "mp3" (or "flac" in the yardstick's libraries).
    public var codec: String?
    /// Which template clip the audio came from.
    public var clip: Int?
    /// The tag layout: id3v24, id3v23, id3v1, id3v23+v1, id3v24+v1, none (nil when no tag applies).
    public var tag: String?
    /// Expected title.
    public var title: String?
    /// Expected artist.
    public var artist: String?
    /// Expected album.
    public var album: String?
    /// Expected album artist.
    public var albumArtist: String?
    /// Expected track number.
    public var track: Int?
    /// Expected track total.
    public var trackTotal: Int?
    /// Expected disc number.
    public var disc: Int?
    /// Expected disc total.
    public var discTotal: Int?
    /// Expected year.
    public var year: Int?
    /// Expected genre (numeric ID3 genres already resolved to names).
    public var genre: String?
    /// Expected ReplayGain track gain in dB.
    public var rgTrackGain: Double?
    /// Bits per sample of a lossless track (`--formats all`).
    public var bits: Int?
    /// Frames the format's reference command-line decoder writes (`--formats all`).
    public var decoded: Int64?
    /// Expected ReplayGain album gain in dB.
    public var rgAlbumGain: Double?
    /// Expected ReplayGain track peak.
    public var rgTrackPeak: Double?
    /// Expected ReplayGain album peak.
    public var rgAlbumPeak: Double?
    /// Expected Opus header output gain in dB.
    public var headerGain: Double?
    /// A second artist value: searchable, not shown.
    public var artist2: String?
    /// A substring of the reason a broken file is unplayable for (`--formats all`).
    public var reason: String?
    /// The raw note column (comma-separated details such as `utf16,nfd-name`).
    public var note: String?

    /// The note column split at commas.
    public var notes: [String] { note.map { $0.split(separator: ",").map(String.init) } ?? [] }

    /// The tags as `TagInfo`, for comparing with what an indexer read.
    public var tags: TagInfo {
        TagInfo(
            title: title, artist: artist, album: album, albumArtist: albumArtist, track: track,
            trackTotal: trackTotal, disc: disc, discTotal: discTotal, year: year, genre: genre,
            replayGainTrack: rgTrackGain, replayGainAlbum: rgAlbumGain, replayGainTrackPeak: rgTrackPeak,
            replayGainAlbumPeak: rgAlbumPeak, headerGain: headerGain,
            moreValues: MoreTagValues(artists: artist2.map { [$0] } ?? []))
    }

    /// The stream shape as `StreamInfo`, when the file is playable audio.
    public var stream: StreamInfo? {
        guard let samples, let rate, let channels else { return nil }
        return StreamInfo(
            codec: codec ?? "mp3", sampleRate: rate, channels: channels, frames: samples, bitsPerSample: bits)
    }

    /// Creates a row.
    public init(path: PathBytes, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// Columns where `-` means "does not apply".
    private static let dashColumns: Set<String> = [
        "kind", "broken", "samples", "rate", "channels", "codec", "clip", "tag",
    ]

    /// Reads one manifest line; `columns` maps column names to field positions.
    init(fields: [String], columns: [String: Int], line: Int) throws {
        func text(_ name: String) throws -> String? {
            guard let index = columns[name], index < fields.count else { return nil }
            let raw = fields[index]
            // "-" means "does not apply" in the shape columns; in tag columns it would be a real value.
            if raw.isEmpty || (raw == "-" && Self.dashColumns.contains(name)) { return nil }
            return String(decoding: try ManifestEscapes.decode(raw, line: line), as: UTF8.self)
        }
        func number<T: FixedWidthInteger>(_ name: String) throws -> T? {
            guard let value = try text(name) else { return nil }
            guard let parsed = T(value) else {
                throw ManifestError(line: line, message: "column \(name): \"\(value)\" is not a number")
            }
            return parsed
        }
        guard let pathIndex = columns["path"], pathIndex < fields.count, !fields[pathIndex].isEmpty else {
            throw ManifestError(line: line, message: "no path")
        }
        let kindText = try text("kind") ?? ""
        guard let kind = Kind(rawValue: kindText) else {
            throw ManifestError(line: line, message: "unknown kind \"\(kindText)\"")
        }
        self.init(path: PathBytes(try ManifestEscapes.decode(fields[pathIndex], line: line)), kind: kind)
        switch try text("broken") {
        case "yes": broken = true
        case "no": broken = false
        default: broken = nil
        }
        let samplesText = try text("samples")
        samples = samplesText == "broken" ? nil : try number("samples")
        rate = try number("rate")
        channels = try number("channels")
        codec = try text("codec")
        clip = try number("clip")
        tag = try text("tag")
        title = try text("title")
        artist = try text("artist")
        album = try text("album")
        albumArtist = try text("albumartist")
        track = try number("track")
        trackTotal = try number("tracktotal")
        disc = try number("disc")
        discTotal = try number("disctotal")
        year = try number("year")
        genre = try text("genre")
        func gain(_ name: String) throws -> Double? {
            guard let gain = try text(name) else { return nil }
            let value = gain.hasSuffix("dB") ? String(gain.dropLast(2)).trimmingSpaces : gain
            guard let parsed = Double(value.hasPrefix("+") ? String(value.dropFirst()) : value) else {
                throw ManifestError(line: line, message: "column \(name): \"\(gain)\" is not a gain")
            }
            return parsed
        }
        rgTrackGain = try gain("rg_track_gain")
        rgAlbumGain = try gain("rg_album_gain")
        rgTrackPeak = try gain("rg_track_peak")
        rgAlbumPeak = try gain("rg_album_peak")
        headerGain = try gain("header_gain")
        bits = try number("bits")
        decoded = try number("decoded")
        artist2 = try text("artist2")
        reason = try text("reason")
        note = try text("note")
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
