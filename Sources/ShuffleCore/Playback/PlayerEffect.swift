/// Something the player machine asks its owner (the playback engine) to do, in order.
public enum PlayerEffect: Equatable, Sendable {
    /// Print the track's line ("artist - title"): it starts now.
    case announce(TrackID)
    /// Drop whatever is buffered and start `track` at `positionMs`: playing, or opened and held at that
    /// position when `paused` (the player was paused when the track changed by itself, or on a seek).
    case start(TrackID, positionMs: Int64, paused: Bool = false)
    /// The track to continue with, gaplessly, when the current one ends (nil: none, stop and report).
    case queue(TrackID?)
    /// Stop output at once (buffered audio is dropped) and remember the position.
    case pauseOutput
    /// Continue output from the remembered position.
    case resumeOutput
    /// Change the software gain to `gain` (linear), ramped over a few milliseconds when `ramp` is true.
    case setGain(Double, ramp: Bool)
    /// Record in the library that `track` cannot be played, with the reason.
    case markUnplayable(TrackID, reason: String)
    /// Store the resume point now.
    case saveState
    /// Stop playing and end (`--once` completed its cycle, or nothing is playable).
    case finish(PlayerFinish)
    /// A book played to its end: the player holds its first part, paused at the start (`pausesAtEnd`).
    case reachedEnd
}

/// Why the player finished.
public enum PlayerFinish: Equatable, Sendable {
    /// `--once`: every track of the cycle was played.
    case cycleComplete
    /// The library holds no playable track (any more).
    case nothingPlayable
}

/// Something that happened to the player: a key or button, or news from the audio thread.
public enum PlayerEvent: Equatable, Sendable {
    /// Begin with the current track of the order at `positionMs` (first start or resume), paused when
    /// `paused`: the state the player's owner (the daemon's machine) has decided, from the first sample on.
    case begin(positionMs: Int64, paused: Bool)
    /// Play/pause toggle.
    case playPause
    /// Play (nothing when playing already).
    case play
    /// Pause (nothing when paused already).
    case pause
    /// Skip to the next track (and play).
    case next
    /// Previous: within the first 3 s of a track go back one track, later restart the track (the iPod rule);
    /// plays.
    case previous(positionMs: Int64)
    /// Seek within the current track by `byMs` (negative: back) from `positionMs`, in a track `durationMs`
    /// long: before the start means the start; at or past the end means the next track. Keeps play/pause.
    case seek(positionMs: Int64, byMs: Int64, durationMs: Int64)
    /// Seek to `positionMs` in the current track, `durationMs` long (at or past the end: the next track).
    /// Keeps play/pause.
    case seekTo(positionMs: Int64, durationMs: Int64)
    /// Play the track at `position` of the cycle (from its start); nothing when there is no such place.
    case jump(position: Int)
    /// Begin a new cycle now (a fresh shuffle, not starting with the current track) and play its first track.
    case reshuffle
    /// Mute (true) or unmute the output without changing the volume step (MPD's disabled output).
    case mute(Bool)
    /// One volume step up (never beyond the cap).
    case volumeUp
    /// One volume step down.
    case volumeDown
    /// Set the volume to a step (clamped to 0…cap).
    case setVolume(Int)
    /// The current track ended; `continued` is true when the audio thread already went on with the queued
    /// track gaplessly, false when it stopped and waits to be told.
    case trackEnded(continued: Bool)
    /// The current track yielded no audio.
    case trackFailed(TrackID, reason: String)
    /// The library now holds exactly these playable tracks (after a rescan), with their traits when the
    /// shuffle mode uses them.
    case libraryChanged([TrackID], groups: ShuffleGroups? = nil)
}
