/// The formats the player's audio path decodes today, which the player's catalog is narrowed to.
///
/// The index lists every format (`MediaProbe`), but the audio path still decodes MP3 only (libmpg123):
/// handed an AAC file, libmpg123 finds stray frame syncs in it and plays them as noise. Until the audio
/// path has a decoder for each format, the player sees only MP3 tracks; `nil` (every format) once it does.
public enum PlayerFormats {
    /// The formats (`StreamInfo.codec`) handed to the player; nil for every format.
    public static let decoded: Set<String>? = ["mp3"]
}
