/// The container a file's first bytes announce.
enum Container: Equatable {
    case flac
    case ogg
    case mp4
    case wav
    case aiff(isAIFC: Bool)
    /// A video container (AVI): not audio.
    case video
    /// A format Shufflebox does not play, by name.
    case unsupported(String)

    /// The container whose magic starts `head` (16 bytes or fewer), or nil (MPEG audio, ADTS, unknown).
    static func sniff(_ head: ArraySlice<UInt8>) -> Container? {
        if head.matches("fLaC", at: 0) { return .flac }
        if head.matches("OggS", at: 0) { return .ogg }
        if head.matches("ftyp", at: 4) {
            // QuickTime movies and 3GPP files also start so; the track handlers tell video from audio later.
            return .mp4
        }
        if head.matches("RIFF", at: 0) {
            if head.matches("WAVE", at: 8) { return .wav }
            if head.matches("AVI ", at: 8) { return .video }
            return nil
        }
        if head.matches("RF64", at: 0) || head.matches("BW64", at: 0) { return .unsupported("RF64 WAV") }
        if head.matches("FORM", at: 0) {
            if head.matches("AIFF", at: 8) { return .aiff(isAIFC: false) }
            if head.matches("AIFC", at: 8) { return .aiff(isAIFC: true) }
            return nil
        }
        if head.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return .unsupported("WMA") }
        if head.matches("MAC ", at: 0) { return .unsupported("APE") }
        if head.matches("MPCK", at: 0) || head.matches("MP+", at: 0) { return .unsupported("Musepack") }
        if head.matches("DSD ", at: 0) || head.matches("FRM8", at: 0) { return .unsupported("DSD") }
        if head.matches("wvpk", at: 0) { return .unsupported("WavPack") }
        if head.matches("TTA1", at: 0) { return .unsupported("TTA") }
        if head.matches("ajkg", at: 0) { return .unsupported("Shorten") }
        if head.matches("#!AMR", at: 0) { return .unsupported("AMR") }
        if head.matches("ADIF", at: 0) { return .unsupported("ADIF AAC") }
        if head.matches(".ra\u{FD}", at: 0) || head.matches(".RMF", at: 0) { return .unsupported("RealAudio") }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .unsupported("Matroska") }
        return nil
    }

    /// The format a played extension names, for "not FLAC audio".
    static func expectedName(forExtension ext: String) -> String {
        switch ext {
        case "flac": "FLAC"
        case "ogg", "oga": "Ogg"
        case "opus": "Opus"
        case "m4a", "m4b", "mp4": "MP4"
        case "aac": "AAC"
        case "wav": "WAV"
        case "aif", "aiff", "aifc": "AIFF"
        default: "MPEG"
        }
    }
}
