/// Which ReplayGain value the player applies (the `replay-gain` key, `--replay-gain`).
public enum ReplayGainMode: String, Sendable, CaseIterable {
    /// Each track at the target level: the track gain, else the album gain, else the measured loudness.
    case track
    /// Each album at the target level, its tracks as loud relative to each other as mastered: the album gain,
    /// else the track gain, else the measured loudness of the track.
    case album
    /// No loudness gain at all: every track plays as mastered.
    case off
}

/// How loud the player makes each track: the mode, the level aimed at and the pre-amp.
public struct LoudnessSettings: Sendable, Equatable {
    /// The level ReplayGain 2.0 tags are written for (and EBU R128 gains converted to): −18 LUFS.
    public static let replayGainReference = -18.0
    /// The default target level: ReplayGain 2.0's.
    public static let defaultTarget = -18.0
    /// The pre-amp's range in dB (what `replay-gain-preamp` accepts).
    public static let preampRange = -15.0...15.0
    /// The target's range in LUFS (what `loudness-target` accepts).
    public static let targetRange = -40.0...(-5.0)
    /// The most a track is ever raised, in dB: a near-silent track (a hidden track's hiss) is not lifted to
    /// the target, and the software gain stays within 4× (its fixed-point headroom).
    public static let maximumBoost = 12.0

    /// Track, album or off.
    public var mode: ReplayGainMode
    /// The loudness every track is brought to (LUFS).
    public var targetLUFS: Double
    /// dB added to every loudness gain (tagged or measured).
    public var preampDecibels: Double

    /// Creates settings; the target and pre-amp are clamped into their ranges.
    public init(mode: ReplayGainMode = .track, targetLUFS: Double = defaultTarget, preampDecibels: Double = 0) {
        self.mode = mode
        self.targetLUFS = min(max(targetLUFS, Self.targetRange.lowerBound), Self.targetRange.upperBound)
        self.preampDecibels = min(max(preampDecibels, Self.preampRange.lowerBound), Self.preampRange.upperBound)
    }

    /// Track mode at −18 LUFS with no pre-amp.
    public static let standard = LoudnessSettings()

    /// The settings the player applies in `shuffle` mode: albums played whole keep their own dynamics (a quiet
    /// interlude stays quiet beside the loud song after it), so in `albums` mode `track` becomes `album`
    /// (`off` stays off).
    public func playing(_ shuffle: ShuffleMode) -> LoudnessSettings {
        var settings = self
        if shuffle == .albums, mode == .track { settings.mode = .album }
        return settings
    }

    /// A number of dB or LUFS as the configuration and the command line write it ("-3", "+2.5", "-18"):
    /// nil unless it is a finite decimal within `range`.
    public static func number(_ text: String, in range: ClosedRange<Double>) -> Double? {
        let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
            let value = Double(digits), value.isFinite, range.contains(value)
        else { return nil }
        return value
    }
}

/// What measuring a track's decoded audio found (EBU R128, `LoudnessScan`): its integrated loudness and
/// true peak. Stored in the library; nil fields when the track is silent (no loudness to speak of).
public struct TrackLoudness: Sendable, Equatable, Hashable {
    /// Integrated loudness in LUFS; nil for a silent track.
    public var integratedLUFS: Double?
    /// The true peak (1.0 = full scale), the largest over the channels; nil when unknown.
    public var truePeak: Double?

    /// Creates a measurement.
    public init(integratedLUFS: Double?, truePeak: Double?) {
        self.integratedLUFS = integratedLUFS
        self.truePeak = truePeak
    }

    /// The loudness of an album from its tracks' measurements and lengths in seconds: the mean of their
    /// energies weighted by length (`10·log10(Σ tᵢ·10^(Lᵢ/10) / Σ tᵢ)`), and the largest peak. Silent tracks
    /// add nothing, as EBU R128's absolute gate leaves silence out. nil when no track has a loudness.
    ///
    /// EBU R128's album loudness gates every 400 ms block of the album against the album's own level, where
    /// this combines per-track results, each gated against its own track: libebur128 can combine only states
    /// still in memory (`ebur128_loudness_global_multiple`), and the scan measures one track at a time, in the
    /// background, across power cuts. Measured against FFmpeg's `ebur128` on the album's tracks concatenated:
    /// four pink-noise tracks 2 dB apart, 0.2 dB lower here (−33.6 against −33.4 LUFS); the same 3 dB apart
    /// with passages 30 dB down (which the relative gate drops), 0.6 dB lower (−32.5 against −31.9).
    public static func album(_ tracks: [(loudness: TrackLoudness, seconds: Double)]) -> TrackLoudness? {
        var energy = 0.0
        var seconds = 0.0
        var peak: Double?
        for track in tracks {
            if let truePeak = track.loudness.truePeak, truePeak.isFinite { peak = max(peak ?? 0, truePeak) }
            guard let lufs = track.loudness.integratedLUFS, lufs.isFinite, track.seconds > 0 else { continue }
            energy += track.seconds * Decibels.power(lufs)
            seconds += track.seconds
        }
        guard seconds > 0, energy > 0 else { return nil }
        return TrackLoudness(integratedLUFS: Decibels.ofPower(energy / seconds), truePeak: peak)
    }
}
