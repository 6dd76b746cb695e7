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

    /// Creates tag information.
    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil, albumArtist: String? = nil,
        track: Int? = nil, trackTotal: Int? = nil, disc: Int? = nil, discTotal: Int? = nil, year: Int? = nil,
        genre: String? = nil, replayGainTrack: Double? = nil, replayGainAlbum: Double? = nil,
        replayGainTrackPeak: Double? = nil
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
    }
}

/// The shape of the audio stream in a file, as far as can be told without decoding it.
public struct StreamInfo: Equatable, Hashable, Sendable {
    /// The codec, for example "mp3".
    public var codec: String
    /// Samples per second per channel.
    public var sampleRate: Int
    /// 1 (mono) or 2 (stereo).
    public var channels: Int
    /// PCM frames per channel a gapless decoder yields (encoder delay and padding removed when known).
    public var frames: Int64
    /// Duration in milliseconds (`frames * 1000 / sampleRate`, rounded down).
    public var durationMs: Int64 { sampleRate > 0 ? frames * 1000 / Int64(sampleRate) : 0 }
    /// Whether `frames` is estimated from the start of a stream too long to walk in full at probe time.
    public var isEstimate: Bool

    /// Creates stream information.
    public init(codec: String, sampleRate: Int, channels: Int, frames: Int64, isEstimate: Bool = false) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
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
