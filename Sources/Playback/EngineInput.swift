import ShuffleCore

/// Everything the engine reacts to, funnelled through one stream so its state changes one at a time.
enum EngineInput: Sendable {
    /// A key or button, stamped when it arrived.
    case player(PlayerEvent, at: ContinuousClock.Instant)
    /// News from the audio thread.
    case audio(AudioEvent)
    /// Time to store the resume point (periodic, while playing).
    case saveTick(generation: Int)
    /// Time to try the device again.
    case retryDevice(token: UInt64)
    /// Play through another device from where the music is.
    case useDevice(String)
    /// The library changed (a rescan): read the tracks again.
    case rescanned
    /// Say a phrase over the music; stop it (nil).
    case speak(SpeechClip?)
    /// Save and stop.
    case quit
    /// Nothing to do but say so: every input before it has been handled (`PlaybackEngine.settled()`).
    case barrier(CheckedContinuation<Void, Never>)
}
