internal import CALSA

/// One playback volume control of a sound card's mixer ("PCM", "Master", "Digital"), for boards
/// whose DAC has a hardware volume: setting it costs no CPU and keeps full resolution at low volume.
///
/// Owned by one thread at a time (the audio thread); not `Sendable`.
/// https://www.alsa-project.org/alsa-doc/alsa-lib/group___simple_mixer.html
public final class MixerControl {
    private let mixer: OpaquePointer
    private let element: OpaquePointer
    /// The card the control belongs to, as given ("default", "hw:1").
    public let card: String
    /// The control's name, as given.
    public let name: String
    /// The control's range in hundredths of a dB, when the driver reports one.
    public let decibelRange: ClosedRange<Int>?
    private let rawRange: ClosedRange<Int>

    /// Opens the mixer of `card` and finds the playback control `name`.
    /// Wraps `snd_mixer_open`, `snd_mixer_attach`, `snd_mixer_selem_register`, `snd_mixer_load`,
    /// `snd_mixer_find_selem`.
    public init(card: String, name: String) throws(ALSAError) {
        self.card = card
        self.name = name
        var handle: OpaquePointer?
        try check(snd_mixer_open(&handle, 0), "snd_mixer_open", card)
        guard let handle else { throw ALSAError(code: ENOMEM, function: "snd_mixer_open", device: card) }
        // From here on, every failure must close the half-built mixer.
        do {
            try check(snd_mixer_attach(handle, card), "snd_mixer_attach", card)
            try check(snd_mixer_selem_register(handle, nil, nil), "snd_mixer_selem_register", card)
            try check(snd_mixer_load(handle), "snd_mixer_load", card)
        } catch {
            snd_mixer_close(handle)
            throw error
        }
        var id: OpaquePointer?
        guard snd_mixer_selem_id_malloc(&id) >= 0, let id else {
            snd_mixer_close(handle)
            throw ALSAError(code: ENOMEM, function: "snd_mixer_selem_id_malloc", device: card)
        }
        defer { snd_mixer_selem_id_free(id) }
        snd_mixer_selem_id_set_index(id, 0)
        snd_mixer_selem_id_set_name(id, name)
        guard let found = snd_mixer_find_selem(handle, id), snd_mixer_selem_has_playback_volume(found) != 0 else {
            snd_mixer_close(handle)
            throw ALSAError(code: ENOENT, function: "snd_mixer_find_selem", device: "\(card) control '\(name)'")
        }
        mixer = handle
        element = found
        var low = 0
        var high = 0
        if snd_mixer_selem_get_playback_dB_range(found, &low, &high) == 0, low < high {
            decibelRange = low...high
        } else {
            decibelRange = nil
        }
        snd_mixer_selem_get_playback_volume_range(found, &low, &high)
        rawRange = low...max(low, high)
    }

    deinit { snd_mixer_close(mixer) }

    /// Sets every channel to `centibels` (hundredths of a dB, 0 = full scale; below the control's range
    /// means its minimum, and muted when the control has a switch and `mute` is true).
    /// Wraps `snd_mixer_selem_set_playback_dB_all` (or the raw volume when the driver has no dB scale)
    /// and `snd_mixer_selem_set_playback_switch_all`.
    public func set(centibels: Int, mute: Bool) throws(ALSAError) {
        if snd_mixer_selem_has_playback_switch(element) != 0 {
            try check(
                snd_mixer_selem_set_playback_switch_all(element, mute ? 0 : 1),
                "snd_mixer_selem_set_playback_switch_all", card)
        }
        if let range = decibelRange {
            let value = min(max(centibels, range.lowerBound), range.upperBound)
            // dir = -1: round towards quieter, so the cap can never be exceeded by rounding.
            try check(
                snd_mixer_selem_set_playback_dB_all(element, value, -1), "snd_mixer_selem_set_playback_dB_all", card)
        } else {
            // No dB scale: map 0 dB…-60 dB linearly onto the raw range, a documented approximation.
            let fraction = max(0.0, min(1.0, 1.0 + Double(centibels) / 6000.0))
            let raw = rawRange.lowerBound + Int(fraction * Double(rawRange.upperBound - rawRange.lowerBound))
            try check(
                snd_mixer_selem_set_playback_volume_all(element, raw), "snd_mixer_selem_set_playback_volume_all", card)
        }
    }
}
