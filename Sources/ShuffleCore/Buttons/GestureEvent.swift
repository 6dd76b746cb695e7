/// A recognised gesture and the action the board maps it to: what the recogniser emits.
public struct GestureEvent: Equatable, Sendable, CustomStringConvertible {
    /// When the gesture happened: the release for clicks, the moment the threshold was reached for
    /// long, hold and chord, the end of the double-click window for a click that waited for it.
    public var time: Duration
    /// The button, or the two buttons of a chord (in the chord's order).
    public var buttons: [ButtonName]
    /// The gesture.
    public var gesture: Gesture
    /// The mapped action; nil when the board maps nothing to this gesture (it is still reported,
    /// so that the wiring check shows every working button).
    public var action: ButtonAction?

    /// Creates an event.
    public init(time: Duration, buttons: [ButtonName], gesture: Gesture, action: ButtonAction?) {
        self.time = time
        self.buttons = buttons
        self.gesture = gesture
        self.action = action
    }

    /// The button name as printed: "play", or "volume-up+volume-down" for a chord.
    public var buttonLabel: String { buttons.map(\.rawValue).joined(separator: "+") }

    /// "1200ms play click play-pause".
    public var description: String {
        "\(DurationText.milliseconds(time))ms \(buttonLabel) \(gesture.rawValue) \(action?.rawValue ?? "-")"
    }
}
