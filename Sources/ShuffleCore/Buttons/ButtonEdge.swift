/// One raw change of a button as a source saw it: pressed or released, at a time.
///
/// Times are durations since an arbitrary epoch that all sources and the caller's clock share
/// (on Linux, `CLOCK_MONOTONIC`: the kernel stamps GPIO and input events with it).
public struct ButtonEdge: Equatable, Sendable, CustomStringConvertible {
    /// Which way the contact went.
    public enum Kind: String, Sendable, Hashable {
        /// The button went down (the line became active).
        case press
        /// The button came up.
        case release
    }

    /// The button.
    public var button: ButtonName
    /// Press or release.
    public var kind: Kind
    /// When it happened (the kernel's timestamp where there is one).
    public var time: Duration

    /// Creates an edge.
    public init(_ button: ButtonName, _ kind: Kind, at time: Duration) {
        self.button = button
        self.kind = kind
        self.time = time
    }

    /// "1200ms play press".
    public var description: String { "\(DurationText.milliseconds(time))ms \(button.rawValue) \(kind.rawValue)" }
}
