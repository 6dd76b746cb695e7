/// What the tags of one audio file say, as a correct reader sees them. Absent fields are nil.
public struct TagInfo: Equatable, Hashable, Sendable {
    /// Track title.
    public var title: String?
    /// Track artist.
    public var artist: String?
    /// Album title.
    public var album: String?
    /// Album artist (`TPE2`, `ALBUMARTIST`).
    public var albumArtist: String?
    /// Track number within the disc (from "n" or "n/total").
    public var track: Int?
    /// Tracks on the disc (from "n/total").
    public var trackTotal: Int?
    /// Disc number.
    public var disc: Int?
    /// Discs in the set.
    public var discTotal: Int?
    /// Year of release (the first four digits of a date).
    public var year: Int?
    /// Genre name, with ID3 numeric genres such as "(17)" resolved to "Rock".
    public var genre: String?
    /// ReplayGain track gain in dB.
    public var replayGainTrack: Double?
    /// ReplayGain album gain in dB.
    public var replayGainAlbum: Double?
    /// ReplayGain track peak (1.0 = full scale).
    public var replayGainTrackPeak: Double?
    /// ReplayGain album peak (1.0 = full scale).
    public var replayGainAlbumPeak: Double?
    /// The gain in dB an Opus file's header (`OpusHead` output gain) asks the decoder to apply; opusfile
    /// applies it while decoding, so the ReplayGain values above are relative to the decoded signal. nil for
    /// other formats and for a gain of 0.
    public var headerGain: Double?
    /// The values of multi-valued fields after the first (a second `ARTIST=` comment, an ID3v2.4 list): the
    /// first value is the one shown; every value is searchable.
    public var moreValues = MoreTagValues()
    /// What the file says it is when it is not a song: an audiobook or a podcast (MP4's `stik` and `pcst`,
    /// ID3's `PCST`, a story genre; `StoryKind`). nil: a song, as far as its tags tell.
    public var story: StoryKind?
    /// The chapters the file marks inside itself (MP4 `chpl` or a QuickTime chapter track, ID3v2
    /// `CHAP`/`CTOC`), in start order, at most `Chapter.maxCount`. Empty: none.
    public var chapters: [Chapter] = []

    /// Creates tag information.
    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil, albumArtist: String? = nil,
        track: Int? = nil, trackTotal: Int? = nil, disc: Int? = nil, discTotal: Int? = nil, year: Int? = nil,
        genre: String? = nil, replayGainTrack: Double? = nil, replayGainAlbum: Double? = nil,
        replayGainTrackPeak: Double? = nil, replayGainAlbumPeak: Double? = nil, headerGain: Double? = nil,
        moreValues: MoreTagValues = MoreTagValues()
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.track = track
        self.trackTotal = trackTotal
        self.disc = disc
        self.discTotal = discTotal
        self.year = year
        self.genre = genre
        self.replayGainTrack = replayGainTrack
        self.replayGainAlbum = replayGainAlbum
        self.replayGainTrackPeak = replayGainTrackPeak
        self.replayGainAlbumPeak = replayGainAlbumPeak
        self.headerGain = headerGain
        self.moreValues = moreValues
    }
}

/// The second and later values of the multi-valued text fields that search covers.
public struct MoreTagValues: Equatable, Hashable, Sendable {
    /// Further titles.
    public var titles: [String]
    /// Further artists.
    public var artists: [String]
    /// Further album titles.
    public var albums: [String]
    /// Further album artists.
    public var albumArtists: [String]

    /// Creates the lists (all empty by default).
    public init(titles: [String] = [], artists: [String] = [], albums: [String] = [], albumArtists: [String] = []) {
        self.titles = titles
        self.artists = artists
        self.albums = albums
        self.albumArtists = albumArtists
    }

    /// Whether every list is empty.
    public var isEmpty: Bool { titles.isEmpty && artists.isEmpty && albums.isEmpty && albumArtists.isEmpty }
}

/// The shape of the audio stream in a file, as far as can be told without decoding it.
public struct StreamInfo: Equatable, Hashable, Sendable {
    /// The format: `mp3`, `flac`, `vorbis`, `opus`, `aac`, `alac`, `wav` or `aiff`.
    public var codec: String
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Channels (1 mono, 2 stereo, more for multichannel files).
    public var channels: Int
    /// Bits per sample of a lossless stream (16, 24, ...); nil for lossy formats, whose decoders choose.
    public var bitsPerSample: Int?
    /// PCM frames per channel a gapless decoder yields (encoder delay and padding removed when known).
    public var frames: Int64
    /// Duration in milliseconds (`frames * 1000 / sampleRate`, rounded down).
    public var durationMs: Int64 { sampleRate > 0 ? frames * 1000 / Int64(sampleRate) : 0 }
    /// The shape as MPD's `Format` says it: `rate:bits:channels`, bits `f` (float) for the lossy formats
    /// other than MP3, which libmpg123 decodes to 16 bits.
    public var mpdFormat: String {
        let bits = bitsPerSample.map(String.init) ?? (codec == "mp3" ? "16" : "f")
        return "\(sampleRate):\(bits):\(channels)"
    }
    /// Whether `frames` is estimated from the start of a stream too long to walk in full at probe time.
    public var isEstimate: Bool

    /// Creates stream information.
    public init(
        codec: String, sampleRate: Int, channels: Int, frames: Int64, isEstimate: Bool = false,
        bitsPerSample: Int? = nil
    ) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.frames = frames
        self.isEstimate = isEstimate
    }
}

/// What probing one file found.
public enum ProbeOutcome: Equatable, Sendable {
    /// Playable audio with its tags and stream shape.
    case audio(TagInfo, StreamInfo)
    /// The file looks meant as audio (audio extension, or audio-like content) but cannot be played;
    /// the reason is short and for a person ("zero-byte file", "no MPEG audio frames after the ID3 tag").
    case unplayable(reason: String)
    /// Not audio at all (a picture, a text file): the library ignores it.
    case notAudio
}
