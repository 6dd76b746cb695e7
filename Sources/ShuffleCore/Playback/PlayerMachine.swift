/// The player's decisions, without I/O: takes `PlayerEvent`s, returns `PlayerEffect`s for the engine to
/// carry out. Holds the shuffle order, play/pause and the volume.
///
/// Paused or playing changes by one rule, whatever the order of events: `begin`, `play`, `pause` and
/// `playPause` set it; `next`, `previous`, `jump` and `reshuffle` (a person asking for a track) play;
/// everything else keeps it, so a track that ends, fails or leaves the library while paused is followed by
/// the next one, started paused. Every `start` effect carries the state the audio thread must be in
/// afterwards, so the two cannot come apart.
///
/// In the daemon, play, pause and the level are `DaemonMachine`'s: it decides them and tells the player
/// (`begin` with its state, `play` and `pause` but never a toggle, the level in steps). The player's own copy
/// is what it was told; the rule above is the one the daemon's machine decides by.
public struct PlayerMachine: Sendable, Equatable {
    /// How far into a track "previous" still goes back rather than restarting.
    public static let previousWindowMs: Int64 = 3_000

    /// The shuffle order and cursor.
    public private(set) var order: ShuffleOrder
    /// Whether output is paused.
    public private(set) var paused = false
    /// Whether a track is under way (after `begin`, until `finish`).
    public private(set) var started = false
    /// Whether the output is muted (the volume step is kept, and applies again on unmuting).
    public private(set) var muted = false
    /// The volume step (always within 0…cap).
    public private(set) var volume: Int
    /// The volume curve and cap.
    public let scale: VolumeScale
    /// `--once`: finish at the end of the cycle instead of starting a new one.
    public let once: Bool
    /// A book: at the end of its last part, hold the first part paused at its start (`reachedEnd`), as a
    /// player does at the end of an audiobook, instead of going round again.
    public let pausesAtEnd: Bool

    /// Creates a machine over `order` at `volume` (clamped to the cap).
    public init(order: ShuffleOrder, volume: Int, scale: VolumeScale, once: Bool, pausesAtEnd: Bool = false) {
        self.order = order
        self.scale = scale
        self.volume = scale.clamp(volume)
        self.once = once
        self.pausesAtEnd = pausesAtEnd
    }

    /// The resume point to store, with the position the engine measured.
    public func state(positionMs: Int64) -> PlaybackState {
        PlaybackState(
            order: order.order, cursor: order.cursor, positionMs: max(0, positionMs), volume: volume, paused: paused)
    }

    /// Handles one event and returns what to do, in order.
    public mutating func handle(_ event: PlayerEvent) -> [PlayerEffect] {
        switch event {
        case .begin(let position, let paused):
            guard let track = order.current else { return [.finish(.nothingPlayable)] }
            started = true
            self.paused = paused
            return [.setGain(muted ? 0 : scale.gain(volume), ramp: false), .announce(track)]
                + [.start(track, positionMs: max(0, position), paused: paused), .queue(order.upcoming), .saveState]
        case .playPause:
            return setPaused(!paused)
        case .play:
            return setPaused(false)
        case .pause:
            return setPaused(true)
        case .next:
            guard started else { return [] }
            paused = false
            return moveOn(advancing: true, continued: false)
        case .previous(let position):
            guard started, let current = order.current else { return [] }
            var track = current
            if position < PlayerMachine.previousWindowMs, order.cursor > 0, let earlier = order.back() {
                track = earlier
            }
            paused = false
            return [.announce(track), .start(track, positionMs: 0, paused: false), .queue(order.upcoming), .saveState]
        case .seekTo(let position, let duration):
            return handle(.seek(positionMs: 0, byMs: position, durationMs: duration))
        case .seek(let position, let delta, let duration):
            guard started, let current = order.current else { return [] }
            let target = max(0, position + delta)
            if target >= duration { return moveOn(advancing: true, continued: false) }
            return [.start(current, positionMs: target, paused: paused), .queue(order.upcoming), .saveState]
        case .jump(let position):
            guard started, order.jump(to: position), let track = order.current else { return [] }
            paused = false
            return [.announce(track), .start(track, positionMs: 0, paused: false), .queue(order.upcoming), .saveState]
        case .reshuffle:
            guard started, !order.order.isEmpty else { return [] }
            order.startNewCycle(avoidingFirst: order.current)
            guard let track = order.current else { return [] }
            paused = false
            return [.announce(track), .start(track, positionMs: 0, paused: false), .queue(order.upcoming), .saveState]
        case .mute(let on):
            guard on != muted else { return [] }
            muted = on
            return [.setGain(muted ? 0 : scale.gain(volume), ramp: true)]
        case .volumeUp: return setVolume(volume + 1)
        case .volumeDown: return setVolume(volume - 1)
        case .setVolume(let step): return setVolume(step)
        case .trackEnded(let continued):
            guard started else { return [] }
            return moveOn(advancing: true, continued: continued)
        case .trackFailed(let track, let reason):
            let wasCurrent = order.current == track
            order.remove([track])
            var effects: [PlayerEffect] = [.markUnplayable(track, reason: reason)]
            if started && wasCurrent {
                effects += moveOn(advancing: false, continued: false)
            } else {
                effects += [.queue(order.upcoming), .saveState]
            }
            return effects
        case .libraryChanged(let tracks, let groups):
            if let groups { order.updateGroups(groups) }
            let removedCurrent = order.reconcile(with: tracks)
            if started && removedCurrent { return moveOn(advancing: false, continued: false) }
            return [.queue(order.upcoming), .saveState]
        }
    }

    // MARK: - Helpers

    /// Goes on to the next track (or, when `advancing` is false, to the one the cursor already points at
    /// after a removal), starting a new cycle or finishing at the end of this one.
    private mutating func moveOn(advancing: Bool, continued: Bool) -> [PlayerEffect] {
        let ended = advancing ? order.current : nil
        if advancing { order.advance() }
        var next = order.current
        if next == nil {
            if order.order.isEmpty {
                started = false
                return [.saveState, .finish(.nothingPlayable)]
            }
            if once {
                started = false
                return [.saveState, .finish(.cycleComplete)]
            }
            let last = ended ?? order.order.last
            order.startNewCycle(avoidingFirst: pausesAtEnd ? nil : last)
            if pausesAtEnd, advancing, let first = order.current {
                // Even when the audio thread went on gaplessly, the first part restarts, held at its start.
                paused = true
                return [
                    .announce(first), .start(first, positionMs: 0, paused: true), .queue(order.upcoming),
                    .saveState, .reachedEnd,
                ]
            }
            next = order.current
        }
        guard let track = next else { return [.saveState, .finish(.nothingPlayable)] }
        var effects: [PlayerEffect] = [.announce(track)]
        if !continued { effects.append(.start(track, positionMs: 0, paused: paused)) }
        effects += [.queue(order.upcoming), .saveState]
        return effects
    }

    private mutating func setPaused(_ wanted: Bool) -> [PlayerEffect] {
        guard started, wanted != paused else { return [] }
        paused = wanted
        return [paused ? .pauseOutput : .resumeOutput, .saveState]
    }

    private mutating func setVolume(_ step: Int) -> [PlayerEffect] {
        let clamped = scale.clamp(step)
        guard clamped != volume else { return [] }
        volume = clamped
        return [.setGain(muted ? 0 : scale.gain(volume), ramp: true), .saveState]
    }
}
