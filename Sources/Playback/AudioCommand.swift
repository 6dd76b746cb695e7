internal import Glibc

/// What the engine tells the audio thread, through `AudioMailbox`.
enum AudioCommand: Sendable {
    /// Play `path` from `positionMs`; `token` names this start in later events. With `cut` (a key press)
    /// the buffered audio is dropped first; without (the player moving on by itself) it is played out.
    /// With `paused` the track is opened and held at that position until `resume`: the output is paused
    /// exactly when the engine says so, whatever came before. `requestedAt` is when the key or button that
    /// caused it arrived (for the skip-latency figure). `loudness` is the track's own gain (`LoudnessGain`,
    /// linear), multiplied into the volume's while it plays.
    case start(
        token: UInt64, path: [UInt8], positionMs: Int64, paused: Bool, cut: Bool,
        requestedAt: ContinuousClock.Instant, loudness: Double = 1)
    /// The track to continue with, gaplessly, when the current one ends (nil clears it).
    case queue(QueuedTrack?)
    /// Stop output at once (drop the buffer), keep the position.
    case pause
    /// Continue from the kept position.
    case resume
    /// Change the software gain.
    case gain(Double, ramp: Bool)
    /// Say a phrase over the music (ducked) or over silence, cutting off one under way.
    case speak(SpeechClip)
    /// Stop the phrase under way.
    case stopSpeaking
    /// Close the device and play through `name` from the next start on (another output was chosen).
    case device(String)
    /// Stop and close everything; play out the buffer first when `drain`. The thread then ends.
    case shutdown(drain: Bool)
}

/// What the audio thread tells the engine.
public enum AudioEvent: Sendable, Equatable {
    /// The first samples of start `token` were handed to ALSA `at` that instant, `latency` after the request.
    case started(token: UInt64, at: ContinuousClock.Instant, latency: Duration)
    /// Start `token`, asked for paused, is open and held at its position: the track heard on resuming.
    case held(token: UInt64)
    /// The track of `ended` finished and the queued `token` followed it gaplessly in the same PCM.
    case continued(ended: UInt64, token: UInt64)
    /// Track `token` finished and nothing was queued (or the queued file would not open): waiting.
    case ended(token: UInt64)
    /// Track `token` could not be played: `cause` says whether the file itself is bad or it could not be
    /// read; `positionMs` is how far it was heard (0 when it never started).
    case failed(token: UInt64, reason: String, cause: TrackFailure, positionMs: Int64)
    /// The output device could not be opened, configured or written while playing `token`; the position
    /// reached is kept so a retry continues there. `message` is a sentence naming the device; `device` is its
    /// PCM name, and `gone` says the device itself went away (ENODEV: unplugged) rather than refusing.
    case deviceFailed(token: UInt64, message: String, positionMs: Int64, device: String = "", gone: Bool = false)
    /// The first samples of phrase `id` were handed to ALSA `at` that instant.
    case speechStarted(id: UInt64, at: ContinuousClock.Instant)
    /// The phrase `id` has been said to its end (not sent when it was cut off or replaced).
    case speechEnded(id: UInt64)
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
    /// Its loudness gain (linear), taken on at the boundary.
    var loudness: Double = 1
}

/// Why a track could not be played: the difference between a bad file (skip it for good) and a file that
/// could not be read (a stick pulled out, a file deleted since the index was made: never held against it).
public enum TrackFailure: Sendable, Equatable {
    /// The decoder read the file and found no audio in it, or only damaged data.
    case noAudio
    /// Opening or reading the file failed with `errno` (ENOENT, EIO, ENODEV, ENXIO, EACCES…).
    case unreadable(errno: Int32)

    /// Whether the failure says the medium is in trouble (I/O error, device gone) rather than one file.
    public var isMediaError: Bool {
        guard case .unreadable(let code) = self else { return false }
        return [EIO, ENODEV, ENXIO, ESTALE, ENOTCONN, ENOMEDIUM].contains(code)
    }
}

/// A phrase for the audio thread: 16-bit mono at its own rate, and the gain it is said at.
public struct SpeechClip: Sendable, Equatable {
    /// Names the phrase in `speechEnded`.
    public var id: UInt64
    /// Mono samples.
    public var samples: [Int16]
    /// Their rate.
    public var sampleRate: Int
    /// Linear gain (0…1) the phrase is said at.
    public var gain: Double

    /// Creates a clip.
    public init(id: UInt64, samples: [Int16], sampleRate: Int, gain: Double) {
        self.id = id
        self.samples = samples
        self.sampleRate = sampleRate
        self.gain = gain
    }
}
