import ShuffleCore

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal as five buttons, for development: the keys of `shufflebox play` (space play,
/// n next, p previous, + volume-up, - volume-down; q quits).
///
/// A terminal reports key strokes, not presses and releases, so each key becomes a press at the
/// time it was read and a release `pressLength` later (longer than any debounce, shorter than a
/// hold). On a terminal, line buffering and echo are switched off until `restore()` or deinit.
public final class KeyboardSource: ButtonSource {
    private let descriptor: Int32
    private let pressLength: Duration
    private let clock: () -> Duration
    private var saved: termios?
    private var last: Duration = .zero
    /// "keyboard".
    public let name = "keyboard"
    /// True after end of input.
    public private(set) var isFinished = false
    /// True after `q` was typed.
    public private(set) var quitRequested = false

    /// The descriptor to poll (stdin unless told otherwise).
    public var fileDescriptors: [Int32] { isFinished ? [] : [descriptor] }

    /// Reads keys from `descriptor`, stamping them with `clock`.
    public init(
        descriptor: Int32 = 0, pressLength: Duration = .milliseconds(60),
        clock: @escaping () -> Duration = MonotonicClock.now
    ) {
        self.descriptor = descriptor
        self.pressLength = pressLength
        self.clock = clock
        if isatty(descriptor) == 1 {
            var settings = termios()
            if tcgetattr(descriptor, &settings) == 0 {
                saved = settings
                settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
                _ = tcsetattr(descriptor, TCSANOW, &settings)
            }
        }
    }

    deinit { restore() }

    /// Puts the terminal back as it was.
    public func restore() {
        if var settings = saved {
            _ = tcsetattr(descriptor, TCSANOW, &settings)
            saved = nil
        }
    }

    /// The button a key stands for.
    public static func button(for key: UInt8) -> ButtonName? {
        switch key {
        case UInt8(ascii: " "): .play
        case UInt8(ascii: "n"): .next
        case UInt8(ascii: "p"): .previous
        case UInt8(ascii: "+"), UInt8(ascii: "="): .volumeUp
        case UInt8(ascii: "-"): .volumeDown
        default: nil
        }
    }

    /// Reads the keys typed since the last call.
    public func readEvents(ready descriptor: Int32) throws(ButtonSourceError) -> [ButtonEdge] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(self.descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return [] }
            isFinished = true
            throw ButtonSourceError(source: name, problem: String(cString: strerror(errno)), advice: "Use a terminal")
        }
        if count == 0 {
            isFinished = true
            return []
        }
        var edges: [ButtonEdge] = []
        var time = max(clock(), last)
        for key in buffer.prefix(count) {
            if key == UInt8(ascii: "q") { quitRequested = true }
            guard let button = Self.button(for: key) else { continue }
            edges.append(ButtonEdge(button, .press, at: time))
            edges.append(ButtonEdge(button, .release, at: time + pressLength))
            time += pressLength * 2
        }
        last = time
        return edges
    }
}
