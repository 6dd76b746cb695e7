/// The shape of the audio an `FFmpegDecoder` hands out.
public struct FFmpegFormat: Sendable, Hashable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int
    /// Significant bits per sample: at most 16 means `read(into: [Int16])`, more `read(into: [Int32])`
    /// (left-justified).
    public var bitsPerSample: Int
    /// What is playing: "aac", "alac", "wav", "aiff" (from the codec and the container).
    public var name: String

    /// Creates a format.
    public init(sampleRate: Int, channels: Int, bitsPerSample: Int, name: String) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.name = name
    }
}
