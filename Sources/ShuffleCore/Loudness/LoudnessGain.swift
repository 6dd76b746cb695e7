/// The loudness gain of one track: which ReplayGain value (or measurement) applies, the pre-amp, the peak
/// limit and the largest boost. A pure decision; the engine hands its `linear` gain to the audio thread,
/// which multiplies it into the volume.
///
/// The rules, in order:
/// 1. `off`: 0 dB.
/// 2. The tagged gain the mode asks for (`track`: track gain, else album gain; `album`: album gain, else track
///    gain), with the peak tagged beside it. Tags are relative to ReplayGain 2.0's −18 LUFS; another target
///    moves them by the difference.
/// 3. Else the measured loudness: `target − integrated`, with the measured true peak (`album`: the album's,
///    `TrackLoudness.album`, once every track of it is measured; else the track's).
/// 4. Else (no tag, not measured yet, or silent): 0 dB, the track plays as mastered.
/// 5. The pre-amp is added; the gain is at most `LoudnessSettings.maximumBoost`.
/// 6. The peak limit: `gain × peak ≤ 1`, so the track never clips at full volume. A track that would need a
///    boost but has no known peak is not boosted (at most 0 dB): nothing says the boost would not clip.
///
/// The cap in loudness terms: the gain is applied in the same multiplication as the volume step, so at step
/// `s` a normalised track plays at `target + pre-amp + dB(s)` LUFS, or quieter when its peak limits it.
/// At the cap that is the loudest any normalised track can be, however it was mastered: a boost on a quiet
/// track brings it up to that level and never past it, and a loud master is brought down to it.
public struct LoudnessGain: Sendable, Equatable {
    /// Where the gain came from.
    public enum Source: String, Sendable, Equatable {
        /// The track's ReplayGain track gain (or an R128/iTunNORM value converted to it).
        case trackTag = "track tag"
        /// The ReplayGain album gain.
        case albumTag = "album tag"
        /// The EBU R128 measurement of the decoded audio.
        case measured
        /// The EBU R128 measurements of every track of the album, combined.
        case measuredAlbum = "measured album"
        /// Nothing: the mode is off, or nothing is known yet.
        case none
    }

    /// The gain in dB (after pre-amp, boost and peak limits).
    public var decibels: Double
    /// Where it came from.
    public var source: Source
    /// Whether the peak (or a missing peak) held the gain below what the tag or measurement asked.
    public var peakLimited: Bool

    /// Creates a gain.
    public init(decibels: Double, source: Source, peakLimited: Bool = false) {
        self.decibels = decibels
        self.source = source
        self.peakLimited = peakLimited
    }

    /// 0 dB from nothing.
    public static let unity = LoudnessGain(decibels: 0, source: .none)

    /// The gain as a factor.
    public var linear: Double { Self.linear(decibels) }

    /// The gain for a track with `tags` and (when measured) `measured` under `settings`.
    public static func decide(
        tags: TagInfo, measured: TrackLoudness?, album measuredAlbum: TrackLoudness? = nil,
        settings: LoudnessSettings
    ) -> LoudnessGain {
        guard settings.mode != .off else { return .unity }
        let track = Tagged(gain: tags.replayGainTrack, peak: tags.replayGainTrackPeak, source: .trackTag)
        let album = Tagged(gain: tags.replayGainAlbum, peak: tags.replayGainAlbumPeak, source: .albumTag)
        let tagged = settings.mode == .album ? (album ?? track) : (track ?? album)
        let wanted: Double
        let peak: Double?
        let source: Source
        if let tagged {
            wanted = tagged.gain + settings.targetLUFS - LoudnessSettings.replayGainReference
            peak = tagged.peak
            source = tagged.source
        } else if settings.mode == .album, let measuredAlbum, let integrated = measuredAlbum.integratedLUFS,
            integrated.isFinite
        {
            wanted = settings.targetLUFS - integrated
            peak = measuredAlbum.truePeak
            source = .measuredAlbum
        } else if let measured, let integrated = measured.integratedLUFS, integrated.isFinite {
            wanted = settings.targetLUFS - integrated
            peak = measured.truePeak
            source = .measured
        } else {
            return .unity
        }
        var gain = min(wanted + settings.preampDecibels, LoudnessSettings.maximumBoost)
        var limited = false
        if let peak, peak.isFinite, peak > 0 {
            let ceiling = -decibels(peak)
            if gain > ceiling {
                gain = ceiling
                limited = true
            }
        } else if gain > 0 {
            gain = 0
            limited = true
        }
        return LoudnessGain(decibels: gain, source: source, peakLimited: limited)
    }

    /// A tagged gain with its peak.
    private struct Tagged {
        var gain: Double
        var peak: Double?
        var source: Source

        /// nil without a finite gain.
        init?(gain: Double?, peak: Double?, source: Source) {
            guard let gain, gain.isFinite else { return nil }
            self.gain = gain
            self.peak = peak
            self.source = source
        }
    }

    /// 10^(dB/20).
    public static func linear(_ decibels: Double) -> Double { Decibels.factor(decibels) }

    /// 20·log10(factor).
    public static func decibels(_ factor: Double) -> Double { Decibels.of(factor) }
}
