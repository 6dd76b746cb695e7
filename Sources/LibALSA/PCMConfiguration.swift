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

    /// Creates a configuration.
    public init(sampleRate: Int, channels: Int, periodFrames: Int, bufferFrames: Int, canPause: Bool) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.canPause = canPause
    }
}
