/// Turns raw button edges into gestures and actions: debounce, click, double, triple, long press,
/// hold-repeat and chords, per the board's settings.
///
/// A pure state machine. It never reads a clock and never sleeps: time comes from the edges'
/// timestamps and from `advance(to:)`. After every call, `nextDeadline` says when it next needs to
/// be woken (nil: not until the next edge), so the caller can sleep in the kernel with a timeout
/// instead of polling.
///
/// Events are decided in time order. A debounced edge is known only `debounce` after its raw edge
/// (the level must hold that long), so a timer never fires past a raw edge that is still being
/// debounced: a release at 799 ms ends a press before an 800 ms long press even though it is
/// confirmed at 819 ms. On a tie, the timer wins: a press held exactly `longPress` is long, and a
/// press exactly `doubleClick` after a release starts a new gesture.
///
/// State is fixed per button and per chord (no queues), so a storm of edges cannot grow it.
public struct GestureRecognizer: Sendable {
    /// The board whose map is applied.
    public let board: BoardConfig
    /// The latest time seen (edge or `advance`). Edges stamped earlier are treated as happening now.
    public private(set) var now: Duration
    var tracks: [ButtonName: ButtonTrack]
    var chords: [ChordTrack]

    /// Hold repeats later than this (the caller slept, the clock jumped) are dropped, not replayed.
    public static let maximumLateness: Duration = .seconds(1)

    /// Creates a recogniser for `board`, with time starting at `start`.
    public init(board: BoardConfig, start: Duration = .zero) {
        self.board = board
        self.now = start
        var tracks: [ButtonName: ButtonTrack] = [:]
        for settings in board.buttons { tracks[settings.name] = ButtonTrack(settings: settings, start: start) }
        self.tracks = tracks
        self.chords = board.chords.map { ChordTrack(settings: $0) }
    }

    /// Feeds one raw edge; returns what it (and any timer due before it) completed.
    ///
    /// Edges for buttons the board does not have are ignored.
    public mutating func handle(_ edge: ButtonEdge) -> [GestureEvent] {
        let time = max(edge.time, now)
        var events = advance(to: time)
        guard var track = tracks[edge.button] else { return events }
        track.raw = edge.kind == .press
        track.rawSince = time
        tracks[edge.button] = track
        events += advance(to: time)
        return events
    }

    /// Moves time to `time` (ignored if earlier than `now`) and returns every gesture completed by then.
    public mutating func advance(to time: Duration) -> [GestureEvent] {
        now = max(now, time)
        var events: [GestureEvent] = []
        while let step = earliestStep(), step.ready <= now {
            switch step.kind {
            case .commit(let button): commit(button, into: &events)
            case .buttonTimer(let button): fireTimer(of: button, at: step.logical, into: &events)
            case .chordTimer(let index): fireChord(index, at: step.logical, into: &events)
            }
        }
        return events
    }

    /// When the recogniser next needs `advance(to:)` (nil: nothing pending until the next edge).
    public var nextDeadline: Duration? { earliestStep()?.ready }

    /// Whether every button is up and stable and no gesture is pending.
    public var isIdle: Bool { nextDeadline == nil && tracks.values.allSatisfy { !$0.stable && !$0.raw } }

    /// The buttons whose last raw edge was a press (debounced or not).
    public var rawPressedButtons: [ButtonName] { tracks.values.filter(\.raw).map(\.settings.name).sorted() }

    /// The buttons whose debounced state is pressed.
    public var pressedButtons: [ButtonName] { tracks.values.filter(\.stable).map(\.settings.name).sorted() }

    // MARK: - Scheduling

    struct Step {
        enum Kind { case commit(ButtonName), buttonTimer(ButtonName), chordTimer(Int) }
        var kind: Kind
        /// When the step logically happens (the raw edge's time for a commit).
        var logical: Duration
        /// When it can be decided.
        var ready: Duration
        /// Timers sort before commits at the same logical time.
        var rank: Int
    }

    /// The pending step with the smallest logical time: it must be decided before any other.
    func earliestStep() -> Step? {
        var best: Step?
        func consider(_ step: Step) {
            if let current = best, (current.logical, current.rank) <= (step.logical, step.rank) { return }
            best = step
        }
        for button in ButtonName.allCases {
            guard let track = tracks[button] else { continue }
            if track.raw != track.stable {
                consider(
                    Step(
                        kind: .commit(button), logical: track.rawSince,
                        ready: track.rawSince + track.settings.timing.debounce, rank: 1))
            }
            if let due = track.timerDue {
                consider(Step(kind: .buttonTimer(button), logical: due, ready: due, rank: 0))
            }
        }
        for (index, chord) in chords.enumerated() {
            if case .pending(let since) = chord.phase {
                let due = since + chord.settings.hold
                consider(Step(kind: .chordTimer(index), logical: due, ready: due, rank: 0))
            }
        }
        return best
    }

    // MARK: - Debounced edges

    mutating func commit(_ button: ButtonName, into events: inout [GestureEvent]) {
        guard var track = tracks[button] else { return }
        track.stable = track.raw
        let time = track.rawSince
        tracks[button] = track
        if track.stable { press(button, at: time, into: &events) } else { release(button, at: time, into: &events) }
    }

    mutating func press(_ button: ButtonName, at time: Duration, into events: inout [GestureEvent]) {
        // Every chord the button is in: one under way swallows it; otherwise the first whose partner is down
        // begins (a partner taken by another chord is `.chorded`, not `.down`, so two chords never both begin).
        let mine = chords.indices.filter { chords[$0].settings.buttons.contains(button) }
        if mine.contains(where: { chords[$0].phase != .idle }) {
            tracks[button]?.phase = .chorded
            return
        }
        for index in mine {
            let partner = chords[index].settings.buttons.first { $0 != button } ?? button
            if let other = tracks[partner], other.stable, case .down(_, let otherClicks) = other.phase {
                flushClicks(of: partner, count: otherClicks, at: time, into: &events)
                if case .released(let clicks, _) = tracks[button]?.phase {
                    flushClicks(of: button, count: clicks, at: time, into: &events)
                }
                tracks[partner]?.phase = .chorded
                tracks[button]?.phase = .chorded
                chords[index].phase = .pending(since: time)
                return
            }
        }
        guard var track = tracks[button] else { return }
        if case .released(let clicks, _) = track.phase {
            track.phase = .down(since: time, clicks: clicks)
        } else {
            track.phase = .down(since: time, clicks: 0)
        }
        tracks[button] = track
    }

    mutating func release(_ button: ButtonName, at time: Duration, into events: inout [GestureEvent]) {
        guard var track = tracks[button] else { return }
        switch track.phase {
        case .down(_, let clicks):
            let count = clicks + 1
            if count >= track.settings.maximumClicks {
                track.phase = .idle
                tracks[button] = track
                emit(button, .clicks(count), at: time, into: &events)
            } else {
                track.phase = .released(clicks: count, at: time)
                tracks[button] = track
            }
        case .held, .chorded, .idle, .released:
            track.phase = .idle
            tracks[button] = track
        }
        // A chord stays latched (its buttons swallowed) until all its buttons are up.
        for index in chords.indices where chords[index].settings.buttons.contains(button) {
            let anyDown = chords[index].settings.buttons.contains { tracks[$0]?.stable ?? false }
            chords[index].phase = anyDown ? (chords[index].phase == .idle ? .idle : .latched) : .idle
        }
    }

    // MARK: - Timers

    mutating func fireTimer(of button: ButtonName, at time: Duration, into events: inout [GestureEvent]) {
        guard var track = tracks[button] else { return }
        let settings = track.settings
        switch track.phase {
        case .down(_, let clicks):
            flushClicks(of: button, count: clicks, at: time, into: &events)
            if settings.actions[.hold] != nil {
                track.phase = .held(nextRepeat: nextRepeat(after: time, interval: settings.timing.repeatInterval))
                tracks[button] = track
                emit(button, .hold, at: time, into: &events)
            } else {
                track.phase = .held(nextRepeat: nil)
                tracks[button] = track
                emit(button, .long, at: time, into: &events)
            }
        case .held(let due?):
            track.phase = .held(nextRepeat: nextRepeat(after: due, interval: settings.timing.repeatInterval))
            tracks[button] = track
            emit(button, .hold, at: due, into: &events)
        case .released(let clicks, _):
            track.phase = .idle
            tracks[button] = track
            emit(button, .clicks(clicks), at: time, into: &events)
        case .held(nil), .idle, .chorded:
            break
        }
    }

    mutating func fireChord(_ index: Int, at time: Duration, into events: inout [GestureEvent]) {
        let settings = chords[index].settings
        chords[index].phase = .latched
        events.append(GestureEvent(time: time, buttons: settings.buttons, gesture: .chord, action: settings.action))
    }

    /// The next repeat after one at `time`; repeats that are already far behind `now` are skipped.
    func nextRepeat(after time: Duration, interval: Duration) -> Duration {
        let next = time + max(interval, .milliseconds(1))
        return now - next > Self.maximumLateness ? now : next
    }

    mutating func flushClicks(of button: ButtonName, count: Int, at time: Duration, into events: inout [GestureEvent]) {
        guard count > 0 else { return }
        emit(button, .clicks(count), at: time, into: &events)
    }

    func emit(_ button: ButtonName, _ gesture: Gesture, at time: Duration, into events: inout [GestureEvent]) {
        events.append(
            GestureEvent(
                time: time, buttons: [button], gesture: gesture, action: tracks[button]?.settings.actions[gesture]))
    }
}
