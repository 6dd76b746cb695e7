import Glibc
import ShuffleCore
import Testing

/// One row of the gain table: the tags and measurement of a track, the settings, and the gain expected.
struct GainCase: Sendable, CustomStringConvertible {
    var name: String
    var tags = TagInfo()
    var measured: TrackLoudness?
    var album: TrackLoudness?
    var settings = LoudnessSettings.standard
    var decibels: Double
    var source: LoudnessGain.Source
    var limited = false

    var description: String { name }
}

private let tagged = TagInfo(
    replayGainTrack: -7.5, replayGainAlbum: -5.0, replayGainTrackPeak: 0.9, replayGainAlbumPeak: 0.98)
private let quietTagged = TagInfo(
    replayGainTrack: 10, replayGainAlbum: 6, replayGainTrackPeak: 0.5, replayGainAlbumPeak: 0.3)

let gainTable: [GainCase] = [
    GainCase(name: "track tag in track mode", tags: tagged, decibels: -7.5, source: .trackTag),
    GainCase(
        name: "album tag in album mode", tags: tagged, settings: LoudnessSettings(mode: .album), decibels: -5,
        source: .albumTag),
    GainCase(
        name: "off ignores every tag", tags: tagged, measured: TrackLoudness(integratedLUFS: -8, truePeak: 1),
        settings: LoudnessSettings(mode: .off), decibels: 0, source: .none),
    GainCase(
        name: "album mode falls back to the track tag",
        tags: TagInfo(replayGainTrack: -3, replayGainTrackPeak: 0.5), settings: LoudnessSettings(mode: .album),
        decibels: -3, source: .trackTag),
    GainCase(
        name: "track mode falls back to the album tag", tags: TagInfo(replayGainAlbum: -4, replayGainAlbumPeak: 0.5),
        decibels: -4, source: .albumTag),
    GainCase(
        name: "a tag wins over a measurement", tags: tagged,
        measured: TrackLoudness(integratedLUFS: -30, truePeak: 0.1), decibels: -7.5, source: .trackTag),
    GainCase(
        name: "no tag: the measurement brings it to the target",
        measured: TrackLoudness(integratedLUFS: -9, truePeak: 1.0), decibels: -9, source: .measured),
    GainCase(
        name: "album mode without tags uses the track's measurement",
        measured: TrackLoudness(integratedLUFS: -12, truePeak: 1),
        settings: LoudnessSettings(mode: .album), decibels: -6, source: .measured),
    GainCase(name: "nothing known: plays as mastered", decibels: 0, source: .none),
    GainCase(
        name: "silent track (no loudness) plays as mastered",
        measured: TrackLoudness(integratedLUFS: nil, truePeak: nil),
        decibels: 0, source: .none),
    GainCase(
        name: "a quiet measured track is raised", measured: TrackLoudness(integratedLUFS: -24, truePeak: 0.25),
        decibels: 6, source: .measured),
    GainCase(
        name: "the true peak limits a boost", measured: TrackLoudness(integratedLUFS: -28, truePeak: 0.5),
        decibels: 6.0206, source: .measured, limited: true),
    GainCase(
        name: "the tagged peak limits a boost", tags: quietTagged, decibels: 6.0206, source: .trackTag,
        limited: true),
    GainCase(
        name: "a boost without a peak is refused", tags: TagInfo(replayGainTrack: 5), decibels: 0, source: .trackTag,
        limited: true),
    GainCase(
        name: "a cut without a peak is kept", tags: TagInfo(replayGainTrack: -5), decibels: -5, source: .trackTag),
    GainCase(
        name: "never more than the largest boost", measured: TrackLoudness(integratedLUFS: -50, truePeak: 0.001),
        decibels: 12, source: .measured),
    GainCase(
        name: "the pre-amp is added to a tag", tags: tagged, settings: LoudnessSettings(preampDecibels: -3),
        decibels: -10.5, source: .trackTag),
    GainCase(
        name: "the pre-amp is added to a measurement", measured: TrackLoudness(integratedLUFS: -10, truePeak: 1),
        settings: LoudnessSettings(preampDecibels: 2), decibels: -6, source: .measured),
    GainCase(
        name: "a positive pre-amp is still held by the peak", tags: tagged,
        settings: LoudnessSettings(preampDecibels: 15), decibels: 0.9151, source: .trackTag, limited: true),
    GainCase(
        name: "another target moves a tag by the difference", tags: tagged,
        settings: LoudnessSettings(targetLUFS: -23), decibels: -12.5, source: .trackTag),
    GainCase(
        name: "another target moves a measurement", measured: TrackLoudness(integratedLUFS: -14, truePeak: 1),
        settings: LoudnessSettings(targetLUFS: -23), decibels: -9, source: .measured),
    GainCase(
        name: "a peak over full scale forces a cut", tags: TagInfo(replayGainTrack: 0, replayGainTrackPeak: 1.4125),
        decibels: -3.0, source: .trackTag, limited: true),
    GainCase(
        name: "album mode plays an untagged album at its measured album loudness",
        measured: TrackLoudness(integratedLUFS: -12, truePeak: 1),
        album: TrackLoudness(integratedLUFS: -15, truePeak: 1),
        settings: LoudnessSettings(mode: .album), decibels: -3, source: .measuredAlbum),
    GainCase(
        name: "track mode ignores the album's measurement",
        measured: TrackLoudness(integratedLUFS: -12, truePeak: 1),
        album: TrackLoudness(integratedLUFS: -15, truePeak: 1),
        decibels: -6, source: .measured),
    GainCase(
        name: "album mode: a tag still wins over the album's measurement", tags: tagged,
        album: TrackLoudness(integratedLUFS: -30, truePeak: 0.1), settings: LoudnessSettings(mode: .album),
        decibels: -5, source: .albumTag),
    GainCase(
        name: "the album's peak limits the album's boost", measured: TrackLoudness(integratedLUFS: -30, truePeak: 0.1),
        album: TrackLoudness(integratedLUFS: -26, truePeak: 0.5), settings: LoudnessSettings(mode: .album),
        decibels: 6.0206, source: .measuredAlbum, limited: true),
    GainCase(
        name: "a non-finite tag is ignored", tags: TagInfo(replayGainTrack: .nan),
        measured: TrackLoudness(integratedLUFS: -20, truePeak: 0.5), decibels: 2, source: .measured),
]

@Suite struct LoudnessGainTests {
    @Test(arguments: gainTable)
    func theGainIsTheTaggedOrMeasuredOneWithinItsLimits(_ row: GainCase) {
        let gain = LoudnessGain.decide(
            tags: row.tags, measured: row.measured, album: row.album, settings: row.settings)
        #expect(abs(gain.decibels - row.decibels) < 0.001, "\(row.name): \(gain.decibels) dB")
        #expect(gain.source == row.source, "\(row.name)")
        #expect(gain.peakLimited == row.limited, "\(row.name)")
    }

    /// Every row: the gain times the known peak never passes full scale.
    @Test func noGainLetsTheKnownPeakPassFullScale() {
        for row in gainTable {
            let gain = LoudnessGain.decide(
                tags: row.tags, measured: row.measured, album: row.album, settings: row.settings)
            let peaks = [
                row.tags.replayGainTrackPeak, row.tags.replayGainAlbumPeak, row.measured?.truePeak, row.album?.truePeak,
            ]
            let peak: Double? =
                switch gain.source {
                case .trackTag: peaks[0]
                case .albumTag: peaks[1]
                case .measured: peaks[2]
                case .measuredAlbum: peaks[3]
                case .none: nil
                }
            if let peak { #expect(gain.linear * peak <= 1.000_001, "\(row.name)") }
        }
    }

    /// The cap in loudness terms: tracks mastered anywhere from −40 to −5 LUFS, normalised, play at the cap
    /// no louder than `target + dB(cap)`, and those the peak does not hold back play exactly there.
    @Test(arguments: [20, 14, 6])
    func atTheCapNoNormalisedTrackIsLouderThanTheTargetPlusTheCapsLevel(cap: Int) {
        let scale = VolumeScale(cap: cap)
        let ceiling = LoudnessSettings.defaultTarget + (scale.decibels(cap) ?? -120)
        for mastered in stride(from: -40.0, through: -5.0, by: 2.5) {
            for peakDecibels in [-20.0, -6.0, -1.0, 0.0] {
                let measured = TrackLoudness(integratedLUFS: mastered, truePeak: Decibels.factor(peakDecibels))
                let gain = LoudnessGain.decide(tags: TagInfo(), measured: measured, settings: .standard)
                // Asking for more than the cap gets the cap (VolumeScale), whatever the track.
                let played = mastered + gain.decibels + Decibels.of(scale.gain(100))
                #expect(played <= ceiling + 1e-9, "\(mastered) LUFS, peak \(peakDecibels) dB: \(played)")
                if !gain.peakLimited && mastered > -30 { #expect(abs(played - ceiling) < 1e-9) }
            }
        }
    }

    @Test(arguments: [-60.0, -20.0, -6.0, -0.5, 0.0, 3.0, 12.0])
    func decibelsAndFactorsAgreeWithLibm(_ decibels: Double) {
        #expect(abs(Decibels.factor(decibels) - pow(10, decibels / 20)) < 1e-12 * max(1, pow(10, decibels / 20)))
        let factor = pow(10, decibels / 20)
        #expect(abs(Decibels.of(factor) - decibels) < 1e-9)
    }

    @Test func settingsOutOfRangeAreClamped() {
        let settings = LoudnessSettings(mode: .album, targetLUFS: -80, preampDecibels: 40)
        #expect(settings.targetLUFS == -40)
        #expect(settings.preampDecibels == 15)
    }

    /// (tracks as (LUFS, peak, seconds), the album's LUFS and peak): energies weighted by length; silence adds
    /// nothing; the largest peak.
    static let albums: [([(Double?, Double?, Double)], Double?, Double?)] = [
        ([(-20, 0.5, 60), (-20, 0.7, 120)], -20, 0.7),
        ([(-10, 1.0, 60), (-30, 0.1, 60)], -12.967, 1.0),  // 10·log10((0.1 + 0.001) / 2)
        ([(-10, 1.0, 180), (-30, 0.1, 60)], -11.2349, 1.0),  // 10·log10((3 · 0.1 + 0.001) / 4)
        ([(nil, nil, 300), (-16, 0.9, 100)], -16, 0.9),
        ([(nil, nil, 300)], nil, nil),
    ]

    @Test(arguments: albums)
    func anAlbumsLoudnessIsItsTracksEnergyWeightedByLength(
        _ tracks: [(Double?, Double?, Double)], _ lufs: Double?, _ peak: Double?
    ) {
        let album = TrackLoudness.album(
            tracks.map { (TrackLoudness(integratedLUFS: $0.0, truePeak: $0.1), $0.2) })
        if let lufs {
            #expect(abs((album?.integratedLUFS ?? 0) - lufs) < 0.001, "\(String(describing: album))")
            #expect(album?.truePeak == peak)
        } else {
            #expect(album == nil)
        }
    }

    /// Albums played whole keep their dynamics: `albums` mode plays album gain where the box says `track`.
    @Test func anAlbumsShufflePlaysAlbumGain() {
        #expect(LoudnessSettings(mode: .track).playing(.albums).mode == .album)
        #expect(LoudnessSettings(mode: .off).playing(.albums).mode == .off)
        #expect(LoudnessSettings(mode: .track).playing(.balanced).mode == .track)
        #expect(LoudnessSettings(mode: .album, preampDecibels: 2).playing(.shuffle).preampDecibels == 2)
    }
}
