/// The time thresholds of one button's gestures.
public struct GestureTiming: Equatable, Sendable {
    /// A raw level must hold this long before it counts (contact bounce is shorter). Default 20 ms.
    public var debounce: Duration
    /// The longest gap between a release and the next press that still makes a double or triple
    /// click. A click waits this long only when the button has a double or triple action. Default 300 ms.
    public var doubleClick: Duration
    /// How long a press must last to be a long press (fires once, while held). Default 800 ms.
    public var longPress: Duration
    /// How long a press must last before hold-repeat starts. Default 500 ms.
    public var holdDelay: Duration
    /// The interval between hold repeats. Default 150 ms.
    public var repeatInterval: Duration

    /// Creates timing, with the defaults for anything not given.
    public init(
        debounce: Duration = .milliseconds(20), doubleClick: Duration = .milliseconds(300),
        longPress: Duration = .milliseconds(800), holdDelay: Duration = .milliseconds(500),
        repeatInterval: Duration = .milliseconds(150)
    ) {
        self.debounce = debounce
        self.doubleClick = doubleClick
        self.longPress = longPress
        self.holdDelay = holdDelay
        self.repeatInterval = repeatInterval
    }

    /// The defaults: 20 ms debounce, 300 ms double click, 800 ms long press, 500 ms hold delay, 150 ms repeat.
    public static let standard = GestureTiming()
}
