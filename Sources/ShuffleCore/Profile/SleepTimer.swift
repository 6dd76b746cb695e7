/// The sleep timer: it counts down, then fades the music to silence one volume step at a time, then pauses
/// (and powers the box off, when the configuration says so). Time comes in as data (the loop's clock, time
/// since boot); the daemon arms one loop timer at `deadline` and calls `due(now:…)` when it runs.
public struct SleepTimer: Sendable, Equatable {
    /// Where the timer is.
    public enum Phase: Sendable, Equatable {
        /// No sleep timer.
        case off
        /// Counting down to `until`, when the fade begins.
        case counting(until: Duration)
        /// Fading: the steps still to come, as offsets from `start`.
        case fading(start: Duration, steps: [SleepFade.Step])
        /// Silence is reached; the player pauses at `at`, once the device has played out what it holds.
        case pausing(at: Duration)
    }

    /// What the daemon does.
    public enum Effect: Sendable, Equatable {
        /// Set the player's level to this step (a step of the fade).
        case setLevel(Int)
        /// Give the player the box's own level back (the fade ended or was cancelled).
        case restoreLevel
        /// Pause the music.
        case pause
        /// Power the box off (`sleep power-off` is on).
        case powerOff
        /// Say that the timer was set for so many minutes, or (nil) cancelled.
        case announce(minutes: Int?)
        /// Write this to the log.
        case log(Log.Level, String)
    }

    /// How long after the fade reaches silence the player pauses: a pause drops what the device holds, so
    /// the last audible steps are played out first.
    public static let pauseDelay: Duration = .milliseconds(700)

    /// Where the timer is.
    public private(set) var phase: Phase = .off

    /// Creates a timer that is off.
    public init() {}

    /// Whether a sleep timer runs (counting, fading or about to pause).
    public var isRunning: Bool { phase != .off }

    /// When `due` must be called next (nil: nothing to do).
    public var deadline: Duration? {
        switch phase {
        case .off: nil
        case .counting(let until): until
        case .fading(let start, let steps): steps.first.map { start + $0.at }
        case .pausing(let at): at
        }
    }

    /// Sets the timer to `seconds` from `now`, or cancels it (0). A fade under way is cancelled first.
    public mutating func set(seconds: Int, now: Duration) -> [Effect] {
        let wasCounting = if case .counting = phase { true } else { false }
        var effects = cancelFade()
        guard seconds > 0 else {
            if wasCounting { effects += [.log(.notice, "sleep timer cancelled"), .announce(minutes: nil)] }
            phase = .off
            return effects
        }
        phase = .counting(until: now + .seconds(seconds))
        return effects + [
            .log(.notice, "sleep timer: the music fades out in \(seconds) s"), .announce(minutes: (seconds + 59) / 60),
        ]
    }

    /// The sleep button: cancels a running timer, else sets one for `seconds`.
    public mutating func toggle(seconds: Int, now: Duration) -> [Effect] {
        set(seconds: isRunning ? 0 : seconds, now: now)
    }

    /// Someone asked for something (a button, a client): a fade under way, or its pause to come, gives the
    /// music its level back and the timer ends. A timer still counting is left alone.
    public mutating func interrupted() -> [Effect] {
        cancelFade()
    }

    /// The deadline came. `playing`: whether music plays (a paused box has nothing to fade); `level`: the box's
    /// level now; `fade`: how long the fade lasts; `powerOff`: whether the box powers off once paused.
    public mutating func due(now: Duration, playing: Bool, level: Int, fade: Duration, powerOff: Bool) -> [Effect] {
        var effects: [Effect] = []
        while let deadline, deadline <= now {
            switch phase {
            case .off:
                return effects
            case .counting:
                guard playing else {
                    phase = .off
                    return effects
                }
                effects.append(.log(.notice, "sleep timer: fading out over \(fade)"))
                let steps = SleepFade.steps(from: level, over: fade)
                phase = steps.isEmpty ? .pausing(at: now + Self.pauseDelay) : .fading(start: now, steps: steps)
            case .fading(let start, var steps):
                let step = steps.removeFirst()
                effects.append(.setLevel(step.step))
                // The last step reached silence at its own time: the pause follows from there.
                phase =
                    steps.isEmpty
                    ? .pausing(at: start + step.at + Self.pauseDelay) : .fading(start: start, steps: steps)
            case .pausing:
                phase = .off
                effects += [.log(.notice, "sleep timer: paused"), .pause, .restoreLevel]
                if powerOff { effects.append(.powerOff) }
            }
        }
        return effects
    }

    private mutating func cancelFade() -> [Effect] {
        switch phase {
        case .off, .counting:
            return []
        case .fading:
            phase = .off
            return [.restoreLevel, .log(.notice, "sleep timer: fade cancelled")]
        case .pausing:
            phase = .off
            return [.restoreLevel]
        }
    }
}
