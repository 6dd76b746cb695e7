/// The decoding port of the audio thread: one adapter per decoding library (libmpg123, libFLAC,
/// libvorbisfile, libopusfile, libsndfile, FFmpeg) conforms, and the loop sees only this.
///
/// It lives in Playback, not ShuffleCore: its values are sample buffers and PCM shapes that only the audio
/// thread handles, and ShuffleCore stays free of audio types (the library side knows a track's format only
/// as a name and numbers in `StreamInfo`). Adapters are classes owned by the audio thread alone; one of each
/// kind is made when first needed and reused for every file of that kind.
protocol TrackDecoder: AnyObject {
    /// Opens `path` (closing whatever was open) and returns the shape of its audio.
    func open(path: [UInt8]) throws(DecodeFailure) -> StreamFormat
    /// Decodes up to `buffer.capacityFrames` frames into the front of `buffer.narrow` (16-bit formats) or
    /// `buffer.wide` (deeper ones, left-justified); never resizes the buffer.
    func read(into buffer: inout SampleBuffer) throws(DecodeFailure) -> DecodeStep
    /// Moves to `frame` (per channel) from the start of the track; returns the frame the next read starts at.
    func seek(toFrame frame: Int) throws(DecodeFailure) -> Int
    /// Closes the open file, if any.
    func close()
}

/// The PCM a decoder hands out: interleaved signed integers at the file's own rate, channel count and depth.
struct StreamFormat: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second.
    var sampleRate: Int
    /// Interleaved channels.
    var channels: Int
    /// Significant bits per sample. At most 16: the samples are `Int16`; more: left-justified `Int32`
    /// (a 24-bit sample in the top 24 bits).
    var bitsPerSample: Int

    /// Whether the samples travel as 32-bit words.
    var isWide: Bool { bitsPerSample > 16 }

    /// "44100 Hz, 2 ch, 24-bit".
    var description: String { "\(sampleRate) Hz, \(channels) ch, \(bitsPerSample)-bit" }
}

/// What one read produced.
enum DecodeStep: Sendable, Equatable {
    /// This many frames (per channel) are at the front of the buffer.
    case frames(Int)
    /// The stream has another shape from here on; nothing was read.
    case newFormat(StreamFormat)
    /// The track ended (encoder delay and padding already cut where the format says).
    case done
}

/// One period of samples, reused read after read: only the array the current format uses is sized.
struct SampleBuffer {
    /// 16-bit samples, interleaved.
    var narrow: [Int16] = []
    /// 32-bit left-justified samples, interleaved.
    var wide: [Int32] = []
    /// Frames one read may fill.
    private(set) var capacityFrames = 0

    /// Sizes the buffer for `frames` frames of `format` (allocates only when that needs more room).
    mutating func reserve(frames: Int, for format: StreamFormat) {
        capacityFrames = frames
        let samples = frames * format.channels
        if format.isWide {
            if wide.count < samples { wide = [Int32](repeating: 0, count: samples) }
        } else if narrow.count < samples {
            narrow = [Int16](repeating: 0, count: samples)
        }
    }
}

/// Why a file could not be decoded: a sentence naming the library call and the file, and the `errno` when
/// the file could not be read (as opposed to holding no audio we can play).
struct DecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence.
    var description: String
    /// The `errno` of a failed open or read of the medium, else nil.
    var systemError: Int32?

    /// What the player does about it.
    var cause: TrackFailure { systemError.map { .unreadable(errno: $0) } ?? .noAudio }
}
