/// The shape of a FLAC stream, from its STREAMINFO block.
public struct FLACFormat: Sendable, Hashable {
    /// Frames per second.
    public var sampleRate: Int
    /// 1 to 8.
    public var channels: Int
    /// 4 to 32 significant bits per sample.
    public var bitsPerSample: Int
    /// Frames in the whole stream, when STREAMINFO says (0: unknown).
    public var totalFrames: Int

    /// Creates a format.
    public init(sampleRate: Int, channels: Int, bitsPerSample: Int, totalFrames: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.totalFrames = totalFrames
    }
}

/// Facts about the libFLAC this was built against.
public enum FLACLibrary {
    /// The library's version string ("1.4.2"). Wraps `FLAC__VERSION_STRING`.
    public static var version: String { FLACDecoder.versionString }
}
