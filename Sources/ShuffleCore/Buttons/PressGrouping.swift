/// Tells one press held from separate presses by how close its actions come: a held button repeats its
/// action (every 150 ms for the volume), and actions closer together than `window` belong to the same press.
/// The voice says "that's as loud as it goes" once per press, not at every repeat.
public struct PressGrouping: Sendable, Equatable {
    /// Actions closer together than this are one press.
    public let window: Duration
    private var last: Duration?
    private var press: UInt64 = 0

    /// Creates a grouping with `window` (400 ms: more than a hold's 150 ms repeat, less than two quick clicks).
    public init(window: Duration = .milliseconds(400)) { self.window = window }

    /// The number of the press an action at `now` belongs to (1 for the first press, then counting up).
    public mutating func press(at now: Duration) -> UInt64 {
        if let last, now - last < window {
            self.last = now
            return press
        }
        last = now
        press += 1
        return press
    }
}
