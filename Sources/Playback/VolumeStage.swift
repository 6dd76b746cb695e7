/// The software volume: multiplies samples by a gain that moves to a new value along a straight ramp over
/// `rampMilliseconds`, so a change never makes a click. Lives on the audio thread; never allocates.
///
/// Gain is fixed point with 24 fraction bits. At unity gain with no ramp under way, samples pass untouched
/// (bit-exact), so full volume costs nothing. The gain is the volume times the track's loudness gain, so it
/// may exceed 1 (a quiet track raised, `LoudnessGain`), up to `maximumGain`; above 1 every sample saturates
/// at full scale instead of wrapping, should a track's stated peak be wrong.
public struct VolumeStage: Sendable {
    /// The length of a ramp.
    public static let rampMilliseconds = 5
    /// The largest gain (+12 dB, `LoudnessSettings.maximumBoost`): what the fixed-point products have room for.
    public static let maximumGain = 4.0
    private static let unity = 1 << 24

    private var gain: Int
    private var target: Int
    private var step = 0
    private var remaining = 0
    private var rampFrames: Int

    /// Creates a stage at `gain` (linear, 0…1) for `sampleRate`.
    public init(gain: Double, sampleRate: Int) {
        self.gain = VolumeStage.fixed(gain)
        target = self.gain
        rampFrames = max(1, sampleRate * VolumeStage.rampMilliseconds / 1000)
    }

    /// The gain now (linear).
    public var currentGain: Double { Double(gain) / Double(VolumeStage.unity) }

    /// Frames a full ramp takes at the current rate.
    public var framesPerRamp: Int { rampFrames }

    /// Changes the sample rate the ramp length is counted in.
    public mutating func setSampleRate(_ sampleRate: Int) {
        rampFrames = max(1, sampleRate * VolumeStage.rampMilliseconds / 1000)
    }

    /// Moves to `newGain` (linear, clamped to 0…`maximumGain`): along a ramp when `ramp`, else at once.
    public mutating func setGain(_ newGain: Double, ramp: Bool) {
        target = VolumeStage.fixed(newGain)
        if ramp && target != gain {
            remaining = rampFrames
            step = (target - gain) / rampFrames
        } else {
            gain = target
            remaining = 0
        }
    }

    /// Applies the gain in place to the first `frames` frames of interleaved `samples`.
    public mutating func apply(to samples: inout [Int16], frames: Int, channels: Int) {
        if remaining == 0 && gain == VolumeStage.unity { return }
        if remaining == 0 && gain > VolumeStage.unity {
            // Steady gain above 1: Q13 keeps sample × gain within 32 bits (2^15 · 2^15); saturate at full scale.
            let g = Int32(gain >> 11)
            samples.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<(frames * channels) {
                    let product = (Int32(buffer[index]) &* g) >> 13
                    buffer[index] = Int16(min(max(product, Int32(Int16.min)), Int32(Int16.max)))
                }
            }
            return
        }
        if remaining == 0 {
            // Steady gain: a tight loop in 32-bit Q15 that the compiler vectorises.
            let g = Int32(gain >> 9)
            samples.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<(frames * channels) {
                    buffer[index] = Int16(truncatingIfNeeded: (Int32(buffer[index]) &* g) >> 15)
                }
            }
            return
        }
        samples.withUnsafeMutableBufferPointer { buffer in ramp(buffer, frames: frames, channels: channels) }
    }

    /// Applies the gain in place to the first `frames` frames of interleaved 32-bit samples (left-justified:
    /// a 24-bit sample keeps its 24 bits, and the product keeps 32, so lowering the volume loses nothing of a
    /// 24-bit source). Bit-exact at unity gain.
    public mutating func apply(to samples: inout [Int32], frames: Int, channels: Int) {
        if remaining == 0 && gain == VolumeStage.unity { return }
        if remaining == 0 && gain > VolumeStage.unity {
            let g = Int64(gain)
            samples.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<(frames * channels) {
                    let product = (Int64(buffer[index]) &* g) >> 24
                    buffer[index] = Int32(min(max(product, Int64(Int32.min)), Int64(Int32.max)))
                }
            }
            return
        }
        if remaining == 0 {
            let g = Int64(gain)
            samples.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<(frames * channels) {
                    buffer[index] = Int32(truncatingIfNeeded: (Int64(buffer[index]) &* g) >> 24)
                }
            }
            return
        }
        samples.withUnsafeMutableBufferPointer { buffer in ramp(buffer, frames: frames, channels: channels) }
    }

    /// Applies the gain along the ramp under way, one step per frame (in 64-bit arithmetic: `Int` here),
    /// saturating at full scale.
    private mutating func ramp<Sample: FixedWidthInteger>(
        _ buffer: UnsafeMutableBufferPointer<Sample>, frames: Int, channels: Int
    ) {
        var index = 0
        for _ in 0..<frames {
            if remaining > 0 {
                remaining -= 1
                gain = remaining == 0 ? target : gain + step
            }
            let g = gain
            for _ in 0..<channels {
                let product = (Int(buffer[index]) &* g) >> 24
                buffer[index] = Sample(min(max(product, Int(Sample.min)), Int(Sample.max)))
                index += 1
            }
        }
    }

    private static func fixed(_ gain: Double) -> Int {
        Int((min(max(gain, 0), maximumGain) * Double(unity)).rounded())
    }
}
