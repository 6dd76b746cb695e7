internal import Glibc

/// Speech over the music, in the audio thread: the music ducks along a short ramp, the phrase is added
/// on top at its own gain, and the music comes back along a longer ramp once the phrase is done. Owned by
/// the audio thread; allocates only when a phrase starts.
///
/// A phrase is 16-bit mono at its own rate (espeak-ng's 22,050 Hz); it is brought to the device's rate and
/// channels here by linear interpolation. Speech has nothing above 11 kHz worth keeping and is heard at
/// well below the music's level, so a resampling library would buy nothing audible for this one job.
///
/// Levels: the phrase's gain is the music's volume, raised to `floor` when the volume is lower (so a
/// quiet box still says what it plays) and never above `cap`, the gain of the volume cap.
public struct SpeechMix: Sendable {
    /// The ramp down before the phrase.
    public static let duckMilliseconds = 60
    /// The ramp back up after it.
    public static let restoreMilliseconds = 250

    private var clip: [Int16] = []
    /// The rate of the phrase under way (or the last one).
    public private(set) var clipRate = 22_050
    /// The read position in `clip`, in clip samples, as 32.32 fixed point.
    private var position: UInt64 = 0
    private var step: UInt64 = 0
    private var speaking = false
    /// The music's gain now and where it is heading, as 0…1 in Q24.
    private var duck = unity
    private var duckTarget = unity
    private var duckStep = 0
    private var ducked: Int
    private var speechGain = 0
    private var rate = 44_100
    private static let unity = 1 << 24

    /// Creates a mix that ducks the music by `duckDecibels` (negative) while speaking.
    public init(duckDecibels: Double = -15) {
        ducked = Self.fixed(Self.linear(duckDecibels))
    }

    /// Whether a phrase is playing or the music is still coming back from one.
    public var isActive: Bool { speaking || duck != Self.unity }
    /// Whether a phrase is playing.
    public var isSpeaking: Bool { speaking }

    /// Starts `samples` (mono, `sampleRate`) at `gain` (linear), cutting off a phrase under way.
    public mutating func start(_ samples: [Int16], sampleRate: Int, gain: Double) {
        clip = samples
        clipRate = max(1, sampleRate)
        position = 0
        speaking = !samples.isEmpty
        speechGain = Self.fixed(gain)
        step = (UInt64(clipRate) << 32) / UInt64(max(1, rate))
        head(to: speaking ? ducked : Self.unity, milliseconds: Self.duckMilliseconds)
    }

    /// Stops the phrase; the music comes back.
    public mutating func stop() {
        guard speaking else { return }
        speaking = false
        clip = []
        head(to: Self.unity, milliseconds: Self.restoreMilliseconds)
    }

    /// Sets the device's rate the mix is written at.
    public mutating func setSampleRate(_ sampleRate: Int) {
        rate = max(1, sampleRate)
        step = (UInt64(clipRate) << 32) / UInt64(rate)
    }

    /// Mixes into the first `frames` frames of interleaved `samples` (full scale at `bits`, e.g. 16 for
    /// Int16, 32 for S32): music times the duck gain, plus the phrase. Returns true when the phrase ended
    /// within these frames.
    public mutating func mix<Sample: FixedWidthInteger & SignedInteger>(
        into samples: inout [Sample], frames: Int, channels: Int, bits: Int = Sample.bitWidth
    ) -> Bool {
        guard isActive else { return false }
        let shift = bits - 16
        let lowest = Int64(Sample.min) >> (Sample.bitWidth - bits)
        let highest = Int64(Sample.max) >> (Sample.bitWidth - bits)
        var ended = false
        samples.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            for _ in 0..<min(frames, buffer.count / max(1, channels)) {
                if duckStep != 0 {
                    duck += duckStep
                    if (duckStep < 0 && duck <= duckTarget) || (duckStep > 0 && duck >= duckTarget) {
                        duck = duckTarget
                        duckStep = 0
                    }
                }
                var voice: Int64 = 0
                if speaking {
                    let at = Int(position >> 32)
                    if at + 1 < clip.count {
                        let fraction = Int64(position & 0xFFFF_FFFF)
                        let a = Int64(clip[at])
                        let b = Int64(clip[at + 1])
                        voice = a + (((b - a) * fraction) >> 32)
                        position &+= step
                    } else {
                        if at < clip.count { voice = Int64(clip[at]) }
                        speaking = false
                        ended = true
                        head(to: Self.unity, milliseconds: Self.restoreMilliseconds)
                    }
                    voice = (voice * Int64(speechGain)) >> 24
                    voice = shift >= 0 ? voice << shift : voice >> -shift
                }
                let d = Int64(duck)
                for _ in 0..<channels {
                    let music = (Int64(buffer[index]) * d) >> 24
                    buffer[index] = Sample(truncatingIfNeeded: min(highest, max(lowest, music + voice)))
                    index += 1
                }
            }
        }
        if ended { clip = [] }
        return ended
    }

    private mutating func head(to target: Int, milliseconds: Int) {
        duckTarget = target
        let frames = max(1, rate * milliseconds / 1000)
        duckStep = (target - duck) / frames
        if duckStep == 0 { duck = target }
    }

    /// The linear gain of `decibels`.
    public static func linear(_ decibels: Double) -> Double { pow(10, decibels / 20) }

    private static func fixed(_ gain: Double) -> Int {
        Int((min(max(gain, 0), 1) * Double(unity)).rounded())
    }
}
