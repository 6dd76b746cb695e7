/// The recogniser's state for one button: the debouncer and the gesture in progress.
struct ButtonTrack: Sendable {
    /// Where the button's gesture stands.
    enum Phase: Equatable, Sendable {
        /// Up, nothing pending.
        case idle
        /// Down since `since`, after `clicks` completed clicks of the same gesture.
        case down(since: Duration, clicks: Int)
        /// Down after a long press fired (nil) or while hold repeats (the next repeat's time).
        case held(nextRepeat: Duration?)
        /// Up after `clicks` clicks, waiting for the double-click window from `at` to close.
        case released(clicks: Int, at: Duration)
        /// Part of a chord: everything is swallowed until the button is released.
        case chorded
    }

    let settings: ButtonSettings
    /// The last raw level a source reported (true: pressed).
    var raw = false
    /// When the raw level last changed.
    var rawSince: Duration
    /// The debounced level.
    var stable = false
    var phase = Phase.idle

    init(settings: ButtonSettings, start: Duration) {
        self.settings = settings
        self.rawSince = start
    }

    /// When this button's own timer (long, hold, double-click window) is due, if it has one.
    var timerDue: Duration? {
        let timing = settings.timing
        switch phase {
        case .down(let since, _):
            if settings.actions[.hold] != nil { return since + timing.holdDelay }
            if settings.actions[.long] != nil { return since + timing.longPress }
            return nil
        case .held(let next): return next
        case .released(_, let at): return at + timing.doubleClick
        case .idle, .chorded: return nil
        }
    }
}

/// The recogniser's state for one chord.
struct ChordTrack: Sendable {
    /// Where the chord stands.
    enum Phase: Equatable, Sendable {
        /// Not engaged.
        case idle
        /// Both buttons went down together at `since`; fires after the chord's hold time.
        case pending(since: Duration)
        /// Fired or abandoned: its buttons are swallowed until all are up.
        case latched
    }

    let settings: ChordSettings
    var phase = Phase.idle
}
