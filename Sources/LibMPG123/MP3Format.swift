/// The PCM shape a decoder hands out: signed 16-bit little-endian interleaved samples at the stream's own
/// rate and channel count (no resampling, no channel mixing).
public struct MP3Format: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second.
    public var sampleRate: Int
    /// 1 or 2.
    public var channels: Int

    /// Creates a format.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// "44100 Hz, 2 ch".
    public var description: String { "\(sampleRate) Hz, \(channels) ch" }
}

/// What one `MP3Decoder.read(into:)` call produced.
public enum MP3ReadResult: Sendable, Equatable {
    /// This many samples (not frames: frames × channels) were written to the front of the buffer.
    case samples(Int)
    /// The output format changes from here on (a stream whose later frames have another rate or channel
    /// count); no samples were produced by this call.
    case newFormat(MP3Format)
    /// The track ended; with gapless decoding the encoder padding has already been cut.
    case done
}
