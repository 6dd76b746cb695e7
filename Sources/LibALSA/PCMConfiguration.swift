/// What a PCM device agreed to after `PCMDevice.configure`.
public struct PCMConfiguration: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int
    /// Frames per period (the unit the device wakes the writer for).
    public var periodFrames: Int
    /// Frames the device buffers in all.
    public var bufferFrames: Int
    /// Whether the hardware can pause in place (`snd_pcm_hw_params_can_pause`).
    public var canPause: Bool
    /// The sample format.
    public var format: PCMSampleFormat

    /// Creates a configuration.
    public init(
        sampleRate: Int, channels: Int, periodFrames: Int, bufferFrames: Int, canPause: Bool,
        format: PCMSampleFormat = .s16
    ) {
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.canPause = canPause
    }
}

/// The sample formats the player writes: little-endian signed integers, interleaved.
public enum PCMSampleFormat: String, Sendable, Hashable, CaseIterable {
    /// `S16_LE`: 16 bits in 2 bytes.
    case s16 = "S16_LE"
    /// `S32_LE`: 32 bits in 4 bytes (a 24-bit source fills the top 24).
    case s32 = "S32_LE"
    /// `S24_LE`: 24 bits in the low three bytes of 4 (what many I2S DACs take).
    case s24 = "S24_LE"

    /// Bytes one sample takes in the buffer.
    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
}
