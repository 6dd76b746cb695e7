/// What the engine tells the audio thread, through `AudioMailbox`.
enum AudioCommand: Sendable {
    /// Play `path` from `positionMs`; `token` names this start in later events. With `cut` (a key press)
    /// the buffered audio is dropped first; without (the player moving on by itself) it is played out.
    /// `requestedAt` is when the key or button that caused it arrived (for the skip-latency figure).
    case start(token: UInt64, path: [UInt8], positionMs: Int64, cut: Bool, requestedAt: ContinuousClock.Instant)
    /// The track to continue with, gaplessly, when the current one ends (nil clears it).
    case queue(QueuedTrack?)
    /// Stop output at once (drop the buffer), keep the position.
    case pause
    /// Continue from the kept position.
    case resume
    /// Change the software gain.
    case gain(Double, ramp: Bool)
    /// Stop and close everything; play out the buffer first when `drain`. The thread then ends.
    case shutdown(drain: Bool)
}

/// What the audio thread tells the engine.
public enum AudioEvent: Sendable, Equatable {
    /// The first samples of start `token` were handed to ALSA, `latency` after the request.
    case started(token: UInt64, latency: Duration)
    /// The track of `ended` finished and the queued `token` followed it gaplessly in the same PCM.
    case continued(ended: UInt64, token: UInt64)
    /// Track `token` finished and nothing was queued (or the queued file would not open): waiting.
    case ended(token: UInt64)
    /// Track `token` yielded no audio at all.
    case failed(token: UInt64, reason: String)
    /// The output device could not be opened, configured or written while playing `token`; the position
    /// reached is kept so a retry continues there. `message` is a sentence naming the device.
    case deviceFailed(token: UInt64, message: String, positionMs: Int64)
    /// The thread has closed the device and ended (after `shutdown`).
    case closed
}

/// A track the audio thread continues with when the current one ends.
struct QueuedTrack: Sendable {
    /// The start it follows: the audio thread takes it only while that start is still playing, so a queue
    /// that arrives after its track already ended can never replay a track later.
    var after: UInt64
    /// The start token it will carry.
    var token: UInt64
    /// The file.
    var path: [UInt8]
}

