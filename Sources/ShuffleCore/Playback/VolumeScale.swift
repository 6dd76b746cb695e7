/// The volume curve: integer steps from 0 (mute) to `steps` (full scale, unity gain), each step below the
/// top 2 dB quieter than the one above, and a cap that no request can exceed.
///
/// With the default 20 steps, step 20 is 0 dB, step 10 is −20 dB, step 1 is −38 dB and step 0 is silence.
/// 2 dB is about the smallest change a listener hears as "one click"; 20 of them span the useful range of a
/// small speaker or headphones.
public struct VolumeScale: Sendable, Equatable {
    /// The default number of steps above mute.
    public static let defaultSteps = 20
    /// The start volume when neither `--volume` nor a stored level says otherwise (−16 dB).
    public static let defaultStart = 12
    /// dB between neighbouring steps.
    public static let decibelsPerStep = 2.0
    /// 10^(−2/20): the gain ratio of one step.
    private static let stepRatio = 0.794_328_234_724_281_5

    /// The top step (unity gain).
    public let steps: Int
    /// The highest step allowed (`--max-volume`), at most `steps`.
    public let cap: Int

    /// Creates a scale; a cap outside 0…steps is clamped into it.
    public init(steps: Int = VolumeScale.defaultSteps, cap: Int? = nil) {
        self.steps = max(1, steps)
        self.cap = min(max(0, cap ?? self.steps), self.steps)
    }

    /// `step` brought into 0…cap.
    public func clamp(_ step: Int) -> Int { min(max(0, step), cap) }

    /// The linear gain of `step` (after clamping): 0 for mute, 1 at the top step.
    public func gain(_ step: Int) -> Double {
        let clamped = clamp(step)
        guard clamped > 0 else { return 0 }
        var gain = 1.0
        for _ in clamped..<steps { gain *= VolumeScale.stepRatio }
        return gain
    }

    /// The level of `step` in dB relative to full scale (nil for mute).
    public func decibels(_ step: Int) -> Double? {
        let clamped = clamp(step)
        return clamped > 0 ? -Double(steps - clamped) * VolumeScale.decibelsPerStep : nil
    }

    /// The step below which the voice is not quieter: speech follows the volume down to here, so a quiet
    /// box still says what it plays.
    public static let speechFloor = 8

    /// The gain of the voice at volume `step`: the step's gain, raised to `speechFloor`'s when lower, and
    /// never above the cap's.
    public func speechGain(_ step: Int) -> Double {
        min(gain(cap), max(gain(step), gain(VolumeScale.speechFloor)))
    }
}
