/// How long music has played (MPD's `stats` `playtime`): the stretches spent playing, counted when the state
/// changes and read when asked, so nothing ticks while it plays.
public struct PlayTime: Sendable, Equatable {
    private var before: Duration = .zero
    private var since: Duration?

    /// Creates a count of nothing played.
    public init() {}

    /// The box is now playing (or not) at `now`.
    public mutating func update(playing: Bool, now: Duration) {
        if playing, since == nil {
            since = now
        } else if !playing, let start = since {
            before += now - start
            since = nil
        }
    }

    /// The time played up to `now`.
    public func total(now: Duration) -> Duration {
        before + (since.map { now - $0 } ?? .zero)
    }
}
