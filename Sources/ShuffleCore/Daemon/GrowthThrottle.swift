/// How often the player's shuffle grows while a stick is indexed: the player reads the whole catalog again
/// each time, so new tracks join it at most every `interval` (and once more when the run ends).
public struct GrowthThrottle: Sendable, Equatable {
    /// The least time between two growths.
    public let interval: Duration
    private var next: Duration?

    /// Creates a throttle (3 s: a new stick's first minute of indexing grows the shuffle about 20 times).
    public init(interval: Duration = .seconds(3)) { self.interval = interval }

    /// Whether the shuffle may grow at `now`; if so, the next growth waits for `interval`.
    public mutating func mayGrow(at now: Duration) -> Bool {
        if let next, now < next { return false }
        next = now + interval
        return true
    }
}
