internal import CALSA

extension PCMSampleFormat {
    /// alsa-lib's name for the format.
    var alsa: snd_pcm_format_t {
        switch self {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .s24: SND_PCM_FORMAT_S24_LE
        }
    }
}
