internal import CALSA

/// Facts about the linked alsa-lib.
public enum ALSALibrary {
    /// The version of the linked library, for example "1.2.8". Wraps `snd_asoundlib_version`.
    public static var version: String { String(cString: snd_asoundlib_version()) }
}
