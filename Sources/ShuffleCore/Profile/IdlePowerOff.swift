/// The idle power-off: a box left paused, or with no stick, for so long powers off (a box left on with a
/// battery pack). Its one deadline is set on entering an idle state and removed on leaving it, so nothing
/// wakes in between. Time comes in as data (the loop's clock).
public struct IdlePowerOff: Sendable, Equatable {
    /// When the box powers off unless something happens first (nil: it is not idle, or the feature is off).
    public private(set) var deadline: Duration?

    /// Creates one with no deadline.
    public init() {}

    /// Whether a box in `state` is idle: paused, or with no stick. Playing, indexing or in error it is not (an
    /// error may be a device coming back).
    public static func isIdle(_ state: DaemonState) -> Bool {
        switch state {
        case .paused, .noLibrary: true
        case .playing, .indexing, .error: false
        }
    }

    /// The box is in `state` at `now`: an idle box keeps the deadline it has (set when it became idle), else gets
    /// one `seconds` from now; a busy one, or `seconds` 0 (off), has none. Returns whether the deadline changed.
    @discardableResult
    public mutating func update(state: DaemonState, now: Duration, seconds: Int) -> Bool {
        let before = deadline
        if seconds > 0, Self.isIdle(state) {
            if deadline == nil { deadline = now + .seconds(seconds) }
        } else {
            deadline = nil
        }
        return deadline != before
    }

    /// Whether the deadline has come at `now`: the box powers off (the deadline is used up).
    public mutating func isDue(now: Duration) -> Bool {
        guard let deadline, deadline <= now else { return false }
        self.deadline = nil
        return true
    }
}
