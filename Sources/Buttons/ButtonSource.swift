import ShuffleCore

/// Something that reports button edges and can be waited on with `poll(2)`: GPIO lines, an input
/// device, the terminal, a script.
///
/// The owner polls every descriptor in `fileDescriptors` for `POLLIN` (with a timeout from the
/// recogniser's `nextDeadline`), then calls `readEvents(ready:)` for each one that is readable and
/// feeds the edges to a `GestureRecognizer`. Nothing busy-polls: an idle source costs nothing.
/// A source belongs to one thread (the control loop).
public protocol ButtonSource: AnyObject {
    /// What this source reads, for messages: "GPIO pinctrl-bcm2711", "keyboard".
    var name: String { get }
    /// The descriptors to poll for input.
    var fileDescriptors: [Int32] { get }
    /// Reads what is pending on `descriptor` (one of `fileDescriptors`, reported readable).
    func readEvents(ready descriptor: Int32) throws(ButtonSourceError) -> [ButtonEdge]
    /// True once the source has ended (end of input, device unplugged): stop polling it.
    var isFinished: Bool { get }
    /// The lines active when the source was opened: no edge will report them until they are released.
    func activeAtOpen() -> [ButtonName]
}

extension ButtonSource {
    /// Sources that cannot tell report none.
    public func activeAtOpen() -> [ButtonName] { [] }
}

/// A source that failed: which device or line, what happened, and what to do about it.
public struct ButtonSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The source: "GPIO pinctrl-bcm2711 line 17 (play, header pin 11)".
    public var source: String
    /// What happened: "permission denied".
    public var problem: String
    /// What to do: "add the user to the gpio group".
    public var advice: String
    /// Whether time alone may clear it: at boot a chip may not be there yet, or not yet handed to the gpio
    /// group by udev, when the daemon starts (it starts beside udev, not after it).
    public var transient: Bool

    /// Creates an error.
    public init(source: String, problem: String, advice: String, transient: Bool = false) {
        self.source = source
        self.problem = problem
        self.advice = advice
        self.transient = transient
    }

    /// "GPIO pinctrl-bcm2711 line 17 (play): busy. Is another program using GPIO17? ...".
    public var description: String { "\(source): \(problem). \(advice)" }
}
